import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { styleText } from 'node:util';
import autocannon from 'autocannon';
import { awaitLog, exited, paths, removeDataDir, startServer, type ServerProcess } from '@switchboard/testkit';
import { startEmbeddedPostgres, testDatabase } from '@switchboard/testkit/postgres';
import { benchRequest, cpuSeconds, median, type BenchRequest } from './setup.ts';
import { paced } from './paced.ts';

// Durable message.send intake beside two references measured in the same run: the bare
// node:http ceiling, and the durable floor (node:http plus a group-committed SQLite insert,
// nothing else). The servers take turns for ROUNDS rounds and every figure is the median over
// the rounds, because the machines are shared and a single round can land on a noisy moment.
// The same intake on PostgreSQL (one replica, embedded, fsync on) takes its turn beside them;
// bench/intake-postgres.ts measures replicas. BENCH_POSTGRES=0 leaves it out.
const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const POSTGRES = process.env.BENCH_POSTGRES !== '0';
const CONNECTIONS = 32;
/** Issue 17's targets. */
const TARGET = { ofFloor: 0.8, ofCeiling: 0.4, cpuUs: 50, halfMaxP99Ms: 10, idleRssMb: 100 };

interface Figures { rps: number; p50: number; p99: number; failures: number; cpu: number }

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))!;
  return Number(line.replace(/\D+/g, '')) / 1024;
}

/** `run`'s figures with the cores the server at `pid` used meanwhile. */
async function measured(pid: number, run: () => Promise<Omit<Figures, 'cpu'>>): Promise<Figures> {
  const cpu0 = cpuSeconds(pid);
  const started = performance.now();
  const result = await run();
  return { ...result, cpu: (cpuSeconds(pid) - cpu0) / ((performance.now() - started) / 1000) };
}

/** Loads one server at its max with the same request the whole run. */
const load = (url: string, pid: number, request: BenchRequest) => measured(pid, async () => {
  const result = await autocannon({ url: `${url}/v1/commands/message.send`, method: 'POST', ...request, connections: CONNECTIONS, duration: DURATION });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, failures: result.non2xx + result.errors };
});

/** The same at a steady `rate` (paced.ts: autocannon's rate is a burst at max each second). */
const loadAt = (url: string, pid: number, request: BenchRequest, rate: number) => measured(pid, () => paced(url, request, rate, DURATION, CONNECTIONS));

const µsPerRequest = (f: Figures) => (f.cpu / f.rps) * 1e6;

/**
 * The server's RSS as `pnpm start` runs it (tooling/src/start.ts: the built server with its Node
 * flags, a connector host, the demo account and conversations, the stream followed), once
 * start-up is over and nothing more happens.
 */
async function idleRssAsStarted(idleMs: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-start-'));
  const start = spawn(join(paths.root, 'node_modules/node/bin/node'), [join(paths.root, 'tooling/src/start.ts')], {
    cwd: paths.root,
    env: { ...process.env, SWITCHBOARD_DATA_DIR: dir, SWITCHBOARD_PORT: '0', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('pnpm start did not come up within 120 s')), 120_000);
      createInterface({ input: start.stdout! }).on('line', (line) => {
        if (line.includes('Switchboard is running')) {
          clearTimeout(timer);
          resolve();
        }
      });
      start.once('exit', (code) => reject(new Error(`pnpm start exited with ${code}`)));
    });
    const server = childrenOf(start.pid!).find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('apps/server/dist/main.js'));
    if (!server) throw new Error('no server process under pnpm start');
    await sleep(idleMs);
    return rssMb(server);
  } finally {
    await stop(start);
    rmSync(dir, { recursive: true, force: true });
  }
}

function childrenOf(pid: number): number[] {
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number).filter((child) => {
    try {
      return Number(readFileSync(`/proc/${child}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]) === pid;
    } catch {
      return false;
    }
  });
}

async function stop(child: ChildProcess): Promise<void> {
  child.kill('SIGTERM');
  await exited(child);
}

console.log(styleText('bold', `intake bench: ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION}s per server, loopback`));

// Switchboard: the production build (`pnpm bench` builds it first) with its Node flags, as
// `pnpm start` runs it. Durable intake (WAL, synchronous=FULL, group commit), rate limit lifted.
const env = { SWITCHBOARD_RATE_LIMIT: '0', SWITCHBOARD_LEASE_TTL_MS: '3600000' };
const sqlite = await startServer(env, undefined, paths.serverDist);
// PostgreSQL durable too (fsync and synchronous commit on), so the two stores compare.
const embedded = POSTGRES ? await startEmbeddedPostgres({ durable: true }) : null;
let postgres: ServerProcess | null = null;
// The ceiling (node:http reading the body and answering 202) and the durable floor.
const bare = spawn(process.execPath, [join(import.meta.dirname, 'bare-server.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
const floor = spawn(process.execPath, [join(import.meta.dirname, 'floor-server.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
try {
  if (embedded) {
    process.env.SWITCHBOARD_TEST_DATABASE_URL = embedded.url;
    postgres = await startServer({ ...env, SWITCHBOARD_DATABASE_URL: await testDatabase(`bench-${Date.now()}`) }, undefined, paths.serverDist);
  }
  const bareUrl = (await awaitLog(bare, 'switchboard listening')).url as string;
  const floorUrl = (await awaitLog(floor, 'switchboard listening')).url as string;
  // Every server gets this very request: same headers, same body (the references ignore the key).
  const request = await benchRequest(sqlite);
  const pgRequest = postgres ? await benchRequest(postgres) : null;

  const targets = [
    { name: 'ceiling', url: bareUrl, pid: bare.pid!, request },
    { name: 'floor', url: floorUrl, pid: floor.pid!, request },
    { name: 'sqlite', url: sqlite.url, pid: sqlite.child.pid!, request },
    ...(postgres && pgRequest ? [{ name: 'postgres', url: postgres.url, pid: postgres.child.pid!, request: pgRequest }] : []),
  ];
  const runs = new Map<string, Figures[]>(targets.map((t) => [t.name, []]));
  for (let round = 1; round <= ROUNDS; round++) {
    // A different server starts each round, so none always runs right after another's load.
    for (let k = 0; k < targets.length; k++) {
      const target = targets[(k + round - 1) % targets.length]!;
      runs.get(target.name)!.push(await load(target.url, target.pid, target.request));
    }
    const last = (name: string) => runs.get(name)!.at(-1)!;
    const pct = (a: string, b: string) => `${((last(a).rps / last(b).rps) * 100).toFixed(0)}%`;
    console.log(styleText('dim', `round ${round}: ceiling ${last('ceiling').rps.toFixed(0)} req/s, floor ${last('floor').rps.toFixed(0)} (${pct('floor', 'ceiling')} of ceiling), ` +
      `sqlite ${last('sqlite').rps.toFixed(0)} (${pct('sqlite', 'floor')} of floor)${postgres ? `, postgres ${last('postgres').rps.toFixed(0)} (${pct('postgres', 'floor')} of floor)` : ''}`));
  }
  /** The median over the rounds of a's throughput over b's in the same round. */
  const ratio = (a: string, b: string) => median(runs.get(a)!.map((f, i) => f.rps / runs.get(b)![i]!.rps));
  /** The round with the median throughput, whose figures the table shows. */
  const typical = (name: string) => {
    const list = runs.get(name)!;
    return list[list.map((f) => f.rps).indexOf(median(list.map((f) => f.rps)))]!;
  };
  const cpuUs = (name: string) => median(runs.get(name)!.map(µsPerRequest));

  const halfRate = (name: string) => Math.floor(median(runs.get(name)!.map((f) => f.rps)) / 2);
  // The p99 at half max is mostly the disk's fsync time, which moves between runs: the floor,
  // loaded at the same steady rate in turns with the intake, is its baseline.
  // PostgreSQL takes its turns in the same rounds, at its own half max.
  const sqliteHalf = { rate: halfRate('sqlite'), rounds: [] as Figures[], floor: [] as Figures[] };
  const postgresHalf = postgres && pgRequest ? { rate: halfRate('postgres'), rounds: [] as Figures[] } : null;
  for (let round = 0; round < ROUNDS; round++) {
    sqliteHalf.rounds.push(await loadAt(sqlite.url, sqlite.child.pid!, request, sqliteHalf.rate));
    sqliteHalf.floor.push(await loadAt(floorUrl, floor.pid!, request, sqliteHalf.rate));
    if (postgres && pgRequest && postgresHalf) postgresHalf.rounds.push(await loadAt(postgres.url, postgres.child.pid!, pgRequest, postgresHalf.rate));
    console.log(styleText('dim', `half max round ${round + 1} (${sqliteHalf.rate}/s, steady): sqlite p99 ${sqliteHalf.rounds.at(-1)!.p99.toFixed(1)} ms, floor ${sqliteHalf.floor.at(-1)!.p99.toFixed(1)} ms` +
      (postgresHalf ? `; postgres at ${postgresHalf.rate}/s p99 ${postgresHalf.rounds.at(-1)!.p99.toFixed(1)} ms` : '')));
  }
  /** The round with the median p99. */
  const middle = (list: Figures[]) => list.find((f) => f.p99 === median(list.map((g) => g.p99)))!;
  const halfP99 = middle(sqliteHalf.rounds).p99;
  const floorHalfP99 = middle(sqliteHalf.floor).p99;
  const afterLoadRss = rssMb(sqlite.child.pid!);
  const idleRss = await idleRssAsStarted(5_000);

  const row = (name: string, f: Figures, us = µsPerRequest(f)) =>
    `${name.padEnd(44)} ${f.rps.toFixed(0).padStart(8)} req/s   p50 ${f.p50.toFixed(1).padStart(5)} ms   p99 ${f.p99.toFixed(1).padStart(6)} ms   ` +
    `server ${f.cpu.toFixed(2)} cores, ${us.toFixed(0).padStart(3)} µs/req   failures ${f.failures}`;
  console.log(row('bare node:http 202 (ceiling)', typical('ceiling'), cpuUs('ceiling')));
  console.log(row('node:http + SQLite group commit (floor)', typical('floor'), cpuUs('floor')));
  console.log(row('switchboard, SQLite (max)', typical('sqlite'), cpuUs('sqlite')));
  console.log(row(`switchboard, SQLite at half max (${sqliteHalf.rate}/s)`, middle(sqliteHalf.rounds)));
  console.log(row('floor at the same rate', middle(sqliteHalf.floor)));
  if (postgres && postgresHalf) {
    console.log(row('switchboard, PostgreSQL (max)', typical('postgres'), cpuUs('postgres')));
    console.log(row(`switchboard, PostgreSQL at half max (${postgresHalf.rate}/s)`, middle(postgresHalf.rounds)));
  }
  const verdict = (ok: boolean) => (ok ? styleText('green', 'meets target') : styleText('red', 'misses target'));
  const percent = (value: number) => `${(value * 100).toFixed(0)}%`;
  console.log(`medians of ${ROUNDS} rounds; µs/req is the server process's CPU (user + system, all threads) per answered request`);
  console.log(`floor / ceiling: ${percent(ratio('floor', 'ceiling'))}`);
  console.log(`SQLite intake / floor: ${percent(ratio('sqlite', 'floor'))} (target >= ${percent(TARGET.ofFloor)}): ${verdict(ratio('sqlite', 'floor') >= TARGET.ofFloor)}`);
  console.log(`SQLite intake / ceiling: ${percent(ratio('sqlite', 'ceiling'))} (target >= ${percent(TARGET.ofCeiling)}): ${verdict(ratio('sqlite', 'ceiling') >= TARGET.ofCeiling)}`);
  console.log(`SQLite intake CPU: ${cpuUs('sqlite').toFixed(0)} µs per command (target <= ${TARGET.cpuUs}; the floor ${cpuUs('floor').toFixed(0)}, the ceiling ${cpuUs('ceiling').toFixed(0)}): ${verdict(cpuUs('sqlite') <= TARGET.cpuUs)}`);
  console.log(`SQLite p99 at half max: ${halfP99.toFixed(1)} ms, median of ${ROUNDS} (target < ${TARGET.halfMaxP99Ms} ms; the floor at the same rate ${floorHalfP99.toFixed(1)} ms): ${verdict(halfP99 < TARGET.halfMaxP99Ms)}`);
  if (postgres && postgresHalf) {
    console.log(`PostgreSQL intake / floor: ${percent(ratio('postgres', 'floor'))}, / ceiling: ${percent(ratio('postgres', 'ceiling'))}, ` +
      `${cpuUs('postgres').toFixed(0)} µs of server CPU per command (the database's own CPU not counted), p99 at half max ${middle(postgresHalf.rounds).p99.toFixed(1)} ms (median of ${ROUNDS}) ` +
      '(its targets: bench/intake-postgres.ts)');
  }
  console.log(`server idle RSS as \`pnpm start\` runs it: ${idleRss.toFixed(1)} MB (target < ${TARGET.idleRssMb} MB): ${verdict(idleRss < TARGET.idleRssMb)}`);
  console.log(styleText('dim', `(the bench's SQLite server after its load, idle: ${afterLoadRss.toFixed(1)} MB)`));
  const failures = [...runs.values()].flat().reduce((n, f) => n + f.failures, 0);
  if (failures > 0) console.log(styleText('yellow', `note: ${failures} non-2xx answers or errors during the max runs`));
} finally {
  await stop(bare);
  await stop(floor);
  await sqlite.stop();
  removeDataDir(sqlite.dataDir);
  if (postgres) {
    await postgres.stop();
    removeDataDir(postgres.dataDir);
  }
  await embedded?.stop();
}
