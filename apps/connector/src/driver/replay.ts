import type { ActionRef, ExecutionRecord, Outcome } from './types.ts';

/**
 * What an earlier execution of a logical action did, as the answer to a repeat of it. Its events
 * belong to the command that ran it, so a different command with the same logicalActionId gets
 * the outcome without them.
 */
export function replay(done: ExecutionRecord, action: ActionRef): Outcome {
  const { outcome } = done;
  return { ...outcome, replayed: true, events: done.commandId === action.commandId ? outcome.events : [] };
}
