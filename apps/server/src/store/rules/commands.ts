import type { AcceptResult, CommandRecord, NewCommand } from '../types.ts';
import type { Hold } from './policies.ts';

/** A new command as stored: queued, nothing settled, not dispatched. */
export function queuedCommand(input: NewCommand): CommandRecord {
  return { ...input, status: 'queued', errorCode: null, errorMessage: null, errorPath: null, settledAt: null, dispatchEpoch: null, dispatchedAt: null, heldBy: null, heldAt: null, releasedAt: null };
}

/** A new command as accepted: queued, or held by `hold` (rules/policies.ts) from its acceptance. */
export function queued(input: NewCommand, hold: Hold | null = null): Extract<AcceptResult, { disposition: 'queued' }> {
  const command = queuedCommand(input);
  return { disposition: 'queued', command: hold ? { ...command, status: 'held', heldBy: hold.policy, heldAt: input.createdAt } : command };
}
