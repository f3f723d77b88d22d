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
    const lanes = new Lanes();
    const order: string[] = [];
    const first = gate();
    const started = gate();
    lanes.run('conversation:a', [async () => {
      order.push('a1 start');
      started.open();
      await first.opened;
      order.push('a1 end');
    }]);
    lanes.run('conversation:a', [async () => {
      order.push('a2');
    }]);
    await started.opened;
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['a1 start']);
    first.open();
    await lanes.idle();
    expect(order).toEqual(['a1 start', 'a1 end', 'a2']);
  });

  test('a job can be in a later stage while the next job of its key is in an earlier one; each stage keeps the order', async () => {
    const lanes = new Lanes();
    const log: string[] = [];
    const settleFirst = gate();
    const secondExecuted = gate();
    lanes.run('conversation:a', [
      async () => { log.push('execute 1'); return 1; },
      async (n) => { log.push(`settle ${String(n)} start`); await settleFirst.opened; log.push(`settle ${String(n)} end`); },
    ]);
    lanes.run('conversation:a', [
      async () => { log.push('execute 2'); secondExecuted.open(); return 2; },
      async (n) => { log.push(`settle ${String(n)}`); },
    ]);
    await secondExecuted.opened;
    // The second command executed while the first was still settling; its settlement waits its turn.
    expect(log).toEqual(['execute 1', 'settle 1 start', 'execute 2']);
    settleFirst.open();
    await lanes.idle();
    expect(log).toEqual(['execute 1', 'settle 1 start', 'execute 2', 'settle 1 end', 'settle 2']);
  });

  test('jobs of different keys run side by side', async () => {
    const lanes = new Lanes();
    const blocked = gate();
    const ran: string[] = [];
    lanes.run('conversation:a', [async () => {
      await blocked.opened;
      ran.push('a');
    }]);
    const b = gate();
    lanes.run('conversation:b', [async () => {
      ran.push('b');
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
    const lanes = new Lanes();
    const ran: string[] = [];
    lanes.run('k', [async () => { throw new Error('boom'); }, async () => { ran.push('never'); }]);
    lanes.run('k', [async () => { ran.push('next execute'); }, async () => { ran.push('next settle'); }]);
    await lanes.idle();
    expect(ran).toEqual(['next execute', 'next settle']);
  });

  test('below(limit) waits until fewer than limit jobs are outstanding', async () => {
    const lanes = new Lanes();
    const gates = [gate(), gate()];
    lanes.run('x', [() => gates[0]!.opened]);
    lanes.run('y', [() => gates[1]!.opened]);
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
    const lanes = new Lanes();
    const batches: number[][] = [];
    const firstBatch = gate();
    const stage = {
      max: 3,
      batch: async (inputs: unknown[]) => {
        batches.push(inputs as number[]);
        if (batches.length === 1) await firstBatch.opened;
        return inputs.map((n) => `settled ${String(n)}`);
      },
    };
    const outputs: unknown[] = [];
    for (const n of [1, 2, 3, 4, 5]) lanes.run('conversation:a', [async () => n, stage, async (out) => { outputs.push(out); }]);
    lanes.run('conversation:b', [async () => 9, stage]);
    await new Promise((resolve) => setImmediate(resolve));
    // 1 went alone; 2 to 5 executed meanwhile and wait; another key does not wait for this one.
    expect(batches).toEqual([[1], [9]]);
    firstBatch.open();
    await lanes.idle();
    // At most `max` at once, in dispatch order; each job gets its own output.
    expect(batches).toEqual([[1], [9], [2, 3, 4], [5]]);
    expect(outputs).toEqual(['settled 1', 'settled 2', 'settled 3', 'settled 4', 'settled 5']);
  });

  test('a batch that rejects skips the later stages of its jobs only', async () => {
    const lanes = new Lanes();
    const ran: string[] = [];
    let calls = 0;
    const stage = { max: 10, batch: async (inputs: unknown[]) => { if (calls++ === 0) throw new Error('boom'); return inputs; } };
    lanes.run('k', [async () => 1, stage, async () => { ran.push('never'); }]);
    await new Promise((resolve) => setImmediate(resolve));
    lanes.run('k', [async () => 2, stage, async (n) => { ran.push(`after ${String(n)}`); }]);
    await lanes.idle();
    expect(ran).toEqual(['after 2']);
  });
});
