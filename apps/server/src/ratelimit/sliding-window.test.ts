import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SlidingWindowLimiter } from './sliding-window.ts';

const LIMIT = 60;
const WINDOW = 60_000;

/** Accepted arrivals in (t - WINDOW, t]. */
const inWindow = (accepted: number[], t: number) => accepted.filter((a) => a > t - WINDOW && a <= t).length;

describe('SlidingWindowLimiter', () => {
  it('never counts more than 60 requests in any 60-second window, and rejects only when 60 are counted', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 5 * WINDOW }), { minLength: 1, maxLength: 600 }), (times) => {
        const arrivals = [...times].sort((a, b) => a - b);
        const limiter = new SlidingWindowLimiter(LIMIT, WINDOW);
        const accepted: number[] = [];
        for (const t of arrivals) {
          const decision = limiter.take('key', t);
          if (decision.allowed) {
            accepted.push(t);
            expect(decision.remaining).toBe(LIMIT - inWindow(accepted, t));
          } else {
            // Rejected only when the window is full; rejected requests are not counted.
            expect(inWindow(accepted, t)).toBe(LIMIT);
            expect(decision.remaining).toBe(0);
            // Retry-After points at the moment the oldest counted request leaves the window.
            const oldest = accepted.filter((a) => a > t - WINDOW)[0]!;
            expect(decision.resetMs).toBe(oldest + WINDOW - t);
          }
        }
        // Any window of 60 seconds, anchored at any accepted arrival, holds at most 60.
        for (const t of accepted) expect(inWindow(accepted, t + WINDOW - 1)).toBeLessThanOrEqual(LIMIT);
        for (const t of accepted) expect(inWindow(accepted, t)).toBeLessThanOrEqual(LIMIT);
      }),
      { numRuns: 300 },
    );
  });

  it('decides as a log of every counted arrival would, whatever the limit (the ring grows as arrivals come)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.array(fc.integer({ min: 0, max: 4 * WINDOW }), { minLength: 1, maxLength: 300 }), (limit, times) => {
        const limiter = new SlidingWindowLimiter(limit, WINDOW);
        const counted: number[] = [];
        for (const t of [...times].sort((a, b) => a - b)) {
          const live = counted.filter((a) => a > t - WINDOW);
          const allowed = live.length < limit;
          if (allowed) live.push(t);
          expect(limiter.take('key', t)).toEqual({ allowed, limit, remaining: limit - live.length, resetMs: live[0]! + WINDOW - t });
          if (allowed) counted.push(t);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps credentials apart', () => {
    const limiter = new SlidingWindowLimiter(LIMIT, WINDOW);
    for (let i = 0; i < LIMIT; i++) expect(limiter.take('a', 0).allowed).toBe(true);
    expect(limiter.take('a', 0).allowed).toBe(false);
    expect(limiter.take('b', 0).allowed).toBe(true);
  });

  it('forgets idle keys on sweep', () => {
    const limiter = new SlidingWindowLimiter(LIMIT, WINDOW);
    for (let i = 0; i < LIMIT; i++) limiter.take('a', 0);
    limiter.sweep(WINDOW);
    // A forgotten key starts afresh: a full budget.
    expect(limiter.take('a', WINDOW).remaining).toBe(LIMIT - 1);
  });

  it('waitMs counts nothing, and is 0 exactly when take would allow, else the wait take reports', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3 * WINDOW }), { minLength: 1, maxLength: 200 }), (times) => {
        const limiter = new SlidingWindowLimiter(5, WINDOW);
        for (const t of [...times].sort((a, b) => a - b)) {
          const wait = limiter.waitMs('key', t);
          expect(limiter.waitMs('key', t)).toBe(wait);
          const decision = limiter.take('key', t);
          expect(decision.allowed).toBe(wait === 0);
          if (!decision.allowed) expect(decision.resetMs).toBe(wait);
        }
      }),
    );
  });
});
