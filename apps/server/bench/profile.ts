/**
 * Where the durable intake's CPU goes: runs the built server under `--cpu-prof`, loads it with the
 * intake bench's request, and prints the profile's top self-time entries (functions, then files
 * and packages). The .cpuprofile is kept for a flame graph (Chrome DevTools, speedscope).
 *
 *   node bench/profile.ts                       the server: 8 s at max rate, top 30
 *   node bench/profile.ts floor                 the durable floor (or `bare`, the ceiling) under the same load
 *   node bench/profile.ts server node_modules/.before/main.js   another build (a copy of dist/ where its packages resolve)
 *   BENCH_DURATION=15 PROFILE_TOP=50 node bench/profile.ts
 *   PROFILE_STORE=postgres node bench/profile.ts   the server on PostgreSQL (embedded, fsync off, as the tests run it)
 *
 * The profiler samples the main thread's wall time: an fsync inside COMMIT counts as the time of
 * the function that commits although it is waiting, not computing, so COMMIT is reported apart
 * and the shares are of the time busy outside it. Work on other threads (the thread pool) is not
 * in a profile, though the bench's µs per request count it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { awaitLog, exited, paths, removeDataDir, startServer } from '@switchboard/testkit';
import { dropTestDatabase, startEmbeddedPostgres, testDatabase, TEST_DATABASE_URL } from '@switchboard/testkit/postgres';
import { benchRequest, type BenchRequest } from './setup.ts';
import { printProfile, profileOf } from './cpu-profile.ts';

const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const TOP = Number(process.env.PROFILE_TOP ?? 30);

const target = process.argv[2] ?? 'server';
const entry = process.argv[3] ?? paths.serverDist;
if (!['server', 'floor', 'bare'].includes(target)) throw new Error('usage: profile.ts [server|floor|bare]');
const dir = mkdtempSync(join(tmpdir(), 'switchboard-profile-'));
const profiling = `--cpu-prof --cpu-prof-dir=${dir}`;
const embedded = process.env.PROFILE_STORE === 'postgres' ? await startEmbeddedPostgres() : null;
if (embedded) process.env[TEST_DATABASE_URL] = embedded.url;
const database: Record<string, string> = embedded ? { SWITCHBOARD_DATABASE_URL: await testDatabase(`profile-${Date.now()}`) } : {};
const server = await startServer({ SWITCHBOARD_RATE_LIMIT: '0', SWITCHBOARD_LEASE_TTL_MS: '3600000', ...database, ...(target === 'server' ? { NODE_OPTIONS: profiling } : {}) }, undefined, entry);
const reference = target === 'server' ? null : spawn(process.execPath, [...profiling.split(' '), join(import.meta.dirname, `${target}-server.ts`)], { stdio: ['ignore', 'pipe', 'inherit'] });
const pid = reference ? reference.pid! : server.child.pid!;
// Only the samples taken under load count, not start-up or shutdown: the window is found from
// the end of the profile (the process's exit), as the load's start and end before the exit.
let loadStart = 0;
let loadEnd = 0;
let exitedAt = 0;
try {
  const request: BenchRequest = await benchRequest(server);
  const url = reference ? (await awaitLog(reference, 'switchboard listening')).url as string : server.url;
  loadStart = performance.now();
  const result = await autocannon({ url: `${url}/v1/commands/message.send`, method: 'POST', ...request, connections: 32, duration: DURATION });
  loadEnd = performance.now();
  console.log(`${target}: ${result.requests.average.toFixed(0)} req/s over ${DURATION} s, ${result.non2xx} non-2xx (profiling slows it down)`);
} finally {
  if (reference) {
    reference.kill('SIGTERM');
    await exited(reference);
  }
  await server.stop();
  exitedAt = performance.now();
  removeDataDir(server.dataDir);
  if (database.SWITCHBOARD_DATABASE_URL) await dropTestDatabase(database.SWITCHBOARD_DATABASE_URL);
  await embedded?.stop();
}

printProfile(profileOf(dir, pid), entry, { start: loadStart, end: loadEnd, exitedAt }, TOP);
