/**
 * What one row of the Messages database, as BlueBubbles serializes it, says about a message's
 * life: the account's own message delivered, read or failed; someone else's tapback, edit or
 * unsend. Pure functions of the row, so the webhooks and the catch-up read a row the same way.
 */
import type { MessageDelivered, MessageEdited, MessageFailed, MessageRead, MessageReaction, MessageUnsent } from '../types.ts';
import { associatedGuidOf, GROUP_STYLE, tapbackOf, type BbMessage } from './wire.ts';

export type FailureReason = MessageFailed['reason'];

/** A state of one message, with the key the feed remembers it by once the server recorded it. */
export interface Keyed<E> {
  key: string;
  event: E;
}

/** The chat a row belongs to (BlueBubbles includes `chats` when asked, `with: chat`). */
export interface RowChat {
  guid: string;
  group: boolean;
}

export function chatOf(m: Pick<BbMessage, 'chats'>): RowChat | null {
  const chat = m.chats?.[0];
  return chat ? { guid: chat.guid, group: chat.style === GROUP_STYLE } : null;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A message people wrote: not a tapback or sticker (`associatedMessageType`), not a group event (`itemType`). */
export const isPlainMessage = (m: Pick<BbMessage, 'itemType' | 'associatedMessageType'>): boolean => m.itemType === 0 && m.associatedMessageType == null;

/**
 * Every part of the message was unsent. Messages marks an unsend with `dateEdited`, the parts in
 * `messageSummaryInfo[0].retractedParts` and `partCount` 0 (Message.isFullyUnsent in BlueBubbles'
 * entity; its MessagePoller notes `date_retracted` is unused by Apple, but it is read too). Without
 * the summary (not asked for), `dateEdited` with no part left counts.
 */
export function isUnsent(m: Pick<BbMessage, 'dateEdited' | 'dateRetracted' | 'partCount' | 'messageSummaryInfo'>): boolean {
  if (m.dateRetracted) return true;
  if (!m.dateEdited || m.partCount !== 0) return false;
  if (m.messageSummaryInfo == null) return true;
  const summary = m.messageSummaryInfo[0];
  return (summary?.retractedParts ?? summary?.rp ?? []).length > 0;
}

/**
 * What a non-zero `error` on the account's message means for the stream. BlueBubbles names one
 * code in its server (index.ts emitMessageError: "4: Message Timeout") and one in its app
 * (helpers/types/extensions/extensions.dart: "22: The recipient is not registered with
 * iMessage"); every other code is Messages' own and only said as it is.
 */
export function failureOf(error: number): { reason: FailureReason; platformMessage: string } {
  if (error === 22) return { reason: 'recipient_unreachable', platformMessage: 'Messages error 22: the recipient is not registered with iMessage' };
  if (error === 4) return { reason: 'not_delivered', platformMessage: 'Messages error 4: message timeout' };
  return { reason: 'not_delivered', platformMessage: `Messages error ${error}` };
}

/**
 * The account's own message as delivered, read and failed, each once it shows: delivered on
 * `isDelivered` or `dateDelivered` (an SMS is marked delivered with no date: then its
 * `dateCreated`), read on `dateRead` in a direct chat only, failed on `error` ≠ 0 (Messages keeps
 * no time for it: `now`).
 */
export function ownStates(m: BbMessage, chat: RowChat, now: number): Array<Keyed<MessageDelivered | MessageRead | MessageFailed>> {
  if (!m.isFromMe || !isPlainMessage(m)) return [];
  const ids = { conversationExternalId: chat.guid, messageExternalId: m.guid };
  const out: Array<Keyed<MessageDelivered | MessageRead | MessageFailed>> = [];
  if (m.isDelivered || m.dateDelivered) {
    out.push({ key: `${m.guid}:delivered`, event: { type: 'message.delivered', ...ids, deliveredAt: iso(m.dateDelivered || m.dateCreated) } });
  }
  if (m.dateRead && !chat.group) out.push({ key: `${m.guid}:read`, event: { type: 'message.read', ...ids, readAt: iso(m.dateRead) } });
  if (m.error) out.push({ key: `${m.guid}:failed`, event: { type: 'message.failed', ...ids, ...failureOf(m.error), failedAt: iso(now) } });
  return out;
}

/** Someone else's message unsent, or else edited (each edit once, by its `dateEdited`). */
export function othersChanges(m: BbMessage, chat: RowChat): Array<Keyed<MessageEdited | MessageUnsent>> {
  if (m.isFromMe || !isPlainMessage(m)) return [];
  const ids = { conversationExternalId: chat.guid, messageExternalId: m.guid, senderExternalId: m.handle?.address ?? 'unknown' };
  if (isUnsent(m)) return [{ key: `${m.guid}:unsent`, event: { type: 'message.unsent', ...ids, unsentAt: iso(m.dateRetracted || m.dateEdited!) } }];
  if (m.dateEdited && m.text != null) return [{ key: `${m.guid}:edited:${m.dateEdited}`, event: { type: 'message.edited', ...ids, text: m.text, editedAt: iso(m.dateEdited) } }];
  return [];
}

/** Someone else's tapback row: added (`love`) or removed (`-love`), on the message it names. */
export function reactionOf(m: BbMessage, chat: RowChat): MessageReaction | null {
  if (m.isFromMe || m.itemType !== 0 || !m.associatedMessageGuid) return null;
  const tapback = tapbackOf(m.associatedMessageType);
  if (!tapback) return null;
  return {
    type: 'message.reaction',
    conversationExternalId: chat.guid,
    reactionExternalId: m.guid,
    messageExternalId: associatedGuidOf(m.associatedMessageGuid),
    senderExternalId: m.handle?.address ?? 'unknown',
    reaction: tapback.reaction,
    action: tapback.removed ? 'removed' : 'added',
    reactedAt: iso(m.dateCreated),
  };
}
