import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { PlatformEvent } from '@switchboard/contracts';
import type { MessageRecord } from '../types.ts';
import { messageAfter, messageCursor, parseMessageCursor, type MessageEvent } from './messages.ts';

const T = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
const at = (s: number) => Date.UTC(2026, 0, 1, 0, 0, s);
const sent: MessageEvent = { type: 'message.sent', conversationExternalId: 'dm', messageExternalId: 'm1', commandId: 'c1' };
const delivered: MessageEvent = { type: 'message.delivered', conversationExternalId: 'dm', messageExternalId: 'm1', deliveredAt: T(2) };
const read: MessageEvent = { type: 'message.read', conversationExternalId: 'dm', messageExternalId: 'm1', readAt: T(3) };
const failed: MessageEvent = { type: 'message.failed', conversationExternalId: 'dm', messageExternalId: 'm1', reason: 'not_delivered', platformMessage: 'Not Delivered', failedAt: T(4) };
const received: MessageEvent = { type: 'message.received', conversationExternalId: 'dm', messageExternalId: 'm9', senderExternalId: '+14155550123', text: 'hi', attachments: [], receivedAt: T(1) };
const edited = (s: number, text: string): MessageEvent => ({ type: 'message.edited', conversationExternalId: 'dm', messageExternalId: 'm9', senderExternalId: '+14155550123', text, editedAt: T(s) });
const unsent: MessageEvent = { type: 'message.unsent', conversationExternalId: 'dm', messageExternalId: 'm9', senderExternalId: '+14155550123', unsentAt: T(9) };

/** The message after `events` in order, from nothing. */
function after(events: MessageEvent[], command = { payload: { text: 'Yes, it ships today!' } }): MessageRecord | null {
  return events.reduce<MessageRecord | null>((held, e) => messageAfter('a1', 'v1', held, e, at(1), command), null);
}

describe('messageAfter', () => {
  it('an outbound message: sent with its command and text, then delivered, then read', () => {
    expect(after([sent, delivered, read])).toMatchObject({
      direction: 'outbound', commandId: 'c1', senderExternalId: null, text: 'Yes, it ships today!', sentAt: at(1), deliveredAt: at(2), readAt: at(3), failedAt: null, failure: null,
    });
  });

  it('a failure after the echo keeps the first one reported, with the platform\'s words', () => {
    const second: MessageEvent = { ...failed, reason: 'recipient_unreachable', failedAt: T(8) };
    expect(after([sent, failed, second])).toMatchObject({ failedAt: at(4), failure: { reason: 'not_delivered', platformMessage: 'Not Delivered' } });
  });

  it('each state keeps the first time reported, whatever the order the platform reports them in', () => {
    const events = [sent, delivered, read, { ...delivered, deliveredAt: T(7) }, { ...read, readAt: T(8) }] as MessageEvent[];
    fc.assert(fc.property(fc.shuffledSubarray(events, { minLength: events.length, maxLength: events.length }), (order) => {
      const m = after(order)!;
      const first = <T extends MessageEvent['type']>(type: T) => order.find((e) => e.type === type) as Extract<MessageEvent, { type: T }>;
      expect(m.deliveredAt).toBe(Date.parse(first('message.delivered').deliveredAt));
      expect(m.readAt).toBe(Date.parse(first('message.read').readAt));
      expect(m.commandId).toBe('c1');
    }));
  });

  it('a state reported for a message not recorded makes its row, outbound, without a command', () => {
    expect(after([delivered])).toMatchObject({ direction: 'outbound', commandId: null, sentAt: null, deliveredAt: at(2), recordedAt: at(1) });
  });

  it('an inbound message: received, edited to the newest text, an older edit reported late changes nothing, unsent clears the text', () => {
    expect(after([received, edited(5, 'hello'), edited(4, 'hey')])).toMatchObject({ direction: 'inbound', senderExternalId: '+14155550123', text: 'hello', editedAt: at(5), sentAt: at(1) });
    expect(after([received, edited(5, 'hello'), unsent, edited(6, 'again')])).toMatchObject({ text: null, unsentAt: at(9) });
    // Reported before the message itself, the edit's text stands.
    expect(after([edited(5, 'hello'), received])).toMatchObject({ text: 'hello', direction: 'inbound' });
  });

  it('a command that sent no text leaves the text null', () => {
    expect(after([sent], { payload: { kind: 'poll', question: 'Q', options: ['a', 'b'] } as Record<string, unknown> as { text: string } })).toMatchObject({ text: null });
  });
});

describe('message cursors', () => {
  it('a cursor names the position it was made from; anything else is no cursor', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 2 ** 50 }), fc.string(), (recordedAt, messageExternalId) => {
      expect(parseMessageCursor(messageCursor({ recordedAt, messageExternalId }))).toEqual({ recordedAt, messageExternalId });
    }));
    for (const bad of ['', 'abc', Buffer.from('[1]').toString('base64url'), Buffer.from('["x","y"]').toString('base64url'), Buffer.from('{}').toString('base64url')]) {
      expect(parseMessageCursor(bad)).toBeNull();
    }
  });
});

// Keep the event list honest: every message event type is handled.
const _exhaustive: PlatformEvent['type'][] = ['message.sent', 'message.received', 'message.delivered', 'message.read', 'message.failed', 'message.edited', 'message.unsent'];
void _exhaustive;
