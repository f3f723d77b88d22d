import type { DatabaseSync } from 'node:sqlite';
import { migrations } from './migrations/index.ts';

/**
 * Brings the schema up to date inside one transaction, recording progress in `user_version`. An
 * up-to-date file takes no lock, so the operator CLI opens beside a busy server at once. Otherwise
 * the version is read again inside the transaction: a server and the CLI opening a new file
 * together migrate it once, the second finding the first's work done.
 */
export function migrate(db: DatabaseSync): void {
  if (schemaVersion(db) === migrations.length) return;
  db.exec('BEGIN IMMEDIATE');
  try {
    const current = schemaVersion(db);
    for (let v = current; v < migrations.length; v++) db.exec(migrations[v]!);
    if (current < migrations.length) db.exec(`PRAGMA user_version = ${migrations.length}`);
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

/** The file's schema version; one newer than this build knows is refused. */
function schemaVersion(db: DatabaseSync): number {
  const { user_version: version } = db.prepare('PRAGMA user_version').get() as { user_version: number };
  if (version > migrations.length) {
    throw new Error(`database schema version ${version} is newer than this build knows (${migrations.length})`);
  }
  return version;
}
