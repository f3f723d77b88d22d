import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { CommandRecord, Settlement } from '../types.ts';
import { decideSettlement, settledCommand } from './settle.ts';

const queuedCommand: CommandRecord = {
  id: 'c1', accountId: 'a1', type: 'message.send', routingPath: 'agent-turn', status: 'queued',
  target: { kind: 'conversation', conversationId: 'v1' }, payload: { text: 'hi' }, logicalActionId: 'l1', idempotencyKey: null,
  conversationId: 'v1', errorCode: null, errorMessage: null, errorPath: null, createdAt: 1, settledAt: null, dispatchEpoch: 3, dispatchedAt: 2,
  heldBy: null, heldAt: null, releasedAt: null,
};
const succeeded: CommandRecord = { ...queuedCommand, status: 'succeeded', settledAt: 5 };

function settlement(overrides: Partial<Settlement> = {}): Settlement {
  return {
    accountId: 'a1', commandId: 'c1', epoch: 3, status: 'succeeded', errorCode: null, errorMessage: null, errorPath: null,
    detail: null, at: 10, eventData: (c) => ({ commandId: c.id, status: c.status }), ...overrides,
  };
}

describe('decideSettlement', () => {
  it('not_found: no command of this account', () => {
    expect(decideSettlement(null, settlement(), true)).toEqual({ ok: false, error: { reason: 'not_found' } });
  });

  it('repeated: the epoch that settled it sends the same outcome again, live or not', () => {
    for (const live of [true, false]) expect(decideSettlement(succeeded, settlement(), live)).toEqual({ ok: true, value: { command: succeeded, event: null } });
  });

  it('lease_lost: an epoch that is not the live one, whatever the command', () => {
    expect(decideSettlement(queuedCommand, settlement(), false)).toEqual({ ok: false, error: { reason: 'lease_lost' } });
    expect(decideSettlement(succeeded, settlement({ status: 'failed', errorCode: 'invalid_target' }), false)).toEqual({ ok: false, error: { reason: 'lease_lost' } });
    expect(decideSettlement(succeeded, settlement({ epoch: 4 }), false)).toEqual({ ok: false, error: { reason: 'lease_lost' } });
  });

  it('conflict: the live epoch that settled it settles it differently', () => {
    expect(decideSettlement(succeeded, settlement({ status: 'failed', errorCode: 'invalid_target' }), true)).toEqual({ ok: false, error: { reason: 'conflict', command: succeeded } });
    const failed = { ...succeeded, status: 'failed' as const, errorCode: 'stale_target' as const };
    expect(decideSettlement(failed, settlement({ status: 'failed', errorCode: 'invalid_target' }), true)).toEqual({ ok: false, error: { reason: 'conflict', command: failed } });
  });

  it('proceed: a live epoch, and a command it has not settled', () => {
    expect(decideSettlement(queuedCommand, settlement(), true)).toBe('proceed');
    // Settled under another epoch: it proceeds to its events, then settledCommand refuses it.
    expect(decideSettlement(succeeded, settlement({ epoch: 4 }), true)).toBe('proceed');
  });

  it('writes nothing unless it proceeds, and proceeds only for the live epoch', () => {
    const status = fc.constantFrom('queued', 'succeeded', 'failed') as fc.Arbitrary<CommandRecord['status']>;
    fc.assert(fc.property(status, fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }), fc.boolean(), fc.boolean(), (held, dispatched, epoch, live, fails) => {
      const current = { ...queuedCommand, status: held, dispatchEpoch: dispatched, errorCode: held === 'failed' ? 'invalid_target' as const : null };
      const s = settlement({ epoch, status: fails ? 'failed' : 'succeeded', errorCode: fails ? 'invalid_target' : null });
      const decision = decideSettlement(current, s, live);
      if (decision === 'proceed') expect(live).toBe(true);
      const sameOutcome = current.status === s.status && current.errorCode === s.errorCode;
      if (held !== 'queued' && dispatched === epoch && sameOutcome) expect(decision).toEqual({ ok: true, value: { command: current, event: null } });
    }));
  });
});

describe('settledCommand', () => {
  it('settles a queued command dispatched to this epoch, with its command.settled event', () => {
    const s = settlement({ status: 'failed', errorCode: 'payload_invalid', errorMessage: 'no text', errorPath: '/payload/text' });
    const settled = settledCommand(queuedCommand, s);
    const command = { ...queuedCommand, status: 'failed', errorCode: 'payload_invalid', errorMessage: 'no text', errorPath: '/payload/text', settledAt: 10 };
    expect(settled).toEqual({ ok: true, value: { command, event: { type: 'command.settled', time: 10, data: { commandId: 'c1', status: 'failed' } } } });
  });

  it('conflict: settled already (by another epoch)', () => {
    expect(settledCommand(succeeded, settlement({ epoch: 4 }))).toEqual({ ok: false, error: { reason: 'conflict', command: succeeded } });
  });

  it('not_dispatched: never dispatched, or dispatched to another epoch', () => {
    expect(settledCommand({ ...queuedCommand, dispatchEpoch: null }, settlement())).toEqual({ ok: false, error: { reason: 'not_dispatched' } });
    expect(settledCommand(queuedCommand, settlement({ epoch: 4 }))).toEqual({ ok: false, error: { reason: 'not_dispatched' } });
  });
});
