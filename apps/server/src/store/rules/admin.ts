import type { SettlementCode } from '@switchboard/contracts';
import type { AuditRecord, CommandFilter, CommandRecord, MinuteCounts, Page } from '../types.ts';
import type { Row } from './rows.ts';

/** One condition of an operator's command search; columns and operators come from this closed set only. */
export type CommandCondition =
  | { column: 'account_id' | 'status' | 'error_code' | 'type'; op: '='; value: string }
  | { column: 'created_at'; op: '>=' | '<'; value: number }
  /** The cursor: ids are time-ordered, so a page goes on below the last id shown. */
  | { column: 'id'; op: '<'; value: string }
  /** A held command is stored `queued` with the policy holding it in `held_by`. */
  | { column: 'held_by'; op: 'is null' | 'is not null' };

/** What `listCommands` asks of the commands table, both stores rendering it as their SQL (an empty list: every command). */
export function commandConditions(filter: CommandFilter, cursor: string | null): CommandCondition[] {
  const conditions: CommandCondition[] = [];
  if (filter.accountId !== undefined) conditions.push({ column: 'account_id', op: '=', value: filter.accountId });
  if (filter.status !== undefined) {
    conditions.push({ column: 'status', op: '=', value: filter.status === 'held' ? 'queued' : filter.status });
    if (filter.status === 'held' || filter.status === 'queued') conditions.push({ column: 'held_by', op: filter.status === 'held' ? 'is not null' : 'is null' });
  }
  if (filter.errorCode !== undefined) conditions.push({ column: 'error_code', op: '=', value: filter.errorCode });
  if (filter.type !== undefined) conditions.push({ column: 'type', op: '=', value: filter.type });
  if (filter.createdFrom !== undefined) conditions.push({ column: 'created_at', op: '>=', value: filter.createdFrom });
  if (filter.createdBefore !== undefined) conditions.push({ column: 'created_at', op: '<', value: filter.createdBefore });
  if (cursor !== null) conditions.push({ column: 'id', op: '<', value: cursor });
  return conditions;
}

/** A page of `limit` from rows read with `limit + 1` (newest first): the extra row says another page follows. */
export function commandPage(rows: readonly CommandRecord[], limit: number): Page<CommandRecord> {
  const items = rows.slice(0, limit);
  return { items, nextCursor: rows.length > limit ? items.at(-1)!.id : null };
}

/** The audit log's cursor is the last id shown; anything else (not a page's nextCursor) reads nothing. */
export function auditBefore(cursor: string | null): number {
  if (cursor === null) return Number.MAX_SAFE_INTEGER;
  return /^\d{1,15}$/.test(cursor) ? Number(cursor) : 0;
}

export function auditPage(rows: readonly AuditRecord[], limit: number): Page<AuditRecord> {
  const items = rows.slice(0, limit);
  return { items, nextCursor: rows.length > limit ? String(items.at(-1)!.id) : null };
}

export const MINUTE_MS = 60_000;

/**
 * The minutes that had any command accepted or settled (oldest first), from the stores' two
 * grouped reads: accepted by minute (`minute`, `count`), and settled by minute and `status`.
 */
export function minuteCounts(accepted: readonly Row[], settled: readonly Row[]): MinuteCounts[] {
  const minutes = new Map<number, MinuteCounts>();
  const at = (minute: number) => {
    let counts = minutes.get(minute);
    if (!counts) minutes.set(minute, (counts = { minute, accepted: 0, succeeded: 0, failed: 0 }));
    return counts;
  };
  for (const row of accepted) at(Number(row.minute)).accepted += Number(row.count);
  for (const row of settled) {
    if (row.status === 'succeeded') at(Number(row.minute)).succeeded += Number(row.count);
    else if (row.status === 'failed') at(Number(row.minute)).failed += Number(row.count);
  }
  return [...minutes.values()].sort((a, b) => a.minute - b.minute);
}

/** Failures by settlement code (rows of `code`, `count`), most frequent first (ties by code, so the order is stable). */
export function failureCounts(rows: readonly Row[]): Array<{ code: SettlementCode; count: number }> {
  return rows
    .map((row) => ({ code: row.code as SettlementCode, count: Number(row.count) }))
    .sort((a, b) => b.count - a.count || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}
