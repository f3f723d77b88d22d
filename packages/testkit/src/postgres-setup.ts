import { startEmbeddedPostgres, TEST_DATABASE_URL } from './postgres.ts';

/**
 * vitest globalSetup: one PostgreSQL server for the whole test run, unless
 * SWITCHBOARD_TEST_DATABASE_URL already names one. Test files make their own databases on it.
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env[TEST_DATABASE_URL]) return undefined;
  const server = await startEmbeddedPostgres();
  process.env[TEST_DATABASE_URL] = server.url;
  return () => server.stop();
}
