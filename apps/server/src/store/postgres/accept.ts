import postgres, { type Sql } from 'postgres';
import { StoreError, type AcceptResult, type NewCommand } from '../types.ts';
import { command } from '../rules/rows.ts';
import { queued } from '../rules/commands.ts';
import { CHANNEL } from './changes.ts';
import type { OwnAnnouncements } from './announcements.ts';

/** What a batch answers: it never refuses (commands held to line policies go to policies.ts). */
type Accepted = Exclude<AcceptResult, { disposition: 'refused' }>;

interface Pending {
  input: NewCommand;
  keyNotBefore: number;
  resolve: (result: Accepted) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for intake: every command accepted in one event-loop turn goes to the database in
 * one statement, so a turn's commands share one round trip and one COMMIT (one WAL flush). The
 * statement claims the idempotency keys (`ON CONFLICT`: a key past retention is taken over, a
 * live one is left to its command, after waiting for the transaction that holds it), inserts the
 * commands whose key it claimed or that have none, and wakes the accounts' polls with NOTIFY, all
 * in one transaction. A command whose key was not claimed adopts the command holding it, read
 * after COMMIT. Two commands of one batch with one key: the first goes in, the second adopts it.
 * Keys are claimed in key order, so two replicas' batches sharing keys wait for each other rather
 * than deadlock.
 */
export class AcceptBatches {
  private readonly sql: Sql;
  private readonly maxInFlight: number;
  /** The statement's NOTIFYs, expected back (announcements.ts). */
  private readonly own: OwnAnnouncements;
  /** Commands waiting for the next statement. */
  private waiting: Pending[] = [];
  private scheduled = false;
  private inFlight = 0;

  /**
   * `maxInFlight` statements at a time: while one commits, the next commands gather into one
   * batch, so a loaded server sends fewer, larger statements; an idle one sends each command at
   * the end of its turn.
   */
  constructor(sql: Sql, own: OwnAnnouncements, maxInFlight = 1) {
    this.sql = sql;
    this.own = own;
    this.maxInFlight = maxInFlight;
  }

  accept(input: NewCommand, keyNotBefore: number): Promise<Accepted> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ input, keyNotBefore, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.next();
        });
      }
    });
  }

  private next(): void {
    if (this.inFlight >= this.maxInFlight || this.waiting.length === 0) return;
    const batch = this.waiting;
    this.waiting = [];
    this.inFlight++;
    void this.run(batch).finally(() => {
      this.inFlight--;
      this.next();
    });
  }

  private async run(batch: Pending[]): Promise<void> {
    // One key once per statement (ON CONFLICT cannot change a row twice): the rest follow the first.
    const leaders: Pending[] = [];
    const followers = new Map<Pending, Pending[]>();
    const byKey = new Map<string, Pending>();
    for (const item of batch) {
      const key = item.input.idempotencyKey === null ? null : `${item.input.accountId}\u0000${item.input.idempotencyKey}`;
      const leader = key === null ? undefined : byKey.get(key);
      if (leader) followers.get(leader)!.push(item);
      else {
        leaders.push(item);
        followers.set(item, []);
        if (key !== null) byKey.set(key, item);
      }
    }
    const settle = (leader: Pending, outcome: { result: Accepted } | { error: unknown }) => {
      if ('error' in outcome) {
        leader.reject(outcome.error);
        for (const f of followers.get(leader)!) f.reject(outcome.error);
        return;
      }
      leader.resolve(outcome.result);
      for (const f of followers.get(leader)!) f.resolve({ disposition: 'adopted', command: outcome.result.command });
    };
    try {
      const results = await this.write(leaders);
      leaders.forEach((leader, i) => settle(leader, { result: results[i]! }));
    } catch (error) {
      // A row the schema refuses (class 23) fails alone: the others are tried one by one. Any
      // other failure may have come after COMMIT, so nothing is tried twice.
      if (leaders.length > 1 && error instanceof postgres.PostgresError && error.code.startsWith('23')) {
        await Promise.all(leaders.map(async (leader) => {
          try {
            settle(leader, { result: (await this.write([leader]))[0]! });
          } catch (single) {
            settle(leader, { error: single });
          }
        }));
      } else {
        for (const leader of leaders) settle(leader, { error });
      }
    }
  }

  /** One statement; each account's NOTIFY is expected before it goes, and heard here if it was not sent. */
  private async write(items: Pending[]): Promise<Accepted[]> {
    const wakes = [...new Set(items.map((item) => `c:${item.input.accountId}`))];
    for (const payload of wakes) this.own.expect(payload);
    let sent: ReadonlySet<string> = new Set();
    try {
      const results = await this.insert(items);
      sent = new Set(results.filter((r) => r.disposition === 'queued').map((r) => `c:${r.command.accountId}`));
      return results;
    } finally {
      for (const payload of wakes) if (!sent.has(payload)) this.own.failed(payload);
    }
  }

  private async insert(items: Pending[]): Promise<Accepted[]> {
    const rows = items.map(({ input, keyNotBefore }) => ({
      id: input.id,
      account_id: input.accountId,
      type: input.type,
      routing_path: input.routingPath,
      target: JSON.stringify(input.target),
      payload: JSON.stringify(input.payload),
      logical_action_id: input.logicalActionId,
      idempotency_key: input.idempotencyKey,
      conversation_id: input.conversationId,
      created_at: input.createdAt,
      key_not_before: keyNotBefore,
    }));
    const inserted = await this.sql`
      WITH input AS (
        SELECT * FROM jsonb_to_recordset(${this.sql.json(rows)}::jsonb) AS t(id text, account_id text, type text, routing_path text,
          target text, payload text, logical_action_id text, idempotency_key text, conversation_id text, created_at bigint, key_not_before bigint)
      ),
      claimed AS (
        INSERT INTO idempotency_keys AS k (account_id, key, command_id, created_at)
        SELECT account_id, idempotency_key, id, created_at FROM input WHERE idempotency_key IS NOT NULL
        ORDER BY account_id, idempotency_key
        ON CONFLICT (account_id, key) DO UPDATE SET command_id = excluded.command_id, created_at = excluded.created_at
          WHERE k.created_at < (SELECT i.key_not_before FROM input i WHERE i.id = excluded.command_id)
        RETURNING command_id
      ),
      inserted AS (
        INSERT INTO commands (id, account_id, type, routing_path, status, target, payload, logical_action_id, idempotency_key, conversation_id, created_at)
        SELECT id, account_id, type, routing_path, 'queued', target, payload, logical_action_id, idempotency_key, conversation_id, created_at
        FROM input WHERE idempotency_key IS NULL OR id IN (SELECT command_id FROM claimed)
        RETURNING id, account_id
      ),
      woken AS (
        SELECT count(*) AS n FROM (SELECT pg_notify(${CHANNEL}, 'c:' || account_id) FROM (SELECT DISTINCT account_id FROM inserted) a) w
      )
      SELECT inserted.id FROM inserted, woken`;
    const insertedIds = new Set(inserted.map((r) => r.id as string));
    return Promise.all(items.map(async ({ input }): Promise<Accepted> => {
      if (insertedIds.has(input.id)) return queued(input);
      // The key is held by a command committed before ours: adopt it (read after our COMMIT).
      const [row] = await this.sql`SELECT c.* FROM idempotency_keys k JOIN commands c ON c.id = k.command_id
        WHERE k.account_id = ${input.accountId} AND k.key = ${input.idempotencyKey}`;
      if (!row) throw new StoreError('an idempotency key was claimed without its command');
      return { disposition: 'adopted', command: command(row) };
    }));
  }
}
