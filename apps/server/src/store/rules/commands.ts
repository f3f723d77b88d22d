import type { AcceptResult, CommandRecord, NewCommand } from '../types.ts';

/** A new command as stored: queued, nothing settled, not dispatched. */
export function queuedCommand(input: NewCommand): CommandRecord {
  return { ...input, status: 'queued', errorCode: null, errorMessage: null, errorPath: null, settledAt: null, dispatchEpoch: null, dispatchedAt: null };
}

export function queued(input: NewCommand): Extract<AcceptResult, { disposition: 'queued' }> {
  return { disposition: 'queued', command: queuedCommand(input) };
}
