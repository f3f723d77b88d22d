import type { Config } from './config.ts';
import type { Store } from './store/types.ts';
import { inPacedBatches } from './store/batches.ts';
import { STALE_UPLOAD_MS } from './store/rules/transfers.ts';

/**
 * Rows dropped per transaction: a backlog goes in short transactions, never one long one. A
 * batch of commands on a SQLite store of 5 million takes tens of milliseconds, on the event loop.
 */
const BATCH = 250;
/** Transfers per transaction: each may be 100 MB of chunks. */
const TRANSFER_BATCH = 4;

export interface Purged {
  keys: number;
  commands: number;
  events: number;
  attachments: number;
  transfers: number;
}

type Periods = Pick<Config, 'idempotencyRetentionMs' | 'commandRetentionMs' | 'eventRetentionMs' | 'attachmentRetentionMs'>;

/**
 * One round of retention (switchboard.yaml, "Retention"): drops what is past its period at
 * `now`. On PostgreSQL each purge runs in one replica at a time (the store's advisory lock).
 */
export async function purgeExpired(store: Store, periods: Periods, now: number): Promise<Purged> {
  // One round at a time: the server's timer does not wait for a long round (a day's backlog) to end.
  if (purging.has(store)) return { keys: 0, commands: 0, events: 0, attachments: 0, transfers: 0 };
  purging.add(store);
  try {
    return await purgeRound(store, periods, now);
  } finally {
    purging.delete(store);
  }
}

const purging = new WeakSet<Store>();

async function purgeRound(store: Store, periods: Periods, now: number): Promise<Purged> {
  // Keys first: a command whose key goes in this round can go with it.
  const keys = await store.purgeIdempotencyKeys(now - periods.idempotencyRetentionMs);
  const commands = await inPacedBatches((limit) => store.purgeCommands(now - periods.commandRetentionMs, limit), BATCH);
  const events = await store.purgeEvents(now - periods.eventRetentionMs);
  const attachments = await inPacedBatches((limit) => store.purgeAttachments(now - periods.attachmentRetentionMs, limit), BATCH);
  // After the commands: a transfer whose commands went this round can go with them. Purged
  // whether transfers are on or off, so turning them off still lets them go.
  const transfers = await inPacedBatches((limit) => store.purgeTransfers(now, now - STALE_UPLOAD_MS, limit), TRANSFER_BATCH);
  return { keys, commands, events, attachments, transfers };
}
