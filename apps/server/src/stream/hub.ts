type Listener = () => void;
/** `accountId` null: every account (after missed announcements). */
type AllListener = (accountId: string | null) => void;

/**
 * Tells the open streams of an account that its event log grew. Carries no events itself:
 * listeners read the durable log, so what a client sees is always what was committed.
 */
export class StreamHub {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly everyAccount = new Set<AllListener>();
  private count = 0;

  subscribe(accountId: string, listener: Listener): () => void {
    let set = this.listeners.get(accountId);
    if (!set) this.listeners.set(accountId, (set = new Set()));
    set.add(listener);
    this.count++;
    return () => {
      if (set.delete(listener)) this.count--;
      if (set.size === 0) this.listeners.delete(accountId);
    };
  }

  /** Hears every account's commits (the webhook delivery worker). */
  subscribeAll(listener: AllListener): () => void {
    this.everyAccount.add(listener);
    return () => this.everyAccount.delete(listener);
  }

  notify(accountId: string): void {
    for (const listener of this.listeners.get(accountId) ?? []) listener();
    for (const listener of this.everyAccount) listener(accountId);
  }

  notifyAll(): void {
    for (const set of [...this.listeners.values()]) for (const listener of set) listener();
    for (const listener of this.everyAccount) listener(null);
  }

  get subscribers(): number {
    return this.count;
  }
}
