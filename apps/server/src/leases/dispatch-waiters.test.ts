import { describe, expect, it } from 'vitest';
import { DispatchWaiters } from './dispatch-waiters.ts';

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

  it('does not miss a wake-up that came while the poll was reading the queue', async () => {
    const waiters = new DispatchWaiters();
    const controller = new AbortController();
    const before = waiters.seen('a');
    waiters.wake('a');
    expect(await waiters.wait('a', 10_000, controller.signal, before)).toBe(true);
    const beforeAll = waiters.seen('b');
    waiters.wakeAll();
    expect(await waiters.wait('b', 10_000, controller.signal, beforeAll)).toBe(true);
    // Nothing new since: it waits.
    expect(await waiters.wait('b', 10, controller.signal, waiters.seen('b'))).toBe(false);
  }, 2_000);
});
