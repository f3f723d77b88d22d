import type { RateDecision } from './sliding-window.ts';

/**
 * At most `limit` counted requests per key in any window of `windowMs`. In memory for one
 * server (SlidingWindowLimiter); in the database when replicas share the count (PostgreSQL).
 */
export interface RateLimiter {
  readonly limit: number;
  readonly windowMs: number;
  take(key: string, now: number): RateDecision | Promise<RateDecision>;
  /** Milliseconds until `take` would count a request for `key`; 0 when it would now. Counts nothing. */
  waitMs(key: string, now: number): number | Promise<number>;
  /** Forgets keys with nothing left in their window. */
  sweep(now: number): void | Promise<void>;
}

/** A store that counts rate limits itself, so every server on it shares the counts (PostgreSQL). */
export interface SharedRateLimits {
  rateLimiter(name: string, limit: number, windowMs: number): RateLimiter;
}

export function hasSharedRateLimits(store: object): store is SharedRateLimits {
  return typeof (store as Partial<SharedRateLimits>).rateLimiter === 'function';
}
