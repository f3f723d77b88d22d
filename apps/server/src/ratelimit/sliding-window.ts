import type { RateLimiter } from './limiter.ts';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  /** Counted requests still allowed in the current window. */
  remaining: number;
  /** Milliseconds until the oldest counted request leaves the window (a slot frees). */
  resetMs: number;
}

/**
 * At most `limit` counted requests per key in any window of `windowMs`: a sliding log of the
 * last `limit` counted arrival times per key. A rejected request is not counted, so a client
 * retrying too early is not locked out for longer.
 */
export class SlidingWindowLimiter implements RateLimiter {
  private readonly logs = new Map<string, { times: Float64Array; head: number; size: number }>();
  readonly limit: number;
  readonly windowMs: number;

  constructor(limit: number, windowMs: number) {
    this.limit = limit;
    this.windowMs = windowMs;
  }

  take(key: string, now: number): RateDecision {
    let log = this.logs.get(key);
    if (!log) {
      log = { times: new Float64Array(this.limit), head: 0, size: 0 };
      this.logs.set(key, log);
    }
    const windowStart = now - this.windowMs;
    this.trim(log, windowStart);
    if (log.size >= this.limit) {
      return { allowed: false, limit: this.limit, remaining: 0, resetMs: log.times[log.head]! - windowStart };
    }
    log.times[(log.head + log.size) % this.limit] = now;
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
  private trim(log: { times: Float64Array; head: number; size: number }, windowStart: number): void {
    while (log.size > 0 && log.times[log.head]! <= windowStart) {
      log.head = (log.head + 1) % this.limit;
      log.size--;
    }
  }

  /** Forgets keys with nothing left in their window, so idle credentials cost no memory. */
  sweep(now: number): void {
    for (const [key, log] of this.logs) {
      const newest = log.times[(log.head + log.size - 1 + this.limit) % this.limit]!;
      if (log.size === 0 || newest <= now - this.windowMs) this.logs.delete(key);
    }
  }
}
