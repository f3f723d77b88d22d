import type { Sql, TransactionSql } from 'postgres';

/** A transaction of the store: postgres.js's, with a way to record the NOTIFYs it sends. */
export type Tx = TransactionSql & {
  /** Records a NOTIFY payload the transaction sends (see announcements.ts). */
  announce(payload: string): void;
};

/**
 * Runs `fn` in one transaction (`sql.begin`) and resolves with its result once COMMIT is answered.
 * `sql.begin` rather than a reserved connection with BEGIN and COMMIT pipelined: postgres.js
 * 3.4.9 strands a reserved connection that is lost and reconnected (porsager/postgres#1195).
 */
export function transaction<T>(sql: Sql, fn: (tx: Tx) => Promise<T>, announce: (payload: string) => void): Promise<T> {
  return sql.begin((tx) => fn(Object.assign(tx, { announce }))) as Promise<T>;
}
