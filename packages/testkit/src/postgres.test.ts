import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

// A test run whose tests failed must still exit non-zero after the embedded PostgreSQL stops.
test('starting and stopping the embedded PostgreSQL leaves the process exit code alone', async () => {
  const script = `
    const { startEmbeddedPostgres } = await import(${JSON.stringify(join(import.meta.dirname, 'postgres.ts'))});
    const server = await startEmbeddedPostgres();
    await server.stop();
    process.exitCode = 3;
  `;
  const failed = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]).catch((error: { code: number }) => error);
  expect((failed as { code: number }).code).toBe(3);
}, 60_000);

// A run on a server named by SWITCHBOARD_TEST_DATABASE_URL drops the databases it made, and only those.
test('a test run on an existing PostgreSQL server drops its own databases when it ends', async () => {
  const { startEmbeddedPostgres, testDatabase, TEST_DATABASE_URL, TEST_RUN } = await import('./postgres.ts');
  const { default: setup } = await import('./postgres-setup.ts');
  const postgres = (await import('postgres')).default;
  const server = await startEmbeddedPostgres();
  const saved = { url: process.env[TEST_DATABASE_URL], run: process.env[TEST_RUN] };
  const admin = postgres(server.url, { max: 1, onnotice: () => undefined });
  const databases = async () => (await admin`SELECT datname FROM pg_database WHERE datname LIKE 'sb%'`).map((r) => r.datname as string);
  try {
    process.env[TEST_DATABASE_URL] = server.url;
    // Another run's database on the same server, left alone.
    process.env[TEST_RUN] = 'other';
    const other = new URL(await testDatabase('other-run')).pathname.slice(1);
    delete process.env[TEST_RUN];
    const teardown = await setup();
    const mine = new URL(await testDatabase('this-run')).pathname.slice(1);
    // A server the test left running keeps a session open on it.
    const session = postgres(`${server.url.replace(/\/postgres$/, '')}/${mine}`, { max: 1 });
    await session`SELECT 1`;
    expect(await databases()).toEqual(expect.arrayContaining([other, mine]));
    await teardown!();
    expect(await databases()).toEqual([other]);
    await session.end({ timeout: 0 }).catch(() => undefined);
  } finally {
    await admin.end({ timeout: 1 });
    for (const [name, value] of [[TEST_DATABASE_URL, saved.url], [TEST_RUN, saved.run]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await server.stop();
  }
}, 60_000);
