import type { EventRecord, EventStore, NewEvent } from '../types.ts';
import { event } from '../rules/rows.ts';
import { inPacedBatches } from '../batches.ts';
import type { SqliteDb } from './transaction.ts';

/** Rows a purge drops per transaction (store/batches.ts). */
const PURGE_BATCH = 250;

/** Appends inside a write; SQLite's single writer gives ids in commit order. */
export function insertEvents(db: SqliteDb, accountId: string, events: readonly NewEvent[]): EventRecord[] {
  const insert = db.sql('INSERT INTO events (account_id, type, time, data) VALUES (?, ?, ?, ?)');
  return events.map((e) => {
    const { lastInsertRowid } = insert.run(accountId, e.type, e.time, JSON.stringify(e.data));
    return { id: Number(lastInsertRowid), accountId, type: e.type, time: e.time, data: e.data };
  });
}

export function events(db: SqliteDb): EventStore {
  /** Drops `table`'s rows whose `time` is before `olderThan`, by their primary `key`, a paced batch at a time. */
  const purgeOlder = (table: string, key: string, time: string, olderThan: number) => inPacedBatches((size) => db.write(() => Number(db.sql(
    `DELETE FROM ${table} WHERE (${key}) IN (SELECT ${key} FROM ${table} WHERE ${time} < ? LIMIT ?)`,
  ).run(olderThan, size).changes)), PURGE_BATCH);

  const readEvents = (accountId: string, after: number, limit: number) =>
    db.read(() => db.query('SELECT * FROM events WHERE account_id = ? AND id > ? ORDER BY id LIMIT ?').all(accountId, after, limit).map(event));
  return {
    appendEvents(accountId, events) {
      return db.write(() => insertEvents(db, accountId, events));
    },

    readEvents,
    followEvents: readEvents,

    eventsPurgedThrough(accountId) {
      return db.read(() => {
        const row = db.query('SELECT events_purged_through FROM accounts WHERE id = ?').get(accountId);
        return row ? Number(row.events_purged_through) : 0;
      });
    },

    newestEventId(accountId) {
      return db.read(() => {
        const row = db.query(
          'SELECT MAX(COALESCE((SELECT MAX(id) FROM events WHERE account_id = ?), 0), COALESCE((SELECT events_purged_through FROM accounts WHERE id = ?), 0)) AS newest',
        ).get(accountId, accountId);
        return Number(row?.newest ?? 0);
      });
    },

    async purgeEvents(olderThan) {
      // A backlog goes in short transactions, a batch each, through the time indexes (migration
      // 007): a day of rows never holds the writer, or the event loop, for long.
      const events = await inPacedBatches((size) => db.write(() => {
        const gone = db.sql('DELETE FROM events WHERE id IN (SELECT id FROM events WHERE time < ? LIMIT ?) RETURNING account_id, id').all(olderThan, size);
        // In the same transaction: no cursor at or past an account's events_purged_through misses a dropped event.
        const through = new Map<string, number>();
        for (const row of gone) through.set(row.account_id as string, Math.max(through.get(row.account_id as string) ?? 0, Number(row.id)));
        const record = db.sql('UPDATE accounts SET events_purged_through = MAX(events_purged_through, ?) WHERE id = ?');
        for (const [accountId, id] of through) record.run(id, accountId);
        return gone.length;
      }), PURGE_BATCH);
      // A platform record is kept as long as its stream event: a re-report later than that is not expected.
      await purgeOlder('platform_records', 'account_id, conversation_id, type, identity', 'recorded_at', olderThan);
      // Messages are kept as long as the events that reported them.
      await purgeOlder('messages', 'account_id, conversation_id, message_external_id', 'recorded_at', olderThan);
      return events;
    },
  };
}
