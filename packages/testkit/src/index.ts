import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../../..');
export const paths = {
  root,
  server: join(root, 'apps/server/src/main.ts'),
  cli: join(root, 'apps/server/src/cli/main.ts'),
  connector: join(root, 'apps/connector/src/main.ts'),
};

export interface ServerProcess {
  url: string;
  dataDir: string;
  child: ChildProcess;
  /** Runs the operator CLI against this server's store and returns its --json output. */
  cli<T = unknown>(...args: string[]): Promise<T>;
  /** Creates an account with an API key and a connector key. */
  account(name?: string): Promise<{ accountId: string; apiKey: string; connectorKey: string }>;
  /** SIGTERM, then waits for exit. */
  stop(): Promise<void>;
  /** SIGKILL: no shutdown code runs. */
  kill(): Promise<void>;
}

let accounts = 0;

/** Waits for the child to print a JSON log line with `msg`, and returns it. */
function awaitLog(child: ChildProcess, msg: string, timeoutMs = 20_000): Promise<Record<string, unknown>> {
  return new Promise((resolvePromise, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const stderr: string[] = [];
    child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    const timer = setTimeout(() => reject(new Error(`no "${msg}" within ${timeoutMs} ms; stderr: ${stderr.join('')}`)), timeoutMs);
    child.once('exit', (code) => reject(new Error(`exited with ${code} before "${msg}"; stderr: ${stderr.join('')}`)));
    lines.on('line', (line) => {
      try {
        const record = JSON.parse(line) as Record<string, unknown>;
        if (record.msg === msg) {
          clearTimeout(timer);
          resolvePromise(record);
        }
      } catch {
        // not a log line
      }
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolvePromise) => child.once('exit', () => resolvePromise()));
}

/**
 * Starts `apps/server` as its own process on an ephemeral loopback port with a fresh data
 * directory (or `dataDir`, to restart over an existing store).
 */
export async function startServer(env: Record<string, string> = {}, dataDir?: string): Promise<ServerProcess> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'switchboard-'));
  const fullEnv = { ...process.env, SWITCHBOARD_DATA_DIR: dir, SWITCHBOARD_PORT: '0', SWITCHBOARD_HOST: '127.0.0.1', SWITCHBOARD_LOG_LEVEL: 'info', ...env };
  const child = spawn(process.execPath, [paths.server], { env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  const ready = await awaitLog(child, 'switchboard listening');
  child.stdout!.resume();
  const cli = async <T>(...args: string[]): Promise<T> => {
    const { stdout } = await run(process.execPath, [paths.cli, ...args, '--json'], { env: fullEnv });
    return JSON.parse(stdout) as T;
  };
  return {
    url: ready.url as string,
    dataDir: dir,
    child,
    cli,
    async account(name = `account-${process.pid}-${++accounts}`) {
      const account = await cli<{ id: string }>('accounts', 'create', name);
      const apiKey = await cli<{ secret: string }>('keys', 'create', account.id, '--label', 'test');
      const connectorKey = await cli<{ secret: string }>('connector-keys', 'create', account.id, '--label', 'test');
      return { accountId: account.id, apiKey: apiKey.secret, connectorKey: connectorKey.secret };
    },
    async stop() {
      child.kill('SIGTERM');
      await exited(child);
    },
    async kill() {
      child.kill('SIGKILL');
      await exited(child);
    },
  };
}

/** Removes a data directory made by startServer. */
export function removeDataDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export { awaitLog, exited };
