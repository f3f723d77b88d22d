import type { Outcome, OutcomeResult } from './types.ts';

/** Results whose action happened on the platform (or may have): a driver records them, so they are never done again. */
export const RECORDED_RESULTS: ReadonlySet<OutcomeResult> = new Set(['confirmed', 'accepted_no_echo']);

/** An outcome for a command that did nothing on the platform, so it shows no events. */
export function fail(result: OutcomeResult, detail: string): Outcome {
  return { result, detail, events: [] };
}

/** Tells an outcome from what a lookup found instead (a conversation, a chat). */
export function isOutcome(value: unknown): value is Outcome {
  return typeof value === 'object' && value !== null && 'result' in value && 'events' in value;
}
