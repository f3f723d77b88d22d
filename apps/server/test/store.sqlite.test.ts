import { afterAll } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createIdSource } from '../src/ids.ts';
import { SqliteStore } from '../src/store/sqlite/store.ts';
import type { Store } from '../src/store/types.ts';
import { storeSuite } from './store.suite.ts';

const newId = createIdSource().next;

const root = mkdtempSync(join(tmpdir(), 'switchboard-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const dirs = new WeakMap<Store, string>();

/** A fresh database file; a short busy timeout so a held write lock fails a transaction fast. */
async function open(dataDir = join(root, newId())): Promise<Store> {
  const store = new SqliteStore({ dataDir, busyTimeoutMs: 50 });
  dirs.set(store, dataDir);
  return store;
}

storeSuite('SqliteStore', () => open(), {
  groupCommit: true,
  peer: (store) => open(dirs.get(store)!),
  blockWrites(store) {
    // A second connection holds the write lock, so BEGIN IMMEDIATE times out.
    const blocker = new DatabaseSync(join(dirs.get(store)!, 'switchboard.db'));
    blocker.exec('BEGIN IMMEDIATE');
    return () => {
      blocker.exec('ROLLBACK');
      blocker.close();
    };
  },
  failCommit(store) {
    // Deferred foreign keys are checked at COMMIT: a credential of an unknown account fails it there.
    (store as SqliteStore).db.exec('PRAGMA defer_foreign_keys = ON');
    return store.createCredential({ id: newId(), accountId: 'no-such-account', kind: 'account', prefix: 'sb_x', label: '', createdAt: 0, hash: Buffer.from(newId()) });
  },
});
