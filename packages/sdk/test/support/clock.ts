import type { Clock } from '../../src/clock.ts';

interface Timer {
  at: number;
  ms: number;
  resolve: () => void;
}

/**
 * A clock whose time moves only when `run` has nothing else to do: it lets every pending promise
 * and I/O callback settle, then fires the earliest timer, as real time would, but at once.
 * `fired` lists the durations of the sleeps that ran to completion, in order.
 */
export class TestClock implements Clock {
  time = 1_767_225_600_000;
  readonly fired: number[] = [];
  private timers: Timer[] = [];

  now(): number {
    return this.time;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer: Timer = { at: this.time + ms, ms, resolve };
      this.timers.push(timer);
      signal?.addEventListener(
        'abort',
        () => {
          this.timers = this.timers.filter((t) => t !== timer);
          reject(signal.reason);
        },
        { once: true },
      );
    });
  }

  get pending(): number {
    return this.timers.length;
  }

  /** Fires the earliest timer; false when none is pending. */
  fireNext(): boolean {
    if (this.timers.length === 0) return false;
    const next = this.timers.reduce((a, b) => (b.at < a.at ? b : a));
    this.timers = this.timers.filter((t) => t !== next);
    this.time = Math.max(this.time, next.at);
    this.fired.push(next.ms);
    next.resolve();
    return true;
  }

  /** Drives time forward until `promise` settles, and returns (or throws) what it settled to. */
  async run<T>(promise: Promise<T>): Promise<T> {
    let settled = false;
    promise.then(
      () => (settled = true),
      () => (settled = true),
    );
    for (let steps = 0; steps < 10_000; steps++) {
      await idle();
      if (settled) return promise;
      if (!this.fireNext()) {
        await idle();
        if (settled) return promise;
        throw new Error('stuck: the promise is waiting on something other than the clock');
      }
    }
    throw new Error('still unsettled after 10,000 timers');
  }
}

/** Lets every queued promise job and I/O callback run. */
export function idle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
