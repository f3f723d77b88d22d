import { randomBytes } from 'node:crypto';
import { dropRunDatabases, startEmbeddedPostgres, TEST_DATABASE_URL, TEST_RUN } from './postgres.ts';

/**
 * vitest globalSetup: one PostgreSQL server for the whole test run, unless
 * SWITCHBOARD_TEST_DATABASE_URL already names one. Test files make their own databases on it,
 * named after this run; on a server named from outside, the run drops them when it ends (an
 * embedded one is thrown away whole).
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  // A second project of the same run: the first one's setup owns the server and the databases.
  if (process.env[TEST_RUN]) return undefined;
  const run = randomBytes(4).toString('hex');
  process.env[TEST_RUN] = run;
  const external = process.env[TEST_DATABASE_URL];
  if (external) {
    return async () => {
      await dropRunDatabases(external, run).catch((error: unknown) => {
        console.warn(`could not drop this run's test databases (sb_${run}_*): ${String(error)}`);
      });
    };
  }
  const server = await startEmbeddedPostgres();
  process.env[TEST_DATABASE_URL] = server.url;
  return () => server.stop();
}
