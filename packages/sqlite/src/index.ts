import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type DatabaseSyncOptions } from 'node:sqlite';

const SQLITE_BUSY = 5;
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/**
 * Opens `path` (creating its directory) in WAL mode, waiting up to `busyTimeoutMs` for another
 * connection's lock. Two connections turning a new file to WAL at the same moment deadlock, and
 * SQLite answers one of them SQLITE_BUSY at once, without the busy timeout: that one tries
 * again after a short pause until the timeout has passed.
 */
export function openWal(path: string, busyTimeoutMs: number, options: DatabaseSyncOptions = {}): DatabaseSync {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path, options);
  db.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
  const deadline = Date.now() + busyTimeoutMs;
  for (;;) {
    try {
      db.exec('PRAGMA journal_mode = WAL');
      return db;
    } catch (error) {
      if ((error as { errcode?: number }).errcode !== SQLITE_BUSY || Date.now() >= deadline) {
        db.close();
        throw error;
      }
      Atomics.wait(PAUSE, 0, 0, 5 + Math.random() * 10);
    }
  }
}
