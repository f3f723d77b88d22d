import type { CommandRecord, NewEvent, SettleResult, Settlement } from '../types.ts';
import { command, type Row } from '../rules/rows.ts';
import { announcesConversationOf, conversationsMentioned, unknownConversation } from '../rules/platform.ts';
import { decideSettlement, settledCommand } from '../rules/settle.ts';
import { cacheChanged } from './cache.ts';
import { applyPlatformEvent } from './conversations.ts';
import { insertEvents } from './events.ts';
import { liveEpoch } from './leases.ts';
import type { Tx } from './transaction.ts';
import { err, ok } from '../../result.ts';

/** What the batch read and locked in its first round trip, and what it learned since. */
interface BatchContext {
  epoch: number;
  at: number;
  live: boolean;
  /** The batch's commands, locked. */
  commands: Map<string, Row>;
  /** Conversations the batch's events name, locked, by platform id. */
  conversations: Map<string, Row>;
  /** Conversations known to exist: found, or announced by an earlier event of the batch. */
  known: Set<string>;
  /** Commands an earlier item of the batch settled (or tried to): read again if named again. */
  handled: Set<string>;
  changed: { conversations: boolean };
  appends: NewEvent[];
  updates: Array<Promise<unknown>>;
}

/**
 * Settles a batch in one transaction (the caller's): each item in order, with its platform
 * events first. The lease, the batch's commands and the conversations its events name are read
 * and locked in one round trip (in that order, as a single settlement locks them). Every stream
 * event of the batch is appended at the end, in the batch's order, pipelined with the commands'
 * updates and the COMMIT, so the account's row lock (insertEvents) is held for one round trip.
 * Returns whether a conversation row changed, for the read cache.
 */
export async function settleBatch(tx: Tx, settlements: readonly Settlement[]): Promise<{ results: SettleResult[]; conversationsChanged: boolean }> {
  const first = settlements[0];
  if (!first) return { results: [], conversationsChanged: false };
  const { accountId } = first;
  const ids = [...new Set(settlements.map((s) => s.commandId))];
  const mentioned = [...new Set(settlements.flatMap((s) => (s.platformEvents ? conversationsMentioned(s.platformEvents.events) : [])))];
  const [live, rows, conversations] = await Promise.all([
    liveEpoch(tx, accountId, first.epoch, first.at),
    tx`SELECT * FROM commands WHERE account_id = ${accountId} AND id IN ${tx(ids)} ORDER BY id FOR UPDATE`,
    mentioned.length === 0 ? [] : tx`SELECT * FROM conversations WHERE account_id = ${accountId} AND external_id IN ${tx(mentioned)} ORDER BY id FOR UPDATE`,
  ]);
  const ctx: BatchContext = {
    epoch: first.epoch,
    at: first.at,
    live,
    commands: new Map(rows.map((r) => [r.id as string, r])),
    conversations: new Map(conversations.map((r) => [r.external_id as string, r])),
    known: new Set(conversations.map((r) => r.external_id as string)),
    handled: new Set(),
    changed: { conversations: false },
    appends: [],
    updates: [],
  };
  const items: Array<SettleResult | Appending> = [];
  for (const s of settlements) items.push(await settleOne(tx, s, ctx));
  // The updates, the appends, the version bump (always the last lock, see cacheChanged) and
  // COMMIT go in one round trip.
  const [records] = await Promise.all([insertEvents(tx, accountId, ctx.appends), ...ctx.updates, ctx.changed.conversations && cacheChanged(tx), tx.commit()]);
  const results = items.map((item) => ('append' in item ? ok({ command: item.command, event: records[item.append]! }) : item));
  return { results, conversationsChanged: ctx.changed.conversations };
}

/** A settled command whose command.settled is the batch's append at `append`, numbered once appended. */
interface Appending {
  command: CommandRecord;
  append: number;
}

/** One settlement: read (and lock), decide (rules/settle.ts), write; its stream events go onto the batch's appends. */
async function settleOne(tx: Tx, s: Settlement, ctx: BatchContext): Promise<SettleResult | Appending> {
  const again = ctx.handled.has(s.commandId);
  ctx.handled.add(s.commandId);
  const row = again
    ? (await tx`SELECT * FROM commands WHERE account_id = ${s.accountId} AND id = ${s.commandId} FOR UPDATE`)[0]
    : ctx.commands.get(s.commandId);
  const current = row ? command(row) : null;
  const live = !current || (s.epoch === ctx.epoch && s.at === ctx.at) ? ctx.live : await liveEpoch(tx, s.accountId, s.epoch, s.at);
  const decision = decideSettlement(current, s, live);
  if (decision !== 'proceed') return decision;
  let settling = current!;
  if (s.platformEvents) {
    const { events, newConversationId, view } = s.platformEvents;
    // Conversations are never deleted, so one known now is known when its event applies.
    const unknown = unknownConversation(events, ctx.known);
    if (unknown !== null) return err({ reason: 'unknown_conversation', externalId: unknown });
    for (const event of events) {
      ctx.appends.push(...await applyPlatformEvent(tx, s.accountId, event, s.at, newConversationId, view, ctx.changed, settling, ctx.conversations));
      if (event.type === 'conversation.appeared') ctx.known.add(event.externalId);
    }
    // The conversation the command made (a group.create, a send to a new recipient) is its conversation now.
    if (announcesConversationOf(events, s.commandId)) {
      const [made] = await tx`SELECT conversation_id FROM commands WHERE id = ${s.commandId}`;
      settling = { ...settling, conversationId: (made?.conversation_id as string | null | undefined) ?? null };
    }
  }
  const settled = settledCommand(settling, s);
  if (!settled.ok) return settled;
  // Not awaited here: it goes out pipelined with what follows, and the batch awaits it with its events.
  const update = tx`UPDATE commands SET status = ${s.status}, error_code = ${s.errorCode}, error_message = ${s.errorMessage}, error_path = ${s.errorPath},
    detail = ${s.detail}, settled_at = ${s.at} WHERE id = ${s.commandId}`.execute();
  update.catch(() => undefined);
  ctx.updates.push(update);
  ctx.appends.push(settled.value.event);
  return { command: settled.value.command, append: ctx.appends.length - 1 };
}
