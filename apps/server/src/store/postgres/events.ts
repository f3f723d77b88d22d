import { StoreError, type EventRecord, type EventStore, type NewEvent } from '../types.ts';
import { event } from '../rules/rows.ts';
import { inPacedBatches } from '../batches.ts';
import { CHANNEL } from './changes.ts';
import { retentionTurn, type PostgresDb, type Tx } from './transaction.ts';

/** Rows a purge drops per transaction (store/batches.ts). */
const PURGE_BATCH = 1_000;

/**
 * Appends `events` under the account's row lock, kept until COMMIT: the account's appends take
 * their ids and commit in one order, so a reader that sees id n has already seen every id of the
 * account below n. Its statements all go out at once, the lock first (granted before the ids are
 * taken), so the caller sends COMMIT with them (`tx.commit()`) and the lock is held for that one
 * round trip. The ids are taken in the insert and given to the events in order.
 */
export async function insertEvents(tx: Tx, accountId: string, events: readonly NewEvent[]): Promise<EventRecord[]> {
  if (events.length === 0) return [];
  const input = events.map((e) => ({ type: e.type, time: e.time, data: JSON.stringify(e.data) }));
  // The NOTIFY goes in the insert: delivered at COMMIT, and only if it commits.
  const payload = `e:${accountId}`;
  tx.announce(payload);
  const [[locked], [appended]] = await Promise.all([
    tx`SELECT id FROM accounts WHERE id = ${accountId} FOR NO KEY UPDATE`,
    tx`WITH ids AS (SELECT nextval('event_ids') AS id FROM generate_series(1, ${events.length})),
        numbered AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM ids),
        input AS (SELECT * FROM ROWS FROM (jsonb_to_recordset(${tx.json(input)}::jsonb) AS (type text, time bigint, data text)) WITH ORDINALITY AS t(type, time, data, n)),
        appended AS (INSERT INTO events (account_id, id, type, time, data)
          SELECT ${accountId}, numbered.id, input.type, input.time, input.data FROM numbered JOIN input USING (n)
          WHERE EXISTS (SELECT 1 FROM accounts WHERE id = ${accountId}) RETURNING id),
        woken AS (SELECT pg_notify(${CHANNEL}, ${payload}) FROM appended LIMIT 1)
      UPDATE accounts a SET last_event_id = (SELECT max(id) FROM appended)
        FROM (SELECT last_event_id AS before FROM accounts WHERE id = ${accountId}) b WHERE a.id = ${accountId}
      RETURNING (SELECT array_agg(id ORDER BY id) FROM appended) AS ids, (SELECT count(*) FROM woken) AS woken, b.before`,
  ]);
  // Nothing was appended (the insert checks the account too), whether or not COMMIT went with it.
  if (!locked || !appended) throw new StoreError(`no account "${accountId}" to append events to`);
  const ids = (appended.ids as string[]).map(Number);
  const records = events.map((e, i) => ({ id: ids[i]!, accountId, type: e.type, time: e.time, data: e.data }));
  tx.appended(accountId, Number(appended.before), records);
  return records;
}

export function events(db: PostgresDb): EventStore {
  /** Drops `table`'s rows whose `time` is before `olderThan`, a paced batch at a time, on the replica whose retention turn it is. */
  const purgeOlder = (table: string, time: string, olderThan: number) => inPacedBatches((size) => db.write(async (tx) => {
    if (!(await retentionTurn(tx))) return 0;
    return (await tx`DELETE FROM ${tx(table)} WHERE ctid = ANY(ARRAY(SELECT ctid FROM ${tx(table)} WHERE ${tx(time)} < ${olderThan} LIMIT ${size}))`).count;
  }), PURGE_BATCH);

  const readEvents = (accountId: string, after: number, limit: number) =>
    db.read(async (sql) => (await sql`SELECT * FROM events WHERE account_id = ${accountId} AND id > ${after} ORDER BY id LIMIT ${limit}`).map(event));
  return {
    appendEvents(accountId, events) {
      return db.write(async (tx) => (await Promise.all([insertEvents(tx, accountId, events), tx.commit()]))[0]);
    },

    readEvents,

    followEvents(accountId, after, limit) {
      const recent = db.following ? db.recent.follow(accountId, after, limit) : null;
      return recent ? Promise.resolve(recent) : readEvents(accountId, after, limit);
    },

    eventsPurgedThrough(accountId) {
      return db.read(async (sql) => {
        const [row] = await sql`SELECT events_purged_through FROM accounts WHERE id = ${accountId}`;
        return row ? Number(row.events_purged_through) : 0;
      });
    },

    newestEventId(accountId) {
      // The counter is the largest id ever taken, committed: a rolled-back append takes none.
      return db.read(async (sql) => {
        const [row] = await sql`SELECT last_event_id FROM accounts WHERE id = ${accountId}`;
        return row ? Number(row.last_event_id) : 0;
      });
    },

    async purgeEvents(olderThan) {
      // A backlog goes in short transactions, a batch each: a day of rows never holds the
      // accounts' rows (which every append locks) for long, nor runs into the statement timeout.
      const events = await inPacedBatches((size) => db.write(async (tx) => {
        if (!(await retentionTurn(tx))) return 0;
        // In the same transaction: no cursor at or past an account's events_purged_through misses a dropped event.
        const [row] = await tx`WITH gone AS (DELETE FROM events WHERE (account_id, id) IN
              (SELECT account_id, id FROM events WHERE time < ${olderThan} LIMIT ${size}) RETURNING account_id, id),
            recorded AS (UPDATE accounts a SET events_purged_through = GREATEST(a.events_purged_through, p.through)
              FROM (SELECT account_id, MAX(id) AS through FROM gone GROUP BY account_id) p WHERE a.id = p.account_id)
          SELECT (SELECT count(*) FROM gone)::int AS n`;
        return row!.n as number;
      }), PURGE_BATCH);
      // A platform record is kept as long as its stream event: a re-report later than that is not expected.
      await purgeOlder('platform_records', 'recorded_at', olderThan);
      // Messages are kept as long as the events that reported them.
      await purgeOlder('messages', 'recorded_at', olderThan);
      return events;
    },
  };
}
