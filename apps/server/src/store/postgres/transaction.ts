import postgres, { type ReservedSql, type Sql } from 'postgres';
import { StoreError, type EventRecord } from '../types.ts';
import { ReadCache } from './cache.ts';
import { AcceptBatches } from './accept.ts';
import { OwnAnnouncements } from './announcements.ts';
import { RecentAppends } from './recent.ts';

/** A transaction of the store, on one connection of the pool. */
export type Tx = ReservedSql & {
  /**
   * Sends COMMIT behind the statements made in the same turn, so the last round trip of a
   * transaction carries its COMMIT too: call it beside the transaction's last statements, with
   * nothing after it that can fail. Without it, COMMIT goes once `fn` has resolved.
   */
  commit(): Promise<unknown>;
  /** Records a NOTIFY payload the transaction sends (see announcements.ts). */
  announce(payload: string): void;
  /** Records an append: `events` follow `after` in the account's log once the transaction commits (recent.ts). */
  appended(accountId: string, after: number, events: EventRecord[]): void;
};

/**
 * Runs `fn` in one transaction and resolves with its result once COMMIT is answered. BEGIN goes
 * out with `fn`'s first statements (postgres.js writes what a turn sends in one go), not in a
 * round trip of its own as `sql.begin` does (a BEGIN on an idle session fails only with the
 * session, and then so does everything sent after it). A statement that fails aborts the transaction, so a
 * COMMIT sent behind it rolls back; the ROLLBACK sent after any failure then only ends it. A
 * connection lost meanwhile fails what was sent on it (patches/postgres@3.4.9.patch).
 */
export async function transaction<T>(sql: Sql, fn: (tx: Tx) => Promise<T>, records: Pick<Tx, 'announce' | 'appended'>): Promise<T> {
  const reserved = await sql.reserve();
  let committing: Promise<unknown> | null = null;
  // A query is sent a few microtasks after it is made (postgres.js, and Promise.all or await
  // around it); a tick queued now runs once those are drained, so COMMIT goes out last.
  const commit = () => (committing ??= new Promise((resolve, reject) => process.nextTick(() => reserved`COMMIT`.execute().then(resolve, reject))));
  const tx = Object.assign(reserved, { commit, announce: records.announce, appended: records.appended });
  const begin = reserved`BEGIN`.execute();
  try {
    const result = await fn(tx);
    await Promise.all([begin, tx.commit()]);
    return result;
  } catch (error) {
    await Promise.allSettled([begin, committing]);
    await reserved`ROLLBACK`.catch(() => undefined);
    throw error;
  } finally {
    reserved.release();
  }
}

/** Retention runs in the replica that takes this lock first; the others skip the round. */
const RETENTION_LOCK = 0x5357_0002;

/** True in the one transaction (across replicas) that may run retention now. */
export async function retentionTurn(tx: Tx): Promise<boolean> {
  const [row] = await tx`SELECT pg_try_advisory_xact_lock(${RETENTION_LOCK}) AS mine`;
  return row!.mine === true;
}

/**
 * The PostgreSQL store's connections and what its replica keeps beside them: every write is one
 * transaction at READ COMMITTED and resolves after COMMIT; reads see only committed rows.
 */
export class PostgresDb {
  readonly sql: Sql;
  /** Intake's own connection (accept batches, the cache's version checks); `sql` when the pool is one connection. */
  readonly intake: Sql;
  /** Intake's reads, kept until a replica announces a change (cache.ts). */
  readonly cache: ReadCache;
  readonly accepts: AcceptBatches;
  /** What this replica announced and has not heard back yet. */
  readonly own = new OwnAnnouncements();
  /** This replica's own appends, for its stream readers (recent.ts); kept only while it hears the others'. */
  readonly recent = new RecentAppends();
  following = false;
  /** Writes issued and not yet committed or rolled back. */
  private readonly pending = new Set<Promise<unknown>>();

  constructor(sql: Sql, intake: Sql) {
    this.sql = sql;
    this.intake = intake;
    this.cache = new ReadCache(sql, intake);
    this.accepts = new AcceptBatches(intake, this.own);
  }

  /** One transaction; a database failure (not the caller's own error) becomes a StoreError. */
  write<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    // PostgreSQL delivers a payload sent twice in one transaction once: it is expected once.
    const announced = new Set<string>();
    const appends: Array<[accountId: string, after: number, events: EventRecord[]]> = [];
    const run = transaction(this.sql, fn, {
      announce: (payload) => {
        if (announced.has(payload)) return;
        announced.add(payload);
        this.own.expect(payload);
      },
      appended: (accountId, after, events) => appends.push([accountId, after, events]),
    });
    // Kept before the caller hears of the COMMIT (and wakes the streams): this runs first.
    run.then(() => { if (this.following) for (const [accountId, after, events] of appends) this.recent.record(accountId, after, events); }, () => {
      for (const payload of announced) this.own.failed(payload);
    });
    return this.committed(run);
  }

  /** A write that is one statement, its own transaction: no BEGIN and COMMIT round trips. */
  statement<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    return this.committed(fn(this.sql));
  }

  /** Tracks a write until it ends (`flushed`); a database failure becomes a StoreError. */
  committed<T>(write: Promise<T>): Promise<T> {
    const done = write.catch((error: unknown) => {
      throw databaseFailure(error) ? new StoreError('the transaction did not commit; nothing of it was written', { cause: error }) : error;
    });
    this.pending.add(done);
    const forget = () => this.pending.delete(done);
    done.then(forget, forget);
    return done;
  }

  async read<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    try {
      return await fn(this.sql);
    } catch (error) {
      throw databaseFailure(error) ? new StoreError('the database could not be read', { cause: error }) : error;
    }
  }

  async flushed(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }

  async close(): Promise<void> {
    await this.cache.close();
    if (this.intake !== this.sql) await this.intake.end({ timeout: 5 });
    await this.sql.end({ timeout: 5 });
  }
}

/** What the database (or the way to it) failed at, as opposed to an error of the caller's own code. */
function databaseFailure(error: unknown): boolean {
  if (error instanceof postgres.PostgresError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  // The client's connection errors (CONNECT_TIMEOUT, CONNECTION_CLOSED...) and node's (ECONNREFUSED...).
  return typeof code === 'string' && /^(CONNECT|CONNECTION_|E[A-Z]+$)/.test(code);
}
