/** One step of a job; it gets what the previous step returned. */
export type Stage = (input: unknown) => Promise<unknown>;

/**
 * A step that takes every job of a key waiting for it at once (at most `max`), in the order
 * given, and answers one output per input: what is ready together goes in one request.
 */
export interface BatchStage {
  batch: (inputs: unknown[]) => Promise<unknown[]>;
  max: number;
}

interface Waiting {
  input: unknown;
  resolve: (output: unknown) => void;
  reject: (error: unknown) => void;
}

/** A key's jobs waiting for a batch stage, and whether a batch of them is under way. */
interface BatchQueue {
  waiting: Waiting[];
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
export class Lanes {
  private readonly tails = new Map<string, Array<Promise<unknown>>>();
  private readonly queues = new Map<string, BatchQueue>();
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
  run(key: string, stages: ReadonlyArray<Stage | BatchStage>): void {
    this.count++;
    const tails = this.tails.get(key) ?? [];
    this.tails.set(key, tails);
    let previous: Promise<unknown> = Promise.resolve(undefined);
    stages.forEach((stage, i) => {
      const input = previous;
      // A batch stage's input settles after the previous job's (the stage before is in order), so
      // jobs join its queue in order; a plain stage waits for the previous job's turn in it.
      const current = typeof stage === 'function'
        ? Promise.all([tails[i], input]).then(([, value]) => stage(value))
        : input.then((value) => this.join(`${i}:${key}`, stage, value));
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

  /** Waits in the key's queue of a batch stage; resolves with this input's output. */
  private join(queueKey: string, stage: BatchStage, input: unknown): Promise<unknown> {
    let queue = this.queues.get(queueKey);
    if (!queue) this.queues.set(queueKey, (queue = { waiting: [], busy: false }));
    const joined = new Promise((resolve, reject) => queue.waiting.push({ input, resolve, reject }));
    this.pump(queueKey, queue, stage);
    return joined;
  }

  /** Runs the next batch of the queue unless one is under way. */
  private pump(queueKey: string, queue: BatchQueue, stage: BatchStage): void {
    if (queue.busy) return;
    if (queue.waiting.length === 0) {
      this.queues.delete(queueKey);
      return;
    }
    queue.busy = true;
    const taken = queue.waiting.splice(0, stage.max);
    void stage.batch(taken.map((w) => w.input)).then(
      (outputs) => taken.forEach((w, i) => w.resolve(outputs[i])),
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
