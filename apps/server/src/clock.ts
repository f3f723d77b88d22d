/** Time comes from here so tests can control it. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** An instant as the API writes it (RFC 3339, UTC). */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
