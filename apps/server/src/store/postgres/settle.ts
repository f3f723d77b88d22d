import type { TransactionSql } from 'postgres';
import type { PlatformEvent } from '@switchboard/contracts';
import type { CommandRecord, EventRecord, NewEvent, SettleResult, Settlement } from '../types.ts';
import { command } from '../rows.ts';
import { announcesConversationOf } from '../platform.ts';
import { applyPlatformEvent, cacheChanged, insertEvents, isLiveEpoch } from './store.ts';

/**
 * Settles a batch in one transaction (the caller's): each item in order, with its platform
 * events first. Every stream event of the batch is appended at the end, in the batch's order, so
 * the account's row lock (insertEvents) is held only for that insert and the COMMIT; the
 * commands' updates go out pipelined with it. Returns whether a conversation row changed, for
 * the read cache.
 */
export async function settleBatch(tx: TransactionSql, settlements: readonly Settlement[]): Promise<{ results: SettleResult[]; conversationsChanged: boolean }> {
  const changed = { conversations: false };
  const appends: NewEvent[] = [];
  const updates: Array<Promise<unknown>> = [];
  /** For each settled item: its index among the results, and its command.settled among the appends. */
  const settledAt: Array<[result: number, append: number]> = [];
  const results: SettleResult[] = [];
  for (const s of settlements) {
    const result = await settleOne(tx, s, appends, updates, changed);
    if (result.outcome === 'settled') settledAt.push([results.length, appends.length - 1]);
    results.push(result);
  }
  const accountId = settlements[0]?.accountId;
  const [records] = await Promise.all([accountId === undefined ? [] : insertEvents(tx, accountId, appends), ...updates]);
  // Always the transaction's last lock (see cacheChanged).
  if (changed.conversations) await cacheChanged(tx);
  for (const [r, a] of settledAt) results[r] = { ...(results[r] as Extract<SettleResult, { outcome: 'settled' }>), event: records[a]! };
  return { results, conversationsChanged: changed.conversations };
}

/** One settlement; its stream events (platform events, then command.settled) go onto `appends`. */
async function settleOne(tx: TransactionSql, s: Settlement, appends: NewEvent[], updates: Array<Promise<unknown>>, changed: { conversations: boolean }): Promise<SettleResult> {
  const mentioned = s.platformEvents ? conversationsMentioned(s.platformEvents.events) : [];
  // Sent together (pipelined): one round trip, the locks taken in this order.
  const [live, [row], known] = await Promise.all([
    isLiveEpoch(tx, s.accountId, s.epoch, s.at),
    tx`SELECT * FROM commands WHERE account_id = ${s.accountId} AND id = ${s.commandId} FOR UPDATE`,
    mentioned.length === 0 ? [] : tx`SELECT external_id FROM conversations WHERE account_id = ${s.accountId} AND external_id IN ${tx(mentioned)}`,
  ]);
  if (!row) return { outcome: 'not_found' };
  let current = command(row);
  if (current.status !== 'queued' && current.dispatchEpoch === s.epoch) {
    // The epoch that settled it repeats itself (a retry after a lost response), live or not.
    const same = current.status === s.status && current.errorCode === s.errorCode;
    return { outcome: same ? 'repeated' : 'conflict', command: current };
  }
  // Fencing: only the live lease's epoch settles, and only what was dispatched to it.
  if (!live) return { outcome: 'lease_lost' };
  if (s.platformEvents) {
    const { events, newConversationId, view } = s.platformEvents;
    // Conversations are never deleted, so one known now is known when its event applies.
    const unknown = unknownConversation(events, new Set(known.map((r) => r.external_id as string)));
    if (unknown !== null) return { outcome: 'unknown_conversation', externalId: unknown };
    for (const event of events) appends.push(...await applyPlatformEvent(tx, s.accountId, event, s.at, newConversationId, view, changed, current));
    // The conversation the command made (a group.create, a send to a new recipient) is its conversation now.
    if (announcesConversationOf(events, s.commandId)) {
      const [made] = await tx`SELECT conversation_id FROM commands WHERE id = ${s.commandId}`;
      current = { ...current, conversationId: (made?.conversation_id as string | null | undefined) ?? null };
    }
  }
  if (current.status !== 'queued') return { outcome: 'conflict', command: current };
  if (current.dispatchEpoch !== s.epoch) return { outcome: 'not_dispatched' };
  const settled: CommandRecord = { ...current, status: s.status, errorCode: s.errorCode, errorMessage: s.errorMessage, errorPath: s.errorPath, settledAt: s.at };
  // Not awaited here: it goes out pipelined with what follows, and the batch awaits it with its events.
  const update = tx`UPDATE commands SET status = ${s.status}, error_code = ${s.errorCode}, error_message = ${s.errorMessage}, error_path = ${s.errorPath},
    detail = ${s.detail}, settled_at = ${s.at} WHERE id = ${s.commandId}`.execute();
  update.catch(() => undefined);
  updates.push(update);
  appends.push({ type: 'command.settled', time: s.at, data: s.eventData(settled) });
  // The event record is filled in once the batch's events are appended.
  return { outcome: 'settled', command: settled, event: null as unknown as EventRecord };
}

/** The conversations events name that they do not announce themselves. */
function conversationsMentioned(events: readonly PlatformEvent[]): string[] {
  return [...new Set(events.flatMap((e) => (e.type === 'conversation.appeared' ? [] : [e.conversationExternalId])))];
}

/** The first conversation an event names that neither the store nor an earlier event announced. */
function unknownConversation(events: readonly PlatformEvent[], known: Set<string>): string | null {
  const announced = new Set(known);
  for (const e of events) {
    if (e.type === 'conversation.appeared') announced.add(e.externalId);
    else if (!announced.has(e.conversationExternalId)) return e.conversationExternalId;
  }
  return null;
}
