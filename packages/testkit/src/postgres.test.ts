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
