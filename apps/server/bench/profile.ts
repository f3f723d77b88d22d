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
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { SourceMap } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join, relative, resolve } from 'node:path';
import autocannon from 'autocannon';
import { awaitLog, exited, paths, removeDataDir, startServer } from '@switchboard/testkit';
import { dropTestDatabase, startEmbeddedPostgres, testDatabase, TEST_DATABASE_URL } from '@switchboard/testkit/postgres';
import { benchRequest, type BenchRequest } from './setup.ts';

const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const TOP = Number(process.env.PROFILE_TOP ?? 30);

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; children?: number[] }
interface Profile { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] }

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

// The operator CLI ran with the same NODE_OPTIONS; the profile wanted is the one named by its pid.
const file = readdirSync(dir).find((name) => name.includes(`.${pid}.`) && name.endsWith('.cpuprofile'));
if (!file) throw new Error(`no profile of pid ${pid} in ${dir}`);
const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile;

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
// Profile times are µs; a 100 ms margin on both sides keeps the ramp-up and the tail out.
const from = profile.endTime - (exitedAt - loadStart - 100) * 1000;
const to = profile.endTime - (exitedAt - loadEnd + 100) * 1000;
// Every sample weighs the usual interval, not the time since the previous one: on a busy machine
// the process is descheduled for milliseconds, and that wait would land on whatever it ran last
// (a system call, mostly), not on what used the CPU.
const interval = [...profile.timeDeltas].sort((a, b) => a - b)[Math.floor(profile.timeDeltas.length / 2)]!;
let clock = profile.startTime;
profile.samples.forEach((id, i) => {
  clock += profile.timeDeltas[i] ?? 0;
  if (clock >= from && clock <= to) self.set(id, (self.get(id) ?? 0) + interval);
});

const bundle = new SourceMap(JSON.parse(readFileSync(`${entry}.map`, 'utf8')));
const bundleUrl = pathToFileURL(resolve(entry)).href;

/** A frame's file, short: the package for node_modules, the internal module for Node's own, the source file for the bundle. */
function where(url: string): string {
  if (url === '') return '';
  const pkg = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return url;
  return relative(paths.root, url.startsWith('file:') ? fileURLToPath(url) : url);
}

/** Where a function is: its source file and line (through the bundle's source map), else its file. */
function source(frame: ProfileNode['callFrame']): string {
  const file = where(frame.url);
  if (frame.url === bundleUrl) {
    const mapped = bundle.findEntry(frame.lineNumber, frame.columnNumber);
    if ('originalSource' in mapped && mapped.originalSource) return `${relative(paths.root, fileURLToPath(new URL(mapped.originalSource, frame.url)))}:${mapped.originalLine + 1}`;
  }
  return file ? `${file}:${frame.lineNumber + 1}` : '';
}

const parents = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);

const stack = (id: number) => {
  const frames: ProfileNode['callFrame'][] = [];
  for (let node: number | undefined = id; node !== undefined; node = parents.get(node)) frames.push(byId.get(node)!.callFrame);
  return frames;
};
const ours = (frame: ProfileNode['callFrame']) => frame.url.includes('/apps/server/');

const functions = new Map<string, number>();
/** Time with the function anywhere on the stack, for the server's own functions. */
const inclusive = new Map<string, number>();
const files = new Map<string, number>();
let total = 0;
let committing = 0;
for (const [id, us] of self) {
  const frames = stack(id);
  const { functionName, url } = frames[0]!;
  if (functionName === '(idle)') continue;
  // The group commit's own time (the store's and the floor's `commit`, where SQLite's COMMIT
  // runs): mostly the wait for fsync. What it calls (the answers, in the floor) is work.
  if (ours(frames[0]!) && functionName === 'commit') {
    committing += us;
    continue;
  }
  total += us;
  const fn = `${functionName || '(anonymous)'}  ${source(frames[0]!)}`;
  functions.set(fn, (functions.get(fn) ?? 0) + us);
  const group = where(url) || functionName;
  files.set(group, (files.get(group) ?? 0) + us);
  const seen = new Set<string>();
  for (const frame of frames.filter(ours)) {
    const name = `${frame.functionName || '(anonymous)'}  ${source(frame)}`;
    if (!seen.has(name)) inclusive.set(name, (inclusive.get(name) ?? 0) + us);
    seen.add(name);
  }
}

const top = (entries: Map<string, number>) => {
  for (const [name, us] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
    console.log(`${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${name}`);
  }
};
const table = (title: string, entries: Map<string, number>) => {
  console.log(`\n${title} (self time, % of ${(total / 1e6).toFixed(2)} s busy outside COMMIT)`);
  top(entries);
};
console.log(`COMMIT (the fsync wait with the WAL write): ${(committing / 1e6).toFixed(2)} s; busy outside it: ${(total / 1e6).toFixed(2)} s`);
table('functions', functions);
table('files and packages', files);
console.log(`\nSwitchboard's own functions, with what they call (% of ${(total / 1e6).toFixed(2)} s)`);
top(inclusive);
console.log(`\nprofile: ${join(dir, file)}`);
