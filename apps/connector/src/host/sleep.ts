import { setTimeout as wait } from 'node:timers/promises';

/** Waits `ms`; resolves early, with false, when `signal` aborts. */
export async function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  try {
    await wait(ms, undefined, signal ? { signal } : {});
    return true;
  } catch {
    return false;
  }
}
