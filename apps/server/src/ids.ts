import { randomUUID } from 'node:crypto';

/** Where new ids come from; one per server, so tests can give theirs. */
export interface IdSource {
  next(): string;
}

/**
 * UUIDv7s (RFC 9562): 48 bits of Unix milliseconds, a 12-bit sequence that orders ids made in
 * the same millisecond (the RFC's method 1), then random bits. Time-ordered, so the store's
 * primary-key indexes append, and commands accepted back to back are dispatched in that order.
 * The random bits come from randomUUID, whose entropy Node pools.
 */
export function createIdSource(now: () => number = Date.now): IdSource {
  let lastMs = 0;
  let sequence = 0;
  return {
    next: () => {
      const ms = now();
      if (ms > lastMs) {
        lastMs = ms;
        sequence = 0;
      } else if (++sequence > 0xfff) {
        // 4096 ids in one millisecond: borrow the next one, keeping the order.
        lastMs++;
        sequence = 0;
      }
      const hex = lastMs.toString(16).padStart(12, '0');
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${sequence.toString(16).padStart(3, '0')}-${randomUUID().slice(19)}`;
    },
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Any UUID, in either case: the shape of conversation and command ids. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}
