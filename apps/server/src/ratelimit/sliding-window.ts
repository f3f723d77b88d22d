import type { RateLimiter } from './limiter.ts';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  /** Counted requests still allowed in the current window. */
  remaining: number;
  /** Milliseconds until the oldest counted request leaves the window (a slot frees). */
  resetMs: number;
}

/** A key's counted arrival times, oldest first, in a ring that grows as they come. */
interface Log { times: Float64Array; head: number; size: number }

/** A new key's ring: it doubles when full, up to the limit. */
const FIRST_SLOTS = 4;

/**
 * At most `limit` counted requests per key in any window of `windowMs`: a sliding log of the
 * last `limit` counted arrival times per key. A rejected request is not counted, so a client
 * retrying too early is not locked out for longer. A key holds room for the arrivals in its
 * window, not for `limit` of them: a credential that opens a stream holds 4 slots, not the read
 * limit's 600 (4,800 bytes an account at 10,000 idle accounts; docs/benchmarks.md).
 */
export class SlidingWindowLimiter implements RateLimiter {
  private readonly logs = new Map<string, Log>();
  readonly limit: number;
  readonly windowMs: number;

  constructor(limit: number, windowMs: number) {
    this.limit = limit;
    this.windowMs = windowMs;
  }

  take(key: string, now: number): RateDecision {
    let log = this.logs.get(key);
    if (!log) {
      log = { times: new Float64Array(Math.min(FIRST_SLOTS, this.limit)), head: 0, size: 0 };
      this.logs.set(key, log);
    }
    const windowStart = now - this.windowMs;
    this.trim(log, windowStart);
    if (log.size >= this.limit) {
      return { allowed: false, limit: this.limit, remaining: 0, resetMs: log.times[log.head]! - windowStart };
    }
    if (log.size === log.times.length) grow(log, this.limit);
    log.times[(log.head + log.size) % log.times.length] = now;
    log.size++;
    return {
      allowed: true,
      limit: this.limit,
      remaining: this.limit - log.size,
      resetMs: log.times[log.head]! - windowStart,
    };
  }

  /** Milliseconds until `take` would count a request for `key`; 0 when it would now. Counts nothing. */
  waitMs(key: string, now: number): number {
    const log = this.logs.get(key);
    if (!log) return 0;
    const windowStart = now - this.windowMs;
    this.trim(log, windowStart);
    return log.size < this.limit ? 0 : log.times[log.head]! - windowStart;
  }

  // Count only arrivals inside (now - windowMs, now]; drop the rest from the front.
  private trim(log: Log, windowStart: number): void {
    while (log.size > 0 && log.times[log.head]! <= windowStart) {
      log.head = (log.head + 1) % log.times.length;
      log.size--;
    }
  }

  /** Forgets keys with nothing left in their window, so idle credentials cost no memory. */
  sweep(now: number): void {
    for (const [key, log] of this.logs) {
      const newest = log.times[(log.head + log.size - 1 + log.times.length) % log.times.length]!;
      if (log.size === 0 || newest <= now - this.windowMs) this.logs.delete(key);
    }
  }
}

/** A full ring, twice as large (at most `limit`), oldest first from slot 0. */
function grow(log: Log, limit: number): void {
  const times = new Float64Array(Math.min(log.times.length * 2, limit));
  for (let i = 0; i < log.size; i++) times[i] = log.times[(log.head + i) % log.times.length]!;
  log.times = times;
  log.head = 0;
}
