/**
 * Where PostgreSQL intake's time goes, per accepted command, under the intake bench's load: the
 * servers' CPU (user and system), PostgreSQL's CPU (every process of the embedded server), the
 * context switches of both, transactions, and the statements PostgreSQL ran (pg_stat_statements:
 * calls per command, execution time, rows per call). Each run is one build; run two builds in
 * turn to compare them.
 *
 *   node bench/postgres-stats.ts [replicas] [main.js]      BENCH_DURATION (5 s), BENCH_CONNECTIONS (32)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { paths, removeDataDir, startServer, type ServerProcess } from '@switchboard/testkit';
import { dropTestDatabase, startEmbeddedPostgres, testDatabase, TEST_DATABASE_URL } from '@switchboard/testkit/postgres';
import { benchRequest, cpuSeconds } from './setup.ts';

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const REPLICAS = Number(process.argv[2] ?? 1);
const ENTRY = process.argv[3] ?? paths.serverDist;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);

const embedded = await startEmbeddedPostgres({ flags: ['-c', 'shared_preload_libraries=pg_stat_statements', '-c', 'pg_stat_statements.track=all'] });
process.env[TEST_DATABASE_URL] = embedded.url;
const url = await testDatabase(`stats-${Date.now()}`);
const admin = postgres(url, { max: 1, onnotice: () => undefined });
await admin`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`;
const dataDir = (await admin<{ data_directory: string }[]>`SHOW data_directory`)[0]!.data_directory;
const postmaster = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);

function postgresPids(): number[] {
  const pids = [postmaster];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
      if (ppid === postmaster) pids.push(Number(name));
    } catch { /* gone */ }
  }
  return pids;
}
function split(pids: number[]): [number, number] {
  let user = 0;
  let sys = 0;
  for (const pid of pids) {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      user += Number(f[11]) / 100;
      sys += Number(f[12]) / 100;
    } catch { /* gone */ }
  }
  return [user, sys];
}
/** Context switches (voluntary + involuntary) of the processes, all threads. */
function switches(pids: number[]): number {
  let sum = 0;
  for (const pid of pids) {
    try {
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const status = readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8');
        sum += Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(status)![1]) + Number(/nonvoluntary_ctxt_switches:\s+(\d+)/.exec(status)![1]);
      }
    } catch { /* gone */ }
  }
  return sum;
}
function pgCpu(): number {
  let sum = 0;
  for (const pid of postgresPids()) try { sum += cpuSeconds(pid); } catch { /* gone */ }
  return sum;
}

const env = { SWITCHBOARD_DATABASE_URL: url, SWITCHBOARD_RATE_LIMIT: '0', SWITCHBOARD_LEASE_TTL_MS: '3600000', ...(process.env.SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.SERVER_NODE_OPTIONS } : {}) };
const replicas: ServerProcess[] = [];
try {
  for (let i = 0; i < REPLICAS; i++) replicas.push(await startServer(env, undefined, ENTRY));
  const { headers, body } = await benchRequest(replicas[0]!);
  const fire = (duration: number) => Promise.all(replicas.map((r) => autocannon({ url: `${r.url}/v1/commands/message.send`, method: 'POST', headers, body, connections: CONNECTIONS / REPLICAS, duration })));
  await fire(1);
  await admin`SELECT pg_stat_statements_reset()`;
  const x0 = (await admin<{ xact_commit: string; xact_rollback: string }[]>`SELECT xact_commit, xact_rollback FROM pg_stat_database WHERE datname = current_database()`)[0]!;
  const s0 = cpuSeconds(...replicas.map((r) => r.child.pid!));
  const u0 = split(replicas.map((r) => r.child.pid!));
  const g0 = split(postgresPids());
  const w0 = [switches(replicas.map((r) => r.child.pid!)), switches(postgresPids())];
  const p0 = pgCpu();
  const t0 = performance.now();
  const results = await fire(DURATION);
  const seconds = (performance.now() - t0) / 1000;
  const s1 = cpuSeconds(...replicas.map((r) => r.child.pid!));
  const u1 = split(replicas.map((r) => r.child.pid!));
  const g1 = split(postgresPids());
  const w1 = [switches(replicas.map((r) => r.child.pid!)), switches(postgresPids())];
  const p1 = pgCpu();
  const x1 = (await admin<{ xact_commit: string; xact_rollback: string }[]>`SELECT xact_commit, xact_rollback FROM pg_stat_database WHERE datname = current_database()`)[0]!;
  const total = results.reduce((n, r) => n + r.requests.total, 0);
  const failures = results.reduce((n, r) => n + r.non2xx + r.errors, 0);
  console.log(`${REPLICAS} replica(s), ${ENTRY}: ${(total / seconds).toFixed(0)} req/s, p99 ${Math.max(...results.map((r) => r.latency.p99))} ms, failures ${failures}`);
  console.log(`servers ${((s1 - s0) / seconds).toFixed(2)} cores, ${(((s1 - s0) / total) * 1e6).toFixed(0)} µs/cmd; postgres ${((p1 - p0) / seconds).toFixed(2)} cores, ${(((p1 - p0) / total) * 1e6).toFixed(0)} µs/cmd`);
  console.log(`servers user ${(((u1[0] - u0[0]) / total) * 1e6).toFixed(0)} sys ${(((u1[1] - u0[1]) / total) * 1e6).toFixed(0)} µs/cmd; postgres user ${(((g1[0] - g0[0]) / total) * 1e6).toFixed(0)} sys ${(((g1[1] - g0[1]) / total) * 1e6).toFixed(0)} µs/cmd (live backends)`);
  console.log(`context switches/cmd: servers ${((w1[0]! - w0[0]!) / total).toFixed(2)}, postgres ${((w1[1]! - w0[1]!) / total).toFixed(2)}`);
  console.log(`transactions/cmd ${((Number(x1.xact_commit) - Number(x0.xact_commit)) / total).toFixed(3)}, rollbacks ${Number(x1.xact_rollback) - Number(x0.xact_rollback)}`);
  const rows = await admin`SELECT calls, total_exec_time, total_plan_time, rows, left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 110) AS q FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 14`;
  for (const r of rows) {
    console.log(`${(Number(r.calls) / total).toFixed(3).padStart(7)}/cmd ${(Number(r.calls)).toString().padStart(7)} calls ${((Number(r.total_exec_time) * 1000) / Number(r.calls)).toFixed(0).padStart(6)} µs/call ${((Number(r.total_exec_time) * 1000) / total).toFixed(1).padStart(6)} µs/cmd plan ${((Number(r.total_plan_time) * 1000) / total).toFixed(1)} rows/call ${(Number(r.rows) / Number(r.calls)).toFixed(1)}  ${r.q}`);
  }
} finally {
  for (const r of replicas) {
    await r.stop();
    removeDataDir(r.dataDir);
  }
  await admin.end();
  await dropTestDatabase(url);
  await embedded.stop();
}
