import { timingSafeEqual } from 'node:crypto';

/** The lookup is by hash; the stored hash is compared in constant time all the same. */
export function sameHash(stored: Buffer, hash: Buffer): boolean {
  return stored.length === hash.length && timingSafeEqual(stored, hash);
}
