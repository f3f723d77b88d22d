import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { StoreError, type AcceptResult, type NewCommand } from '../types.ts';
import { queued } from '../rules/commands.ts';

const COMMAND_COLUMNS = 'id, account_id, type, routing_path, status, target, payload, logical_action_id, idempotency_key, conversation_id, created_at';
/**
 * The row counts of the multi-row command inserts, largest first: a group's deferred commands go
 * in as few statements of these sizes as add up to them (28: 16, 8, 4). One statement of many
 * rows costs 40 % less a row than a statement a row (1.9 against 3.2 µs, a loop alone).
 */
const CHUNKS = [64, 32, 16, 8, 4, 2, 1];
const INSERT_COMMANDS = new Map(CHUNKS.map((rows) => [
  rows,
  `INSERT INTO commands (${COMMAND_COLUMNS}) VALUES ${Array(rows).fill("(?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?, ?)").join(', ')}`,
]));

export type Waiter = { resolve: () => void; reject: (error: unknown) => void };
/**
 * A command without an idempotency key, inserted at its group's COMMIT together with the group's
 * others, or before the next other write of the group: back to back, in a few multi-row
 * statements, rather than a statement between each request's other work, where SQLite's pages
 * and code are cold.
 */
export type Deferred = { input: NewCommand; resolve: (result: AcceptResult) => void; reject: (error: unknown) => void };
/** The writes of one event-loop turn, committed together; `synced`: with an fsync (FULL). */
export type Group = { waiters: Waiter[]; synced: boolean; committed: Promise<void>; deferred: Deferred[] };

/** One statement for all of `inputs` (a size in CHUNKS). */
export function insertCommands(sql: (text: string) => StatementSync, inputs: readonly NewCommand[]): void {
  const values: SQLInputValue[] = [];
  for (const input of inputs) {
    values.push(
      input.id, input.accountId, input.type, input.routingPath, JSON.stringify(input.target), JSON.stringify(input.payload),
      input.logicalActionId, input.idempotencyKey, input.conversationId, input.createdAt,
    );
  }
  sql(INSERT_COMMANDS.get(inputs.length)!).run(...values);
}

/**
 * Inserts `group`'s deferred commands in its transaction. A statement SQLite refuses undoes
 * itself alone, and its rows are tried one by one, so a row that fails is rejected alone. A
 * failure that rolls the transaction back loses what the group wrote before it, as a failed
 * write does, and the rows after it go on in a new transaction. False when no transaction is
 * open after.
 */
export function insertDeferred(db: DatabaseSync, sql: (text: string) => StatementSync, group: Group): boolean {
  const chunks = chunked(group.deferred);
  group.deferred = [];
  for (let i = 0; i < chunks.length; i++) {
    const chunk = chunks[i]!;
    try {
      insertCommands(sql, chunk.map((item) => item.input));
    } catch (error) {
      if (db.isTransaction) {
        // SQLite undid this statement alone: its rows go again one by one, so only a bad row fails.
        if (chunk.length > 1) chunks.splice(i + 1, 0, ...chunk.map((item) => [item]));
        else chunk[0]!.reject(error);
        continue;
      }
      for (const item of chunk) item.reject(error);
      const failure = new StoreError('the transaction was rolled back', { cause: error });
      for (const waiter of group.waiters) waiter.reject(failure);
      group.waiters = [];
      try {
        db.exec('BEGIN IMMEDIATE');
      } catch (begin) {
        const failure = new StoreError('could not begin a transaction', { cause: begin });
        for (const rest of chunks.slice(i + 1).flat()) rest.reject(failure);
        return false;
      }
      continue;
    }
    for (const item of chunk) group.waiters.push({ resolve: () => item.resolve(queued(item.input)), reject: item.reject });
  }
  return true;
}

/** `items` in runs of the sizes in CHUNKS, as few as add up to them. */
function chunked<T>(items: readonly T[]): T[][] {
  const chunks: T[][] = [];
  for (let at = 0; at < items.length;) {
    const rows = CHUNKS.find((size) => size <= items.length - at)!;
    chunks.push(items.slice(at, (at += rows)));
  }
  return chunks;
}
