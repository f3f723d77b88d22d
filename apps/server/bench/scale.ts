/**
 * What accounts cost a server: N accounts, each with a connector host holding its lease and a
 * client holding its SSE stream open, first idle, then under a steady load of message.send.
 * The hosts and streams are faked in worker processes through the connector protocol client and
 * plain HTTP (a few thousand accounts a worker, so no process runs out of file descriptors); the
 * accounts are created in bulk through the store before the server starts.
 *
 * Per size it prints: idle server CPU and RSS, RSS under load, POST→202 p99, POST→command.settled
 * on the SSE stream p50/p99/max, and the hosts' lease upkeep (how late each renewal came back:
 * a poll's answer past its wait, or a renewal's round trip; the least time a lease had left when
 * one did; the renewals hosts had to send beside their polls), with the targets.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs, styleText } from 'node:util';
import { cpuSeconds, paths, removeDataDir, startServer, type ServerProcess } from '@switchboard/testkit';
import { dropTestDatabase, startEmbeddedPostgres, testDatabase, TEST_DATABASE_URL } from '@switchboard/testkit/postgres';
import { printProfile, profileOf } from './cpu-profile.ts';
import { freePort, inspectOn, inspectorUrl, liveHeap, type LiveHeap } from './live-heap.ts';
import { runWorker, type WorkerReport, type WorkerTask } from './scale-worker.ts';
import { openSqliteStore } from '../src/store/sqlite/store.ts';
import { openPostgresStore } from '../src/store/postgres/store.ts';
import { issueCredential } from '../src/auth/issue.ts';
import { createIdSource } from '../src/ids.ts';
import type { Store } from '../src/store/types.ts';

const HELP = `Usage: node apps/server/bench/scale.ts [options]

Measures what accounts cost one server: each account has a connector host holding its lease and
an open SSE stream; the server idles, then takes a steady load of message.send.

Options:
  --accounts <list>   account counts to measure, comma-separated        (default 10,1000)
  --store <name>      sqlite or postgres                                 (default sqlite)
  --replicas <n>      servers sharing the PostgreSQL database            (default 1; 2 with postgres
                      serves each account's host and stream from one of them, spread evenly)
  --idle <s>          seconds of idle measured                            (default 30)
  --load <s>          seconds of load measured                            (default 30)
  --rate <n>          commands a second during the load                   (default 200)
  --probe <kind>      spread (round-robin over every account), hot (one
                      account takes every command) or both                (default both)
  --lease-ttl <ms>    the servers' SWITCHBOARD_LEASE_TTL_MS; the server keeps a waiting poll's
                      lease live, so hosts poll every 20 s whatever it is
                                                                          (default the server's, 15000)
  --add-replica       with postgres: once measured, start one more replica, move every third
                      host and stream to it (as a load balancer would send them), and measure
                      again, the others running on
  --profile           profile the server (--cpu-prof) and print where its idle time goes
  --heap              after the idle, collect garbage in the servers and the floor (through
                      --inspect) and print what they hold: live JS heap, array buffers and RSS,
                      the same whenever the collector last ran, so two builds compare in one run
                      each; the load then starts on a collected heap, so compare its figures only
                      with other --heap runs
  --without <part>    hosts or streams: each account keeps only the other, to tell with --heap
                      what each costs (the load's settle figures are then empty)
  --help              this text

Ten thousand accounts, as the targets are set (about 10 minutes; a server then holds 20,000
connections, so its open-file limit, \`ulimit -n\`, must be above 20,100: the bench says so first):
  node_modules/node/bin/node apps/server/bench/scale.ts --accounts 10,1000,10000

Twenty thousand on two PostgreSQL replicas, then a third joining:
  node_modules/node/bin/node apps/server/bench/scale.ts --store postgres --replicas 2 --accounts 20000 --add-replica

PostgreSQL is embedded from npm (fsync on) unless SWITCHBOARD_TEST_DATABASE_URL names a server.
Build first (npx -y pnpm@10.34.9 build): the bench runs the bundled server.`;

/** The targets (docs/benchmarks.md, "Ten thousand accounts"). */
const TARGET = { idleCpu: 10, idleRssMb: 500, postP99Ms: 10, settleP99Ms: 25 };
const PER_WORKER = 2_500;

interface Options { addReplica: boolean; leaseTtlMs: string | undefined; profile: boolean; heap: boolean; without: 'hosts' | 'streams' | undefined; accounts: number[]; store: 'sqlite' | 'postgres'; replicas: number; idle: number; load: number; rate: number; probes: Array<'spread' | 'hot'> }

function options(): Options {
  const { values } = parseArgs({
    options: {
      accounts: { type: 'string', default: '10,1000' }, store: { type: 'string', default: 'sqlite' }, replicas: { type: 'string', default: '1' },
      idle: { type: 'string', default: '30' }, load: { type: 'string', default: '30' }, rate: { type: 'string', default: '200' },
      probe: { type: 'string', default: 'both' }, profile: { type: 'boolean', default: false }, heap: { type: 'boolean', default: false }, without: { type: 'string' }, 'add-replica': { type: 'boolean', default: false }, 'lease-ttl': { type: 'string' }, help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(HELP);
    process.exit(0);
  }
  if (values.without !== undefined && values.without !== 'hosts' && values.without !== 'streams') {
    console.error(`--without takes hosts or streams, not ${values.without}`);
    process.exit(2);
  }
  const store = values.store === 'postgres' ? 'postgres' : 'sqlite';
  return {
    accounts: values.accounts.split(',').map(Number),
    store,
    replicas: store === 'postgres' ? Number(values.replicas) : 1,
    idle: Number(values.idle),
    load: Number(values.load),
    rate: Number(values.rate),
    profile: values.profile,
    heap: values.heap,
    without: values.without,
    addReplica: values['add-replica'] && store === 'postgres',
    leaseTtlMs: values['lease-ttl'],
    probes: values.probe === 'both' ? ['spread', 'hot'] : [values.probe as 'spread' | 'hot'],
  };
}

export interface Account { accountId: string; apiKey: string; connectorKey: string }

/** N accounts with an API key and a connector key each, written through the store in batches. */
async function createAccounts(store: Store, count: number): Promise<Account[]> {
  const ids = createIdSource();
  const accounts: Account[] = [];
  for (let start = 0; start < count; start += 500) {
    const batch = Array.from({ length: Math.min(500, count - start) }, async (_, i) => {
      const account = await store.createAccount({ id: ids.next(), name: `scale-${start + i}`, createdAt: Date.now() });
      const [api, connector] = await Promise.all([
        issueCredential(store, account.id, 'account', 'scale', Date.now(), ids),
        issueCredential(store, account.id, 'connector', 'scale', Date.now(), ids),
      ]);
      return { accountId: account.id, apiKey: api.secret, connectorKey: connector.secret };
    });
    accounts.push(...(await Promise.all(batch)));
  }
  return accounts;
}

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))!;
  return Number(line.replace(/\D+/g, '')) / 1024;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** A worker process running a slice of the hosts and streams; answers each message with a report. */
class Worker {
  readonly child: ChildProcess;
  private readonly pending: Array<(report: WorkerReport) => void> = [];

  constructor(task: WorkerTask) {
    this.child = fork(import.meta.filename, ['--worker'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [] });
    this.child.on('message', (report: WorkerReport) => this.pending.shift()?.(report));
    this.child.send(task);
  }

  ask(what: 'ready' | 'measure' | 'report'): Promise<WorkerReport> {
    return this.send({ ask: what });
  }

  /** Moves every `every`th host and stream to the server at `url`; resolves once they are there. */
  move(url: string, every: number): Promise<WorkerReport> {
    return this.send({ move: url, every });
  }

  private send(message: object): Promise<WorkerReport> {
    return new Promise((resolve) => {
      this.pending.push(resolve);
      this.child.send(message);
    });
  }
}

/** Posts `rate` commands a second, open loop, to the accounts `pick` names; times each 202. */
async function offerLoad(servers: ServerProcess[], accounts: Account[], seconds: number, rate: number, pick: (n: number) => number) {
  const agents = servers.map(() => new Agent({ keepAlive: true, maxSockets: 64 }));
  const posted = new Map<string, number>();
  const latencies: number[] = [];
  let failures = 0;
  const total = seconds * rate;
  const started = performance.now();
  const sends: Promise<void>[] = [];
  for (let n = 0; n < total; n++) {
    const due = started + (n * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    const index = pick(n);
    const account = accounts[index]!;
    const server = servers[index % servers.length]!;
    const body = JSON.stringify({ target: { kind: 'recipient', recipientExternalId: `+1415555${String(n % 10_000).padStart(4, '0')}` }, payload: { text: `scale ${n}` } });
    const sentAt = performance.timeOrigin + performance.now();
    sends.push(new Promise<void>((resolve) => {
      const req = request(`${server.url}/v1/commands/message.send`, {
        method: 'POST', agent: agents[index % servers.length],
        headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const at = performance.timeOrigin + performance.now();
          if (res.statusCode === 202) {
            latencies.push(at - sentAt);
            posted.set((JSON.parse(Buffer.concat(chunks).toString()) as { commandId: string }).commandId, sentAt);
          } else failures++;
          resolve();
        });
      });
      req.on('error', () => { failures++; resolve(); });
      req.end(body);
    }));
  }
  await Promise.all(sends);
  for (const agent of agents) agent.destroy();
  return { posted, latencies: latencies.sort((a, b) => a - b), failures };
}

interface Row {
  accounts: number;
  /** The servers that served them. */
  replicas: number;
  probe: string;
  idleCpu: number;
  idleRss: number;
  /** The same idle traffic answered by bare node:http (idle-floor-server.ts), in the same run. */
  floorCpu: number;
  floorRss: number;
  loadRss: number;
  postP99: number;
  settle: { p50: number; p99: number; max: number; missing: number };
  upkeepP99: number;
  upkeepMax: number;
  /** The least time a lease had left, by its host's count, when a renewal came back. */
  leastLeft: number;
  /** Renewals hosts sent of their own, beside their polls. */
  renewals: number;
  leaseLosses: number;
  failures: number;
}

const ttlEnv = (opts: Options): Record<string, string> => (opts.leaseTtlMs ? { SWITCHBOARD_LEASE_TTL_MS: opts.leaseTtlMs } : {});

/** This machine's limit on a process's open files: each account holds two connections open on its server. */
function openFileLimit(): number {
  const line = readFileSync('/proc/self/limits', 'utf8').split('\n').find((l) => l.startsWith('Max open files'))!;
  return Number(line.split(/\s{2,}/)[1]);
}

/** Hosts and streams for `accounts` against `urls`, in worker processes; resolves once every lease is held and every stream open. */
async function startWorkers(urls: string[], accounts: Account[], without: Options['without']): Promise<Worker[]> {
  const workers: Worker[] = [];
  for (let start = 0; start < accounts.length; start += PER_WORKER) {
    workers.push(new Worker({ urls, accounts: accounts.slice(start, start + PER_WORKER), offset: start, without }));
  }
  await Promise.all(workers.map((w) => w.ask('ready')));
  return workers;
}

/** The server CPU (% of a core) and RSS (MB) of `pids` over `seconds` of idle. */
async function idleCost(pids: number[], seconds: number): Promise<{ cpu: number; rss: number; window: { start: number; end: number } }> {
  const cpu0 = cpuSeconds(...pids);
  const start = performance.now();
  await sleep(seconds * 1000);
  const end = performance.now();
  const cpu = ((cpuSeconds(...pids) - cpu0) / ((end - start) / 1000)) * 100;
  return { cpu, rss: pids.reduce((sum, pid) => sum + rssMb(pid), 0), window: { start, end } };
}

/** What several processes hold together. */
function sumHeaps(heaps: LiveHeap[]): LiveHeap {
  const sum = (key: keyof LiveHeap) => heaps.reduce((total, h) => total + h[key], 0);
  return { heapMb: sum('heapMb'), arrayBuffersMb: sum('arrayBuffersMb'), rssMb: sum('rssMb') };
}

/** The floor's idle cost for as many hosts and streams, on as many processes as there are replicas: the same traffic on bare node:http. */
async function floorIdle(opts: Options, accounts: Account[]): Promise<{ cpu: number; rss: number; heap: LiveHeap | null }> {
  const floors: ServerProcess[] = [];
  const ports: number[] = [];
  let workers: Worker[] = [];
  try {
    for (let r = 0; r < opts.replicas; r++) {
      if (opts.heap) ports.push(await freePort());
      floors.push(await startServer({ ...ttlEnv(opts), ...(opts.heap ? inspectOn(ports[r]!) : {}) }, undefined, join(import.meta.dirname, 'idle-floor-server.ts')));
      if (opts.heap) await inspectorUrl(ports[r]!);
    }
    workers = await startWorkers(floors.map((f) => f.url), accounts, opts.without);
    await sleep(5_000);
    const idle = await idleCost(floors.map((f) => f.child.pid!), opts.idle);
    return { ...idle, heap: opts.heap ? sumHeaps(await Promise.all(ports.map(liveHeap))) : null };
  } finally {
    for (const worker of workers) worker.child.kill('SIGKILL');
    for (const floor of floors) {
      await floor.stop();
      removeDataDir(floor.dataDir);
    }
  }
}

async function measureSize(opts: Options, count: number, storeEnv: () => Promise<Record<string, string>>): Promise<Row[]> {
  const env = await storeEnv();
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-scale-'));
  const store = env.SWITCHBOARD_DATABASE_URL
    ? await openPostgresStore({ url: env.SWITCHBOARD_DATABASE_URL, migrate: true })
    : openSqliteStore({ dataDir });
  const creating = performance.now();
  const accounts = await createAccounts(store, count);
  await store.close();
  console.log(styleText('dim', `  ${count} accounts created in ${((performance.now() - creating) / 1000).toFixed(1)} s`));
  const floor = await floorIdle(opts, accounts);
  console.log(styleText('dim', `  the floor idles at ${floor.cpu.toFixed(1)} % of a core and ${floor.rss.toFixed(0)} MB`));
  const servers: ServerProcess[] = [];
  const workers: Worker[] = [];
  const profileDir = opts.profile ? mkdtempSync(join(tmpdir(), 'switchboard-scale-profile-')) : null;
  const profiling = profileDir ? `--cpu-prof --cpu-prof-dir=${profileDir}` : '';
  const ports: number[] = [];
  let idleWindow = { start: 0, end: 0 };
  try {
    for (let r = 0; r < opts.replicas; r++) {
      if (opts.heap) ports.push(await freePort());
      const nodeOptions = opts.heap ? inspectOn(ports[r]!, profiling) : profiling ? { NODE_OPTIONS: profiling } : {};
      servers.push(await startServer({ SWITCHBOARD_RATE_LIMIT: '0', ...ttlEnv(opts), ...env, ...nodeOptions }, dataDir, paths.serverDist, paths.cliDist));
      if (opts.heap) await inspectorUrl(ports[r]!);
    }
    const readying = performance.now();
    workers.push(...(await startWorkers(servers.map((s) => s.url), accounts, opts.without)));
    const running = [opts.without === 'hosts' ? '' : `${count} hosts hold their leases`, opts.without === 'streams' ? '' : `${count} streams are open`].filter(Boolean).join(' and ');
    console.log(styleText('dim', `  ${running} (${((performance.now() - readying) / 1000).toFixed(1)} s)`));
    const pids = servers.map((s) => s.child.pid!);
    // Warm up (the server's code is compiled as it runs), then settle in: neither is idle cost.
    await offerLoad(servers, accounts, 5, opts.rate, (n) => n % count);
    await sleep(5_000);
    const idle = await idleCost(pids, opts.idle);
    idleWindow = idle.window;
    if (opts.heap) {
      const heap = sumHeaps(await Promise.all(ports.map(liveHeap)));
      const mb = (h: LiveHeap) => `${h.heapMb.toFixed(1)} MB of JS heap, ${h.arrayBuffersMb.toFixed(1)} MB of array buffers, RSS ${h.rssMb.toFixed(0)} MB`;
      console.log(styleText('dim', `  live after a full GC: ${mb(heap)} (the floor: ${mb(floor.heap!)})`));
    }
    const rows: Row[] = [];
    const measure = async (probe: string, pick: (n: number) => number, idle: { cpu: number; rss: number }) => {
      await Promise.all(workers.map((w) => w.ask('measure')));
      const load = await offerLoad(servers, accounts, opts.load, opts.rate, pick);
      const loadRss = servers.reduce((sum, s) => sum + rssMb(s.child.pid!), 0);
      await sleep(2_000);
      const reports = await Promise.all(workers.map((w) => w.ask('report')));
      const settled = new Map<string, number>();
      for (const report of reports) for (const [id, at] of report.settled) settled.set(id, at);
      const latencies: number[] = [];
      let missing = 0;
      for (const [id, sentAt] of load.posted) {
        const at = settled.get(id);
        if (at === undefined) missing++;
        else latencies.push(at - sentAt);
      }
      latencies.sort((a, b) => a - b);
      const upkeep = reports.flatMap((r) => r.upkeep).sort((a, b) => a - b);
      rows.push({
        accounts: count, replicas: servers.length, probe, idleCpu: idle.cpu, idleRss: idle.rss, floorCpu: floor.cpu, floorRss: floor.rss, loadRss,
        postP99: percentile(load.latencies, 99),
        settle: { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies.at(-1) ?? Number.NaN, missing },
        upkeepP99: percentile(upkeep, 99), upkeepMax: upkeep.at(-1) ?? Number.NaN,
        leastLeft: Math.min(...reports.map((r) => r.leastLeft ?? Infinity)),
        renewals: reports.reduce((sum, r) => sum + r.renewals, 0),
        leaseLosses: reports.reduce((sum, r) => sum + r.leaseLosses, 0),
        failures: load.failures + reports.reduce((sum, r) => sum + r.failures, 0),
      });
    };
    const hot = Math.floor(count / 2);
    for (const probe of opts.probes) await measure(probe, probe === 'hot' ? () => hot : (n) => n % count, idle);
    if (opts.addReplica) {
      // A replica joins while the others run: every third host and stream goes to it.
      await Promise.all(workers.map((w) => w.ask('measure')));
      servers.push(await startServer({ SWITCHBOARD_RATE_LIMIT: '0', ...ttlEnv(opts), ...env }, dataDir, paths.serverDist, paths.cliDist));
      await Promise.all(workers.map((w) => w.move(servers.at(-1)!.url, servers.length)));
      await sleep(5_000);
      const each = await Promise.all(servers.map((s) => idleCost([s.child.pid!], opts.idle)));
      const moved = await Promise.all(workers.map((w) => w.ask('report')));
      console.log(styleText('dim', `  a replica joined: idle CPU per replica ${each.map((e) => e.cpu.toFixed(1)).join(' / ')} %, RSS ${each.map((e) => e.rss.toFixed(0)).join(' / ')} MB; `
        + `leases lost meanwhile ${moved.reduce((sum, r) => sum + r.leaseLosses, 0)}, requests failed ${moved.reduce((sum, r) => sum + r.failures, 0)}`));
      await measure(`spread, ${servers.length} replicas`, (n) => n % count, { cpu: each.reduce((sum, e) => sum + e.cpu, 0), rss: each.reduce((sum, e) => sum + e.rss, 0) });
    }
    return rows;
  } finally {
    for (const worker of workers) worker.child.kill('SIGKILL');
    await Promise.all(servers.map((s) => s.stop()));
    if (profileDir && servers[0]) {
      console.log(styleText('bold', `\nWhere the first server's idle time went, ${count} accounts`));
      printProfile(profileOf(profileDir, servers[0].child.pid!), paths.serverDist, { ...idleWindow, exitedAt: performance.now() }, 25);
    }
    removeDataDir(dataDir);
    if (env.SWITCHBOARD_DATABASE_URL) await dropTestDatabase(env.SWITCHBOARD_DATABASE_URL);
  }
}

const verdict = (met: boolean) => (met ? styleText('green', 'met') : styleText('red', 'missed'));
const f = (n: number, digits = 1) => (Number.isNaN(n) ? '-' : n.toFixed(digits));

function print(opts: Options, rows: Row[]): void {
  const header = ['accounts', 'probe', 'idle CPU % (floor)', 'idle RSS MB (floor)', 'load RSS MB', 'POST→202 p99 ms', 'settle p50/p99/max ms', 'lease upkeep p99/max ms', 'least lease left s', 'own renewals', 'lease losses', 'failures'];
  const lines = rows.map((r) => [String(r.accounts), r.probe, `${f(r.idleCpu)} (${f(r.floorCpu)})`, `${f(r.idleRss, 0)} (${f(r.floorRss, 0)})`, f(r.loadRss, 0), f(r.postP99), `${f(r.settle.p50)} / ${f(r.settle.p99)} / ${f(r.settle.max, 0)}${r.settle.missing ? ` (${r.settle.missing} missing)` : ''}`, `${f(r.upkeepP99)} / ${f(r.upkeepMax, 0)}`, Number.isFinite(r.leastLeft) ? f(r.leastLeft / 1000) : 'kept', String(r.renewals), String(r.leaseLosses), String(r.failures)]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  console.log();
  console.log(`${opts.store}${opts.store === 'postgres' ? `, ${opts.replicas} replica(s)` : ''}, ${opts.rate} message.send/s, ${opts.idle} s idle, ${opts.load} s load`);
  for (const line of [header, ...lines]) console.log(line.map((cell, i) => cell.padEnd(widths[i]!)).join('  '));
  console.log();
  const largest = Math.max(...rows.map((r) => r.accounts));
  const big = rows.filter((r) => r.accounts === largest);
  console.log(`idle CPU at ${largest} accounts < ${TARGET.idleCpu} % of a core (per replica): ${verdict(big.every((r) => r.idleCpu / r.replicas < TARGET.idleCpu))}`);
  console.log(`idle RSS at ${largest} accounts < ${TARGET.idleRssMb} MB (per replica): ${verdict(big.every((r) => r.idleRss / r.replicas < TARGET.idleRssMb))}`);
  console.log(`POST→202 p99 < ${TARGET.postP99Ms} ms at every size and probe: ${verdict(rows.every((r) => r.postP99 < TARGET.postP99Ms))}`);
  console.log(`settle p99 < ${TARGET.settleP99Ms} ms at every size and probe: ${verdict(rows.every((r) => r.settle.p99 < TARGET.settleP99Ms && r.settle.missing === 0))}`);
  console.log(`no lease lost, no request failed: ${verdict(rows.every((r) => r.leaseLosses === 0 && r.failures === 0))}`);
}

async function main(): Promise<void> {
  const opts = options();
  let embedded = null as { url: string; stop(): Promise<void> } | null;
  const storeEnv = async (): Promise<Record<string, string>> => {
    if (opts.store === 'sqlite') return {};
    if (!process.env[TEST_DATABASE_URL]) {
      embedded ??= await startEmbeddedPostgres({ durable: true });
      process.env[TEST_DATABASE_URL] = embedded.url;
    }
    return { SWITCHBOARD_DATABASE_URL: await testDatabase(`scale-${Date.now()}`) };
  };
  const rows: Row[] = [];
  const limit = openFileLimit();
  const most = opts.replicas * Math.floor((limit - 100) / 2);
  const over = opts.accounts.filter((count) => count > most);
  if (over.length > 0) {
    console.error(`${over.join(', ')} accounts need more open files than this machine allows a process (${limit}, \`ulimit -n\`): at most ${most} on ${opts.replicas} server(s).`);
    process.exit(2);
  }
  try {
    for (const count of opts.accounts) {
      console.log(styleText('bold', `${count} accounts`));
      rows.push(...(await measureSize(opts, count, storeEnv)));
    }
  } finally {
    await embedded?.stop();
  }
  print(opts, rows);
}

if (process.argv.includes('--worker')) runWorker();
else await main();
