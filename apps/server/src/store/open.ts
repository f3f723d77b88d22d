import type { Config } from '../config.ts';
import { StoreError, type Store } from './types.ts';

/**
 * The store the configuration names: PostgreSQL when SWITCHBOARD_DATABASE_URL is set, else SQLite
 * in the data directory. Each driver is imported when it is chosen: a process loads only its own.
 */
export async function openStore(config: Config, options: { dataDir?: string; migrate?: boolean } = {}): Promise<Store> {
  if (config.databaseUrl) {
    const { openPostgresStore } = await import('./postgres/store.ts');
    return openPostgresStore({
      url: config.databaseUrl,
      poolMax: config.databasePoolMax,
      statementTimeoutMs: config.databaseStatementTimeoutMs,
      migrate: options.migrate ?? config.migrate === 'auto',
    });
  }
  const dataDir = options.dataDir ?? config.dataDir;
  try {
    const { openSqliteStore } = await import('./sqlite/store.ts');
    return openSqliteStore({ dataDir, busyTimeoutMs: config.sqliteBusyTimeoutMs });
  } catch (error) {
    throw new StoreError(`cannot open the SQLite store in ${dataDir}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}
