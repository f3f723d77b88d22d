import type { ReservedSql, Sql } from 'postgres';
import type { EventRecord } from '../types.ts';

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
