import { describe, expect, test } from 'vitest';
import { Lanes } from './lanes.ts';

/** A promise the test resolves by hand. */
function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('Lanes', () => {
  test('each stage takes one key\'s jobs one at a time, in the order given', async () => {
    const lanes = new Lanes<string>();
    const order: string[] = [];
    const first = gate();
    const started = gate();
    lanes.run('conversation:a', 'a1', [async (job) => {
      order.push(`${job} start`);
      started.open();
      await first.opened;
      order.push(`${job} end`);
    }]);
    lanes.run('conversation:a', 'a2', [async (job) => {
      order.push(job);
    }]);
    await started.opened;
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['a1 start']);
    first.open();
    await lanes.idle();
    expect(order).toEqual(['a1 start', 'a1 end', 'a2']);
  });

  test('a job can be in a later stage while the next job of its key is in an earlier one; each stage keeps the order', async () => {
    const lanes = new Lanes<number>();
    const log: string[] = [];
    const settleFirst = gate();
    const secondExecuted = gate();
    lanes.run('conversation:a', 1, [
      async (n) => { log.push(`execute ${n}`); },
      async (n) => { log.push(`settle ${n} start`); await settleFirst.opened; log.push(`settle ${n} end`); },
    ]);
    lanes.run('conversation:a', 2, [
      async (n) => { log.push(`execute ${n}`); secondExecuted.open(); },
      async (n) => { log.push(`settle ${n}`); },
    ]);
    await secondExecuted.opened;
    // The second command executed while the first was still settling; its settlement waits its turn.
    expect(log).toEqual(['execute 1', 'settle 1 start', 'execute 2']);
    settleFirst.open();
    await lanes.idle();
    expect(log).toEqual(['execute 1', 'settle 1 start', 'execute 2', 'settle 1 end', 'settle 2']);
  });

  test('jobs of different keys run side by side', async () => {
    const lanes = new Lanes<string>();
    const blocked = gate();
    const ran: string[] = [];
    lanes.run('conversation:a', 'a', [async (job) => {
      await blocked.opened;
      ran.push(job);
    }]);
    const b = gate();
    lanes.run('conversation:b', 'b', [async (job) => {
      ran.push(job);
      b.open();
    }]);
    await b.opened;
    await lanes.below(2);
    expect(ran).toEqual(['b']);
    expect(lanes.outstanding).toBe(1);
    blocked.open();
    await lanes.idle();
    expect(ran).toEqual(['b', 'a']);
    expect(lanes.outstanding).toBe(0);
  });

  test('a stage that rejects skips its job\'s later stages and does not hold up the next job', async () => {
    const lanes = new Lanes<string>();
    const ran: string[] = [];
    lanes.run('k', 'first', [async () => { throw new Error('boom'); }, async (job) => { ran.push(`${job} never`); }]);
    lanes.run('k', 'next', [async (job) => { ran.push(`${job} execute`); }, async (job) => { ran.push(`${job} settle`); }]);
    await lanes.idle();
    expect(ran).toEqual(['next execute', 'next settle']);
  });

  test('below(limit) waits until fewer than limit jobs are outstanding', async () => {
    const lanes = new Lanes<number>();
    const gates = [gate(), gate()];
    lanes.run('x', 0, [(i) => gates[i]!.opened]);
    lanes.run('y', 1, [(i) => gates[i]!.opened]);
    let roomForTwo = false;
    const waiting = lanes.below(2).then(() => (roomForTwo = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(roomForTwo).toBe(false);
    gates[0]!.open();
    await waiting;
    expect(lanes.outstanding).toBe(1);
    gates[1]!.open();
    await lanes.idle();
  });

  test('a batch stage takes, in order, every job of its key waiting for it while the previous batch ran', async () => {
    interface Job { n: number; settled?: string }
    const lanes = new Lanes<Job>();
    const batches: number[][] = [];
    const firstBatch = gate();
    const stage = {
      max: 3,
      batch: async (jobs: Job[]) => {
        batches.push(jobs.map((job) => job.n));
        if (batches.length === 1) await firstBatch.opened;
        for (const job of jobs) job.settled = `settled ${job.n}`;
      },
    };
    const outputs: unknown[] = [];
    const execute = async () => undefined;
    for (const n of [1, 2, 3, 4, 5]) lanes.run('conversation:a', { n }, [execute, stage, async (job) => { outputs.push(job.settled); }]);
    lanes.run('conversation:b', { n: 9 }, [execute, stage]);
    await new Promise((resolve) => setImmediate(resolve));
    // 1 went alone; 2 to 5 executed meanwhile and wait; another key does not wait for this one.
    expect(batches).toEqual([[1], [9]]);
    firstBatch.open();
    await lanes.idle();
    // At most `max` at once, in dispatch order; each job keeps its own result.
    expect(batches).toEqual([[1], [9], [2, 3, 4], [5]]);
    expect(outputs).toEqual(['settled 1', 'settled 2', 'settled 3', 'settled 4', 'settled 5']);
  });

  test('a batch that rejects skips the later stages of its jobs only', async () => {
    const lanes = new Lanes<number>();
    const ran: string[] = [];
    let calls = 0;
    const stage = { max: 10, batch: async () => { if (calls++ === 0) throw new Error('boom'); } };
    const execute = async () => undefined;
    lanes.run('k', 1, [execute, stage, async (n) => { ran.push(`after ${n}`); }]);
    await new Promise((resolve) => setImmediate(resolve));
    lanes.run('k', 2, [execute, stage, async (n) => { ran.push(`after ${n}`); }]);
    await lanes.idle();
    expect(ran).toEqual(['after 2']);
  });
});
