import { describe, expect, test } from 'vitest';
import { heldRetryDelay } from './lease.ts';

describe('heldRetryDelay: when to ask again while another host holds the lease', () => {
  test('right after the holder\'s lease would expire, when that is soon', () => {
    expect(heldRetryDelay(150, 5, 2_000, () => 0)).toBe(150);
  });

  test('no later than the backoff, which grows with each attempt up to the maximum', () => {
    expect([0, 1, 2, 3, 10].map((attempt) => heldRetryDelay(15_000, attempt, 2_000, () => 0))).toEqual([100, 200, 400, 800, 2_000]);
  });

  test('never at once, even when the expiry already passed', () => {
    expect(heldRetryDelay(-500, 0, 2_000, () => 0)).toBe(5);
  });

  test('jittered by up to 25 ms so waiting hosts spread out', () => {
    expect(heldRetryDelay(150, 5, 2_000, () => 0.999)).toBe(175);
  });
});
