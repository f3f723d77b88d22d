import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/** Starts the server with `env` and waits for it to exit (it must, within 20 s): its exit code and stderr. */
function failedStart(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [join(import.meta.dirname, 'main.ts')], { env: { ...process.env, SWITCHBOARD_PORT: '0', ...env }, timeout: 20_000 }, (error, _stdout, stderr) => {
      resolve({ code: child.exitCode ?? (error ? -1 : 0), stderr });
    });
  });
}

describe('a server that cannot start says why in one line and exits 1', () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-start-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['a setting that is not a number', { SWITCHBOARD_PORT: 'abc' }, 'switchboard: SWITCHBOARD_PORT must be an integer from 0 to 65535, got "abc"'],
    ['a port past the last', { SWITCHBOARD_PORT: '65536' }, 'switchboard: SWITCHBOARD_PORT must be an integer from 0 to 65535, got "65536"'],
    ['a host name that does not resolve', { SWITCHBOARD_HOST: 'nowhere.invalid' }, 'switchboard: cannot listen on nowhere.invalid:0 (getaddrinfo ENOTFOUND nowhere.invalid)'],
    ['a data directory that is a file', { SWITCHBOARD_DATA_DIR: join(dir, 'file') }, `switchboard: cannot open the SQLite store in ${join(dir, 'file')}: EEXIST`],
    ['a database URL of another scheme', { SWITCHBOARD_DATABASE_URL: 'mysql://user@db/app' }, 'switchboard: SWITCHBOARD_DATABASE_URL must start with postgres:// or postgresql://'],
    ['a database URL that is not one, without its password', { SWITCHBOARD_DATABASE_URL: 'postgres://user:s3cret@[db/app' }, 'switchboard: SWITCHBOARD_DATABASE_URL is not a valid URL'],
    ['a database nobody listens for', { SWITCHBOARD_DATABASE_URL: 'postgres://user:s3cret@127.0.0.1:1/app' }, 'switchboard: cannot open the PostgreSQL store at 127.0.0.1:1/app: connect ECONNREFUSED'],
    ['a socket directory with no server in it', { SWITCHBOARD_DATABASE_URL: `postgres://user@/app?host=${encodeURIComponent(dir)}` }, `switchboard: cannot open the PostgreSQL store at ${dir}/app: connect ENOENT ${dir}/.s.PGSQL.5432`],
  ])('%s', async (_name, env, message) => {
    writeFileSync(join(dir, 'file'), '');
    const { code, stderr } = await failedStart({ SWITCHBOARD_DATA_DIR: join(dir, 'data'), ...env });
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain(message);
    expect(stderr).not.toContain('s3cret');
  });
});
