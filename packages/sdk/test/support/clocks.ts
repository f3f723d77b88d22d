import { systemClock, type Clock } from '../../src/index.ts';

/**
 * The system clock, except that a backoff wait runs `onBackoff` instead of waiting: the test
 * changes the world (a host takes the lease, a server starts listening) and the retry happens at
 * once. Waits of exactly `timeoutMs` are the client's attempt timeouts and stay real.
 */
export function backoffHook(timeoutMs: number, onBackoff: (ms: number) => Promise<void> | void): Clock & { backoffs: number[] } {
  const backoffs: number[] = [];
  return {
    backoffs,
    now: () => systemClock.now(),
    async sleep(ms, signal) {
      if (ms === timeoutMs) return systemClock.sleep(ms, signal);
      backoffs.push(ms);
      await onBackoff(ms);
    },
  };
}
