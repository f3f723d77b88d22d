import { describe, expect, it } from 'vitest';
import { DispatchWaiters } from './dispatcher.ts';

describe('DispatchWaiters', () => {
  it('wakes the waiters of one account only', async () => {
    const waiters = new DispatchWaiters();
    const controller = new AbortController();
    const a = waiters.wait('a', 10_000, controller.signal);
    const b = waiters.wait('b', 10, controller.signal);
    waiters.wake('a');
    expect(await a).toBe(true);
    expect(await b).toBe(false);
  });

  it('returns at once for a poll that is already gone', async () => {
    const waiters = new DispatchWaiters();
    const controller = new AbortController();
    controller.abort();
    const started = Date.now();
    expect(await waiters.wait('a', 10_000, controller.signal)).toBe(false);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
