/**
 * Wakes the connector host's long-poll when its account gets new work. Waiting is per account;
 * the store decides what is handed out, so a wake-up that finds nothing is harmless.
 */
export class DispatchWaiters {
  private readonly waiting = new Map<string, Set<() => void>>();

  /** Resolves true when woken, false when `ms` passed or `signal` aborted first. */
  wait(accountId: string, ms: number, signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return Promise.resolve(false);
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
    for (const wake of [...(this.waiting.get(accountId) ?? [])]) wake();
  }

  wakeAll(): void {
    for (const accountId of [...this.waiting.keys()]) this.wake(accountId);
  }
}
