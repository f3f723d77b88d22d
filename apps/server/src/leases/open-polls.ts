import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';
import type { Store } from '../store/types.ts';
import { openPollSweepMs } from '../store/rules/leases.ts';

/** Leases renewed in one write: a batch keeps the SQLite writer free for intake between them. */
const BATCH = 500;

interface OpenPoll { accountId: string; epoch: number; count: number }

/**
 * The dispatch polls waiting on this server, and the timer that keeps their leases live while
 * they wait (connector.yaml, "Leases and fencing"). So a poll may wait longer than its lease's
 * TTL, and an idle account costs one request a wait. A poll that ends (answered, its connection
 * closed, the server gone) stops the renewals; its lease then lives out its TTL.
 */
export class OpenPolls {
  private readonly open = new Map<string, OpenPoll>();
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<unknown> | null = null;

  private readonly deps: { store: Store; clock: Clock; log: Logger; ttlMs: number };

  constructor(deps: OpenPolls['deps']) {
    this.deps = deps;
  }

  /** A poll of `epoch` waits; call the answer when it ends. */
  add(accountId: string, epoch: number): () => void {
    const key = `${epoch}:${accountId}`;
    const poll = this.open.get(key);
    if (poll) poll.count++;
    else this.open.set(key, { accountId, epoch, count: 1 });
    return () => {
      const ended = this.open.get(key);
      if (ended && --ended.count === 0) this.open.delete(key);
    };
  }

  /**
   * Renews the leases of the polls open now that are due, a batch a write; answers how many. A
   * batch that fails does not stop the others; the first failure is thrown once they have run.
   */
  async sweep(): Promise<number> {
    const { store, clock, ttlMs } = this.deps;
    const polls = [...this.open.values()];
    let renewed = 0;
    let failure: unknown = null;
    for (let i = 0; i < polls.length; i += BATCH) {
      try {
        renewed += await store.renewOpenPollLeases(polls.slice(i, i + BATCH), clock.now(), ttlMs);
      } catch (error) {
        failure ??= error;
      }
    }
    if (failure !== null) throw failure;
    return renewed;
  }

  start(): void {
    const { log, ttlMs } = this.deps;
    this.timer = setInterval(() => {
      this.sweeping ??= this.sweep()
        .catch((error: unknown) => log.warn({ err: error }, 'renewing the leases of open dispatch polls failed; will retry'))
        .finally(() => { this.sweeping = null; });
    }, openPollSweepMs(ttlMs));
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.sweeping;
  }
}
