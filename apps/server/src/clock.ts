import { randomUUID } from 'node:crypto';

/** Time and ids come from here so tests can control them. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

let lastMs = 0;
let sequence = 0;

/**
 * A UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, a 12-bit sequence that orders ids made in
 * the same millisecond (the RFC's method 1), then random bits. Time-ordered, so the store's
 * primary-key indexes append, and commands accepted back to back are dispatched in that order.
 * The random bits come from randomUUID, whose entropy Node pools.
 */
export function newId(now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    sequence = 0;
  } else if (++sequence > 0xfff) {
    // 4096 ids in one millisecond: borrow the next one, keeping the order.
    lastMs++;
    sequence = 0;
  }
  const hex = lastMs.toString(16).padStart(12, '0');
  const random = randomUUID();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${sequence.toString(16).padStart(3, '0')}-${random.slice(19)}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Any UUID, in either case: the shape of conversation and command ids. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/** An instant as the API writes it (RFC 3339, UTC). */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
