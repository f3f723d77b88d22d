import type { Config } from './config.ts';
import type { Store } from './store/types.ts';

/** Rows dropped per transaction: a backlog goes in short transactions, never one long one. */
const BATCH = 1_000;

export interface Purged {
  keys: number;
  commands: number;
  events: number;
  attachments: number;
}

type Periods = Pick<Config, 'idempotencyRetentionMs' | 'commandRetentionMs' | 'eventRetentionMs' | 'attachmentRetentionMs'>;

/**
 * One round of retention (switchboard.yaml, "Retention"): drops what is past its period at
 * `now`. On PostgreSQL each purge runs in one replica at a time (the store's advisory lock).
 */
export async function purgeExpired(store: Store, periods: Periods, now: number): Promise<Purged> {
  // Keys first: a command whose key goes in this round can go with it.
  const keys = await store.purgeIdempotencyKeys(now - periods.idempotencyRetentionMs);
  const commands = await inBatches((limit) => store.purgeCommands(now - periods.commandRetentionMs, limit));
  const events = await store.purgeEvents(now - periods.eventRetentionMs);
  const attachments = await inBatches((limit) => store.purgeAttachments(now - periods.attachmentRetentionMs, limit));
  return { keys, commands, events, attachments };
}

async function inBatches(purge: (limit: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const dropped = await purge(BATCH);
    total += dropped;
    if (dropped < BATCH) return total;
  }
}
