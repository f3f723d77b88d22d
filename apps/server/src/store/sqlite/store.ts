import type { DatabaseSync } from 'node:sqlite';
import type { Store } from '../types.ts';
import { SqliteDb, type SqliteOptions } from './transaction.ts';
import { accounts } from './accounts.ts';
import { conversations } from './conversations.ts';
import { commands } from './commands.ts';
import { events } from './events.ts';
import { leases } from './leases.ts';
import { attachments } from './attachments.ts';
import { admin } from './admin.ts';
import { holds } from './holds.ts';
import { transfers } from './transfers.ts';
import { SqliteWebhookStore } from './webhooks.ts';

export type { SqliteOptions } from './transaction.ts';

/** The embedded store: one SQLite file in the data directory (transaction.ts says how it commits). */
export interface SqliteStore extends Store {
  /** The writer connection, for tests and the operator's tools. */
  readonly db: DatabaseSync;
}

export function openSqliteStore(options: SqliteOptions): SqliteStore {
  const db = new SqliteDb(options);
  return {
    db: db.writer,
    close: () => db.close(),
    flushed: () => db.flushed(),
    webhooks: new SqliteWebhookStore(db),
    ...accounts(db), ...conversations(db), ...commands(db), ...events(db), ...leases(db), ...attachments(db), ...admin(db), ...holds(db), ...transfers(db),
  };
}
