/**
 * Wakes the connector host's long-poll when its account gets new work. Waiting is per account;
 * the store decides what is handed out, so a wake-up that finds nothing is harmless.
 */
export class DispatchWaiters {
  private readonly waiting = new Map<string, Set<() => void>>();
  /** Wake-ups per account so far: a poll that read the queue, then waits, misses none in between. */
  private readonly wakes = new Map<string, number>();
  private allWakes = 0;

  /** The account's wake-up count; pass it to `wait` taken before reading the queue. */
  seen(accountId: string): number {
    return (this.wakes.get(accountId) ?? 0) + this.allWakes;
  }

  /**
   * Resolves true when woken (at once if woken since `seen`), false when `ms` passed or `signal`
   * aborted first.
   */
  wait(accountId: string, ms: number, signal: AbortSignal, seen?: number): Promise<boolean> {
    if (signal.aborted) return Promise.resolve(false);
    if (seen !== undefined && this.seen(accountId) !== seen) return Promise.resolve(true);
    return new Promise((resolve) => {
      let set = this.waiting.get(accountId);
      if (!set) this.waiting.set(accountId, (set = new Set()));
      const done = (woken: boolean) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        set.delete(wake);
        if (set.size === 0 && this.waiting.get(accountId) === set) this.waiting.delete(accountId);
        resolve(woken);
      };
      const wake = () => done(true);
      const onAbort = () => done(false);
      const timer = setTimeout(() => done(false), ms);
      signal.addEventListener('abort', onAbort, { once: true });
      set.add(wake);
    });
  }

  wake(accountId: string): void {
    this.wakes.set(accountId, (this.wakes.get(accountId) ?? 0) + 1);
    for (const wake of [...(this.waiting.get(accountId) ?? [])]) wake();
  }

  wakeAll(): void {
    this.allWakes++;
    for (const wake of [...this.waiting.values()].flatMap((set) => [...set])) wake();
  }
}
