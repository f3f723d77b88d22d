import { describe, expect, it } from 'vitest';
import type { CommandRecord, MessageRecord, StatusChange } from '../store/types.ts';
import { commandTimeline } from './timeline.ts';

const T = Date.UTC(2026, 0, 1);
const at = (s: number) => new Date(T + s * 1000).toISOString();

const command = (change: Partial<CommandRecord> = {}): CommandRecord => ({
  id: '01900000-0000-7000-8000-000000000001',
  accountId: '01900000-0000-7000-8000-0000000000aa',
  type: 'message.send',
  routingPath: 'agent-turn',
  status: 'queued',
  target: { kind: 'conversation', conversationId: '01900000-0000-7000-8000-0000000000cc' },
  payload: { text: 'hi' },
  logicalActionId: 'act-1',
  idempotencyKey: 'key-1',
  conversationId: '01900000-0000-7000-8000-0000000000cc',
  errorCode: null,
  errorMessage: null,
  errorPath: null,
  createdAt: T,
  settledAt: null,
  dispatchEpoch: null,
  dispatchedAt: null,
  heldBy: null,
  heldAt: null,
  releasedAt: null,
  ...change,
} as CommandRecord);

const message = (change: Partial<MessageRecord> = {}): MessageRecord => ({
  accountId: '01900000-0000-7000-8000-0000000000aa',
  conversationId: '01900000-0000-7000-8000-0000000000cc',
  messageExternalId: 'msg-1',
  direction: 'outbound',
  commandId: '01900000-0000-7000-8000-000000000001',
  senderExternalId: null,
  text: 'hi',
  attachments: [],
  sentAt: null,
  deliveredAt: null,
  readAt: null,
  failedAt: null,
  failure: null,
  editedAt: null,
  unsentAt: null,
  recordedAt: T,
  ...change,
});

const queued: StatusChange[] = [{ status: 'queued', at: T }];

describe('commandTimeline', () => {
  it('a command only accepted has one step: accepted, queued, with its key and routing path', () => {
    expect(commandTimeline(command(), queued, null, null)).toEqual([
      { kind: 'accepted', at: at(0), disposition: 'queued', idempotencyKey: 'key-1', routingPath: 'agent-turn' },
    ]);
  });

  it('a held command shows its hold and the policy while it holds; released, the release, then the rest of its life', () => {
    const held = command({ status: 'held', heldBy: 'quietHours', heldAt: T });
    expect(commandTimeline(held, [{ status: 'held', at: T }], null, null).map((e) => [e.kind, e.policy])).toEqual([['accepted', undefined], ['held', 'quietHours']]);
    const released = command({ status: 'succeeded', heldAt: T, releasedAt: T + 5000, dispatchEpoch: 1, dispatchedAt: T + 6000, settledAt: T + 7000 });
    const history: StatusChange[] = [{ status: 'held', at: T }, { status: 'queued', at: T + 5000 }, { status: 'succeeded', at: T + 7000 }];
    expect(commandTimeline(released, history, null, 'h').map((e) => [e.kind, e.at])).toEqual([
      ['accepted', at(0)], ['held', at(0)], ['released', at(5)], ['dispatched', at(6)], ['settled', at(7)],
    ]);
  });

  it('a failed command shows its dispatch (host and epoch) and its settlement with the error code, message and path', () => {
    const failed = command({ status: 'failed', dispatchEpoch: 3, dispatchedAt: T + 1000, settledAt: T + 2000, errorCode: 'gateway_rejected', errorMessage: 'text too long', errorPath: '/payload/text' });
    expect(commandTimeline(failed, [...queued, { status: 'failed', at: T + 2000 }], null, 'host-a')).toEqual([
      { kind: 'accepted', at: at(0), disposition: 'queued', idempotencyKey: 'key-1', routingPath: 'agent-turn' },
      { kind: 'dispatched', at: at(1), hostId: 'host-a', epoch: 3 },
      { kind: 'settled', at: at(2), status: 'failed', errorCode: 'gateway_rejected', errorMessage: 'text too long', errorPath: '/payload/text' },
    ]);
  });

  it('a succeeded settlement carries no error fields', () => {
    const done = command({ status: 'succeeded', settledAt: T + 2000, dispatchEpoch: 1, dispatchedAt: T + 1000 });
    const settled = commandTimeline(done, [...queued, { status: 'succeeded', at: T + 2000 }], null, null).find((e) => e.kind === 'settled');
    expect(settled).toEqual({ kind: 'settled', at: at(2), status: 'succeeded' });
  });

  it('what the platform reported of the message follows, oldest first, whatever order it is recorded in', () => {
    const done = command({ status: 'succeeded', settledAt: T + 3000, dispatchEpoch: 1, dispatchedAt: T + 1000 });
    const sent = message({ sentAt: T + 2000, deliveredAt: T + 5000, readAt: T + 6000, editedAt: T + 4000, unsentAt: T + 8000, failedAt: T + 7000, failure: { reason: 'not_delivered', platformMessage: null } });
    const kinds = commandTimeline(done, [...queued, { status: 'succeeded', at: T + 3000 }], sent, 'host-a');
    expect(kinds.map((e) => e.kind)).toEqual(['accepted', 'dispatched', 'sent', 'settled', 'edited', 'delivered', 'read', 'failed', 'unsent']);
    expect(kinds.find((e) => e.kind === 'sent')).toEqual({ kind: 'sent', at: at(2), messageExternalId: 'msg-1' });
    expect(kinds.find((e) => e.kind === 'failed')).toEqual({ kind: 'failed', at: at(7), failure: { reason: 'not_delivered', platformMessage: null } });
  });

  it('a dispatch of unknown time (made before dispatch times were recorded) stays after the acceptance, with a null time', () => {
    const old = command({ status: 'succeeded', settledAt: T + 3000, dispatchEpoch: 2, dispatchedAt: null });
    const timeline = commandTimeline(old, [...queued, { status: 'succeeded', at: T + 3000 }], null, null);
    expect(timeline.map((e) => [e.kind, e.at])).toEqual([['accepted', at(0)], ['dispatched', null], ['settled', at(3)]]);
    expect(timeline[1]).toEqual({ kind: 'dispatched', at: null, hostId: null, epoch: 2 });
  });

  it('steps at the same instant keep the order of a command\'s life', () => {
    const quick = command({ status: 'succeeded', settledAt: T, dispatchEpoch: 1, dispatchedAt: T });
    const kinds = commandTimeline(quick, [...queued, { status: 'succeeded', at: T }], message({ sentAt: T, deliveredAt: T }), 'h').map((e) => e.kind);
    expect(kinds).toEqual(['accepted', 'dispatched', 'sent', 'settled', 'delivered']);
  });
});
