import { spawn, execFile, type ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { waitForMatch } from './wait.ts';
import { testDatabase, testStore } from './postgres.ts';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../../..');
export const paths = {
  root,
  server: join(root, 'apps/server/src/main.ts'),
  /** The bundled production build (`pnpm build`), which benchmarks measure. */
  serverDist: join(root, 'apps/server/dist/main.js'),
  cli: join(root, 'apps/server/src/cli/main.ts'),
  /** The bundled operator CLI. */
  cliDist: join(root, 'apps/server/dist/cli/main.js'),
  connector: join(root, 'apps/connector/src/main.ts'),
  /** The bundled connector host (and its `inject` / `platform` commands). */
  connectorDist: join(root, 'apps/connector/dist/main.js'),
};

/** The Node flags the server runs with, wherever it is started (apps/server/package.json). */
export const serverNodeFlags: string[] = JSON.parse(readFileSync(join(root, 'apps/server/package.json'), 'utf8')).switchboard.nodeFlags;

export interface ServerProcess {
  url: string;
  dataDir: string;
  /** Where the server keeps its store: SWITCHBOARD_DATA_DIR, and SWITCHBOARD_DATABASE_URL on PostgreSQL. */
  storeEnv: Record<string, string>;
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
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    const timer = setTimeout(() => reject(new Error(`no "${msg}" within ${timeoutMs} ms; stderr: ${stderr.join('')}`)), timeoutMs);
    child.once('exit', (code) => reject(new Error(`exited with ${code} before "${msg}"; stderr: ${stderr.join('')}`)));
    lines.on('line', (line) => {
      try {
        const record = JSON.parse(line) as Record<string, unknown>;
        if (record.msg === msg) {
          clearTimeout(timer);
          // Done reading: a server's later lines (one a request) are not parsed in this process.
          lines.close();
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
export async function startServer(env: Record<string, string> = {}, dataDir?: string, entry: string = paths.server, cliEntry: string = paths.cli): Promise<ServerProcess> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'switchboard-'));
  // On the PostgreSQL test run, a database per data directory: a restart over `dataDir` finds it again.
  const database = testStore() === 'postgres' && !env.SWITCHBOARD_DATABASE_URL ? { SWITCHBOARD_DATABASE_URL: await testDatabase(dir) } : {};
  const fullEnv = { ...process.env, SWITCHBOARD_DATA_DIR: dir, SWITCHBOARD_PORT: '0', SWITCHBOARD_HOST: '127.0.0.1', SWITCHBOARD_LOG_LEVEL: 'info', ...database, ...env };
  const child = spawn(process.execPath, [...serverNodeFlags, entry], { env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  const ready = await awaitLog(child, 'switchboard listening');
  child.stdout!.resume();
  const cli = async <T>(...args: string[]): Promise<T> => {
    const { stdout } = await run(process.execPath, [cliEntry, ...args, '--json'], { env: fullEnv });
    return JSON.parse(stdout) as T;
  };
  return {
    url: ready.url as string,
    dataDir: dir,
    storeEnv: { SWITCHBOARD_DATA_DIR: dir, ...(fullEnv.SWITCHBOARD_DATABASE_URL ? { SWITCHBOARD_DATABASE_URL: fullEnv.SWITCHBOARD_DATABASE_URL } : {}) },
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

/** One JSON log line of a child process. */
export interface LogRecord {
  msg: string;
  level: number;
  [field: string]: unknown;
}

/** Keeps every JSON log line a child prints, so a test can await the one it expects. */
export class LogTail {
  readonly records: LogRecord[] = [];
  readonly text: string[] = [];
  private readonly waiters = new Set<() => void>();

  constructor(stream: Readable) {
    createInterface({ input: stream }).on('line', (line) => {
      this.text.push(line);
      try {
        const record = JSON.parse(line) as LogRecord;
        if (typeof record.msg === 'string') this.records.push(record);
      } catch {
        return;
      }
      for (const wake of [...this.waiters]) wake();
    });
  }

  /** The records matching `predicate` so far. */
  filter(predicate: (record: LogRecord) => boolean): LogRecord[] {
    return this.records.filter(predicate);
  }

  /** Resolves with the first record (already printed or still to come) that matches. */
  waitFor(predicate: (record: LogRecord) => boolean, timeoutMs = 20_000, what = 'a matching log line'): Promise<LogRecord> {
    return waitForMatch(() => this.records.find(predicate), this.waiters, timeoutMs, () => `no ${what} within ${timeoutMs} ms; last lines:\n${this.text.slice(-20).join('\n')}`);
  }

}

export interface HostProcess {
  hostId: string;
  child: ChildProcess;
  /** stdout, parsed; stderr is kept in `stderr`. */
  logs: LogTail;
  stderr: string[];
  /** Resolves with the lease the host acquires next after `afterEpoch`. */
  leased(afterEpoch?: number, timeoutMs?: number): Promise<LogRecord>;
  /** SIGTERM (the host releases its lease), then waits for exit; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL: no shutdown code runs. */
  kill(): Promise<void>;
  /** SIGSTOP: the process freezes, its lease runs out. */
  pause(): void;
  /** SIGCONT. */
  resume(): void;
}

let hosts = 0;

/**
 * Starts `apps/connector` as its own process: one connector host of the account the connector
 * key belongs to. `env` adds to or overrides the host's environment (simulator settings, ...).
 */
export function startHost(options: { url: string; connectorKey: string; hostId?: string; env?: Record<string, string>; entry?: string; args?: string[] }): HostProcess {
  const hostId = options.hostId ?? `host-${process.pid}-${++hosts}`;
  const env = {
    ...process.env,
    SWITCHBOARD_URL: options.url,
    SWITCHBOARD_CONNECTOR_KEY: options.connectorKey,
    SWITCHBOARD_HOST_ID: hostId,
    SWITCHBOARD_LOG_LEVEL: 'info',
    ...options.env,
  };
  const child = spawn(process.execPath, [options.entry ?? paths.connector, ...(options.args ?? [])], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const logs = new LogTail(child.stdout!);
  const stderr: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  return {
    hostId,
    child,
    logs,
    stderr,
    leased(afterEpoch = 0, timeoutMs = 20_000) {
      return logs.waitFor((r) => r.msg === 'lease acquired' && Number(r.epoch) > afterEpoch, timeoutMs, `lease for ${hostId} after epoch ${afterEpoch}`);
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGCONT');
      child.kill('SIGTERM');
      await exited(child);
      return child.exitCode;
    },
    async kill() {
      child.kill('SIGKILL');
      await exited(child);
    },
    pause() {
      child.kill('SIGSTOP');
    },
    resume() {
      child.kill('SIGCONT');
    },
  };
}

/** User plus system CPU seconds the processes (all their threads) have used so far, from /proc. */
export function cpuSeconds(...pids: number[]): number {
  return pids.reduce((sum, pid) => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return sum + (Number(fields[11]) + Number(fields[12])) / 100;
  }, 0);
}

/** POST /v1/commands/{type} with a JSON body (or a raw string); the answer's status, JSON body and headers. */
export async function postCommand(url: string, apiKey: string, type: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(`${url}/v1/commands/${type}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

export { Proxy, type Cut } from './proxy.ts';
export { TestHost } from './host.ts';
export { waitForMatch } from './wait.ts';
export { raceTwoProcesses } from './race.ts';
export { Receiver, type ReceivedDelivery, type ReceiverAnswer } from './receiver.ts';
