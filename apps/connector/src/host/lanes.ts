/** One step of a job; what it finds out, it keeps on the job for the steps after it. */
export type Stage<Job> = (job: Job) => Promise<void>;

/**
 * A step that takes every job of a key waiting for it at once (at most `max`), in the order
 * given: what is ready together goes in one request.
 */
export interface BatchStage<Job> {
  batch: (jobs: Job[]) => Promise<void>;
  max: number;
}

interface Waiting<Job> {
  job: Job;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** A key's jobs waiting for a batch stage, and whether a batch of them is under way. */
interface BatchQueue<Job> {
  waiting: Array<Waiting<Job>>;
  busy: boolean;
}

/**
 * Runs jobs as pipelines of stages. Per key (a conversation), each stage handles the key's jobs
 * one at a time in the order given (a batch stage: one batch at a time, of the jobs waiting for
 * it, in order), but a job may be in a later stage while the next job is in an earlier one: the
 * platform takes a conversation's commands in dispatch order, and their reports and settlements
 * reach the server in that order too, without one command waiting for the previous one's
 * settlement. Jobs with different keys run side by side. It counts what is outstanding so the
 * dispatch loop takes no more work than the host has room for.
 */
export class Lanes<Job> {
  private readonly tails = new Map<string, Array<Promise<void>>>();
  private readonly queues = new Map<string, BatchQueue<Job>>();
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
  run(key: string, job: Job, stages: ReadonlyArray<Stage<Job> | BatchStage<Job>>): void {
    this.count++;
    const tails = this.tails.get(key) ?? [];
    this.tails.set(key, tails);
    let previous: Promise<void> = Promise.resolve();
    stages.forEach((stage, i) => {
      const before = previous;
      // A job's stage before a batch stage ends after the previous job's (the stage before is in
      // order), so jobs join its queue in order; a plain stage waits for the previous job's turn in it.
      const current = typeof stage === 'function'
        ? Promise.all([tails[i], before]).then(() => stage(job))
        : before.then(() => this.join(`${i}:${key}`, stage, job));
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

  /** Waits in the key's queue of a batch stage; resolves once the batch that took the job is done. */
  private join(queueKey: string, stage: BatchStage<Job>, job: Job): Promise<void> {
    let queue = this.queues.get(queueKey);
    if (!queue) this.queues.set(queueKey, (queue = { waiting: [], busy: false }));
    const joined = new Promise<void>((resolve, reject) => queue.waiting.push({ job, resolve, reject }));
    this.pump(queueKey, queue, stage);
    return joined;
  }

  /** Runs the next batch of the queue unless one is under way. */
  private pump(queueKey: string, queue: BatchQueue<Job>, stage: BatchStage<Job>): void {
    if (queue.busy) return;
    if (queue.waiting.length === 0) {
      this.queues.delete(queueKey);
      return;
    }
    queue.busy = true;
    const taken = queue.waiting.splice(0, stage.max);
    void stage.batch(taken.map((w) => w.job)).then(
      () => taken.forEach((w) => w.resolve()),
      (error: unknown) => taken.forEach((w) => w.reject(error)),
    ).finally(() => {
      queue.busy = false;
      this.pump(queueKey, queue, stage);
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
