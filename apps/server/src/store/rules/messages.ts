import type { PlatformEvent } from '@switchboard/contracts';
import type { CommandRecord, MessageRecord } from '../types.ts';

/** The platform events that make or change a message of the conversation. */
export type MessageEvent = Extract<PlatformEvent, { type: 'message.received' | 'message.sent' | 'message.delivered' | 'message.read' | 'message.failed' | 'message.edited' | 'message.unsent' }>;

const MESSAGE_EVENTS: ReadonlySet<string> = new Set(['message.received', 'message.sent', 'message.delivered', 'message.read', 'message.failed', 'message.edited', 'message.unsent']);

export function isMessageEvent(event: PlatformEvent): event is MessageEvent {
  return MESSAGE_EVENTS.has(event.type);
}

/** A message first reported by `event`, recorded at `at`; outbound unless someone else's. */
function blank(accountId: string, conversationId: string, event: MessageEvent, at: number): MessageRecord {
  const inbound = event.type === 'message.received' || event.type === 'message.edited' || event.type === 'message.unsent';
  return {
    accountId, conversationId, messageExternalId: event.messageExternalId, direction: inbound ? 'inbound' : 'outbound', commandId: null,
    senderExternalId: inbound ? event.senderExternalId : null, text: null, attachments: [], sentAt: null, deliveredAt: null, readAt: null,
    failedAt: null, failure: null, editedAt: null, unsentAt: null, recordedAt: at,
  };
}

/** The text a command sent, when it sent text. */
function sentText(command: Pick<CommandRecord, 'payload'> | null): string | null {
  const text = command?.payload.text;
  return typeof text === 'string' ? text : null;
}

/**
 * The message as `event` leaves it, from the row held (null: none yet). A state reported for a
 * message not recorded (sent before the server kept messages, or from another device) makes its
 * row all the same. Each state keeps the first time reported; an edit the newest text.
 * `command`: the command a `message.sent` names, as stored.
 */
export function messageAfter(accountId: string, conversationId: string, held: MessageRecord | null, event: MessageEvent, at: number, command: Pick<CommandRecord, 'payload'> | null = null): MessageRecord {
  const m = held ?? blank(accountId, conversationId, event, at);
  switch (event.type) {
    case 'message.received':
      return {
        ...m, direction: 'inbound', senderExternalId: event.senderExternalId, text: m.editedAt !== null || m.unsentAt !== null ? m.text : event.text,
        attachments: event.attachments, sentAt: m.sentAt ?? Date.parse(event.receivedAt),
      };
    case 'message.sent':
      return { ...m, direction: 'outbound', commandId: event.commandId, text: m.text ?? sentText(command), sentAt: m.sentAt ?? at };
    case 'message.delivered':
      return { ...m, deliveredAt: m.deliveredAt ?? Date.parse(event.deliveredAt) };
    case 'message.read':
      return { ...m, readAt: m.readAt ?? Date.parse(event.readAt) };
    case 'message.failed':
      return m.failedAt !== null ? m : { ...m, failedAt: Date.parse(event.failedAt), failure: { reason: event.reason, platformMessage: event.platformMessage } };
    case 'message.edited': {
      const editedAt = Date.parse(event.editedAt);
      // An edit reported late, after a newer one, leaves the newer text.
      if (m.editedAt !== null && m.editedAt > editedAt) return m;
      return { ...m, text: m.unsentAt !== null ? null : event.text, editedAt };
    }
    case 'message.unsent':
      return { ...m, text: null, unsentAt: m.unsentAt ?? Date.parse(event.unsentAt) };
  }
}

/** A page cursor: where the last message of a page stands in the order messages are listed. */
export function messageCursor(message: Pick<MessageRecord, 'recordedAt' | 'messageExternalId'>): string {
  return Buffer.from(JSON.stringify([message.recordedAt, message.messageExternalId])).toString('base64url');
}

/** The position a cursor names, or null for anything that is not a cursor this server made. */
export function parseMessageCursor(cursor: string): { recordedAt: number; messageExternalId: string } | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 2 || !Number.isSafeInteger(value[0]) || typeof value[1] !== 'string') return null;
    return { recordedAt: value[0] as number, messageExternalId: value[1] };
  } catch {
    return null;
  }
}
