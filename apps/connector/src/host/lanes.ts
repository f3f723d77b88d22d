/** One step of a job; it gets what the previous step returned. */
export type Stage = (input: unknown) => Promise<unknown>;

/**
 * Runs jobs as pipelines of stages. Per key (a conversation), each stage handles the key's jobs
 * one at a time in the order given, but a job may be in a later stage while the next job is in an
 * earlier one: the platform takes a conversation's commands in dispatch order, and their reports
 * and settlements reach the server in that order too, without one command waiting for the
 * previous one's settlement. Jobs with different keys run side by side. It counts what is
 * outstanding so the dispatch loop takes no more work than the host has room for.
 */
export class Lanes {
  private readonly tails = new Map<string, Array<Promise<unknown>>>();
  private count = 0;
  private waiters: Array<() => void> = [];

  /** Jobs queued or running. */
  get outstanding(): number {
    return this.count;
  }

  /**
   * Queues a job behind the key's earlier jobs, stage by stage. Stages handle their own errors; if
   * one rejects anyway, the job's later stages are skipped and the key's next job is not held up.
   */
  run(key: string, stages: readonly Stage[]): void {
    this.count++;
    const tails = this.tails.get(key) ?? [];
    this.tails.set(key, tails);
    let previous: Promise<unknown> = Promise.resolve(undefined);
    stages.forEach((stage, i) => {
      const input = previous;
      const current = Promise.all([tails[i], input]).then(([, value]) => stage(value));
      tails[i] = current.catch(() => undefined);
      previous = current;
    });
    const last = tails[stages.length - 1];
    void previous.catch(() => undefined).finally(() => {
      this.count--;
      if (this.tails.get(key)?.[stages.length - 1] === last) this.tails.delete(key);
      const waiters = this.waiters;
      this.waiters = [];
      for (const wake of waiters) wake();
    });
  }

  /** Resolves once fewer than `limit` jobs are outstanding. */
  async below(limit: number): Promise<void> {
    while (this.count >= limit) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /** Resolves once nothing is outstanding. */
  idle(): Promise<void> {
    return this.below(1);
  }
}
