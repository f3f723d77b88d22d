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
      fc.property(fc.array(fc.integer({ min: 0, max: 5 * WINDOW }), { minLength: 1, maxLength: 600, size: 'max' }), (times) => {
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
      { numRuns: 100 },
    );
  });

  it('decides as a log of every counted arrival would, whatever the limit (the ring grows as arrivals come)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.array(fc.integer({ min: 0, max: 2 * WINDOW }), { minLength: 1, maxLength: 300, size: 'max' }), (limit, times) => {
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

  it('keeps the order of counted arrivals when the ring grows after it wrapped', () => {
    const limiter = new SlidingWindowLimiter(10, WINDOW);
    // Two arrivals that leave the window move the ring's start to its third slot.
    limiter.take('key', 0);
    limiter.take('key', 1);
    // Five more: the ring of four wraps, then grows to eight with its oldest first.
    for (let i = 0; i < 5; i++) limiter.take('key', WINDOW + 100 + i);
    expect(limiter.take('key', WINDOW + 200)).toEqual({ allowed: true, limit: 10, remaining: 4, resetMs: WINDOW - 100 });
    // The two oldest leave the window; the next oldest (WINDOW + 102) frees a slot in 1 ms.
    expect(limiter.take('key', 2 * WINDOW + 101)).toEqual({ allowed: true, limit: 10, remaining: 5, resetMs: 1 });
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
      fc.property(fc.array(fc.integer({ min: 0, max: 3 * WINDOW }), { minLength: 1, maxLength: 200, size: 'max' }), (times) => {
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
