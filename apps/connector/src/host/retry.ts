import { NetworkError, type Answer } from '@switchboard/connector-client';
import { sleep } from './sleep.ts';

export interface Backoff {
  initialMs: number;
  maxMs: number;
}

/** Exponential, with jitter in the upper half so hosts retrying together spread out. */
export function backoffDelay(attempt: number, backoff: Backoff, random: () => number = Math.random): number {
  const ceiling = Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export interface RetryOptions {
  /** Stop retrying once this aborts; the last error is thrown. */
  until: AbortSignal;
  backoff?: Backoff;
  /** Waits between attempts; resolves early when `signal` aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<unknown>;
  onRetry?: (error: Error, attempt: number) => void;
}

const DEFAULT_BACKOFF: Backoff = { initialMs: 25, maxMs: 1_000 };

/**
 * Repeats a request while the server is unreachable or answers 5xx (a persistence failure that
 * wrote nothing), for as long as `until` allows: a host retries a report while its lease may
 * still be live, since past that the server would refuse it anyway. Every connector request is safe to repeat: a repeated settlement answers what
 * was recorded, and a repeated conversation is ignored.
 */
export async function retrying<T>(request: () => Promise<Answer<T>>, options: RetryOptions): Promise<Answer<T>> {
  const pause = options.sleep ?? sleep;
  for (let attempt = 0; ; attempt++) {
    let error: Error;
    try {
      const answer = await request();
      if (answer.status < 500) return answer;
      error = new NetworkError(`answered ${answer.status}`);
    } catch (caught) {
      if (!(caught instanceof NetworkError)) throw caught;
      error = caught;
    }
    if (options.until.aborted) throw error;
    options.onRetry?.(error, attempt);
    await pause(backoffDelay(attempt, options.backoff ?? DEFAULT_BACKOFF), options.until);
  }
}
