import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Runs `purge` (one batch of at most `size` rows, in one short transaction) until a batch drops
 * fewer, and rests after each batch as long as the batch took: a backlog of retention (a day of
 * rows) takes at most half of the store's time, and intake, which shares the SQLite writer and
 * the event loop, is served in the other half. The total dropped.
 */
export async function inPacedBatches(purge: (size: number) => Promise<number>, size: number): Promise<number> {
  let total = 0;
  for (;;) {
    const started = performance.now();
    const dropped = await purge(size);
    total += dropped;
    if (dropped < size) return total;
    await sleep(performance.now() - started);
  }
}
