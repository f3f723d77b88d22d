import { randomFillSync } from 'node:crypto';

/** Where new ids come from; one per server, so tests can give theirs. */
export interface IdSource {
  next(): string;
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
/** Random bytes drawn at once, 8 an id: one call into the CSPRNG per 512 ids. */
const POOL_BYTES = 8 * 512;

/**
 * UUIDv7s (RFC 9562): 48 bits of Unix milliseconds, a 12-bit sequence that orders ids made in
 * the same millisecond (the RFC's method 1), then 62 random bits. Time-ordered, so the store's
 * primary-key indexes append, and commands accepted back to back are dispatched in that order.
 * Two ids a command: the text up to the sequence is made once a millisecond, and the random bits
 * come from a pooled buffer through a table (a third of the cost of slicing a randomUUID).
 */
export function createIdSource(now: () => number = Date.now): IdSource {
  let lastMs = 0;
  let sequence = 0;
  let prefix = '';
  const pool = Buffer.allocUnsafeSlow(POOL_BYTES);
  let at = POOL_BYTES;
  return {
    next: () => {
      const ms = now();
      if (ms > lastMs) {
        lastMs = ms;
        sequence = 0;
        prefix = '';
      } else if (++sequence > 0xfff) {
        // 4096 ids in one millisecond: borrow the next one, keeping the order.
        lastMs++;
        sequence = 0;
        prefix = '';
      }
      if (prefix === '') {
        const hex = lastMs.toString(16).padStart(12, '0');
        prefix = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7`;
      }
      if (at === POOL_BYTES) {
        randomFillSync(pool);
        at = 0;
      }
      const i = at;
      at += 8;
      // The variant (0b10) in the top bits of the first random byte.
      return prefix + (sequence >> 8).toString(16) + HEX[sequence & 0xff]! + '-' + HEX[(pool[i]! & 0x3f) | 0x80]! + HEX[pool[i + 1]!]! + '-' +
        HEX[pool[i + 2]!]! + HEX[pool[i + 3]!]! + HEX[pool[i + 4]!]! + HEX[pool[i + 5]!]! + HEX[pool[i + 6]!]! + HEX[pool[i + 7]!]!;
    },
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Any UUID, in either case: the shape of conversation and command ids. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}
