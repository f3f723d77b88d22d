import { randomUUID } from 'node:crypto';

/** Time and ids come from here so tests can control them. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * A UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then random bits. Time-ordered, so the
 * store's primary-key indexes append instead of splitting pages. Built on randomUUID, whose
 * entropy Node pools, because drawing fresh random bytes per id showed up in profiles.
 */
export function newId(now = Date.now()): string {
  const hex = now.toString(16).padStart(12, '0');
  const random = randomUUID();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${random.slice(15, 18)}-${random.slice(19)}`;
}
