import type { Sql } from 'postgres';
import { StoreError } from '../types.ts';
import { connect, databaseTarget, openFailure } from './connect.ts';
import { migrations } from './migrations/index.ts';

/** Every replica takes this advisory lock to read or change the schema, so they migrate once. */
const MIGRATION_LOCK = 0x5357_0001;

/** The database's schema does not match this build; the server does not start. */
export class SchemaMismatch extends StoreError {
  override readonly name = 'SchemaMismatch';
}

export interface MigrateResult {
  from: number;
  to: number;
}

/** `switchboard migrate`: applies pending migrations on the database at `url`. */
export async function migrateDatabase(url: string): Promise<MigrateResult> {
  const target = databaseTarget(url);
  const sql = connect(target, { max: 1, onnotice: () => undefined, connect_timeout: 5 });
  try {
    return await migrate(sql, true);
  } catch (error) {
    throw openFailure(target, error);
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/**
 * Brings the schema to this build's version in one transaction under an advisory lock; with
 * `apply: false`, only checks it. A schema newer than the build is refused either way.
 */
export async function migrate(sql: Sql, apply: boolean): Promise<MigrateResult> {
  const latest = migrations.length;
  return sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await tx`CREATE TABLE IF NOT EXISTS switchboard_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`;
    const [row] = await tx<{ version: number }[]>`SELECT COALESCE(MAX(version), 0)::int AS version FROM switchboard_migrations`;
    const current = row!.version;
    if (current > latest) {
      throw new SchemaMismatch(`the database schema is at version ${current}, newer than this build knows (${latest}): run a Switchboard release at least as new as the one that migrated it`);
    }
    if (current < latest && !apply) {
      throw new SchemaMismatch(`the database schema is at version ${current}, older than this build (${latest}): run \`switchboard migrate\` or start with SWITCHBOARD_MIGRATE=auto`);
    }
    for (let version = current + 1; version <= latest; version++) {
      await tx.unsafe(migrations[version - 1]!);
      await tx`INSERT INTO switchboard_migrations (version) VALUES (${version})`;
    }
    return { from: current, to: latest };
  });
}
