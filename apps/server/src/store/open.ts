import type { Config } from '../config.ts';
import type { Store } from './types.ts';
import { SqliteStore } from './sqlite/store.ts';
import { PostgresStore } from './postgres/store.ts';

/** The store the configuration names: PostgreSQL when SWITCHBOARD_DATABASE_URL is set, else SQLite in the data directory. */
export async function openStore(config: Config, options: { dataDir?: string; migrate?: boolean } = {}): Promise<Store> {
  if (config.databaseUrl) {
    return PostgresStore.open({
      url: config.databaseUrl,
      poolMax: config.databasePoolMax,
      statementTimeoutMs: config.databaseStatementTimeoutMs,
      migrate: options.migrate ?? config.migrate === 'auto',
    });
  }
  return new SqliteStore({ dataDir: options.dataDir ?? config.dataDir, busyTimeoutMs: config.sqliteBusyTimeoutMs });
}
