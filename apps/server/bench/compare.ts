/**
 * Two or more builds of the server side by side: the same intake load on all of them at once,
 * for several rounds, then each build's median throughput and server CPU per request, and its
 * ratio to the first build in the same rounds. How a change to the hot path is judged on a
 * shared machine before it goes in: the builds share whatever else the machine is doing.
 *
 *   cp -r dist node_modules/.before && (change, pnpm build) && node bench/compare.ts node_modules/.before/main.js dist/main.js
 *   A build may carry its own environment: dist/main.js@SWITCHBOARD_LOG_LEVEL=warn@NAME=value
 *   COMPARE_DATA_DIR=/dev/shm keeps the stores on tmpfs, where fsync costs nothing: the CPU of the
 *   code alone, for changes that do not touch the commit (on a busy disk, fsync waits dominate).
 */
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { styleText } from 'node:util';
import autocannon from 'autocannon';
import { removeDataDir, startServer, type ServerProcess } from '@switchboard/testkit';
import { benchRequest, cpuSeconds, median, type BenchRequest } from './setup.ts';

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const entries = process.argv.slice(2);
if (entries.length < 2) {
  console.error('usage: compare.ts <main.js> <main.js>...');
  process.exit(2);
}
/** `main.js@NAME=value@...`: the entry and the environment it runs with. */
function parse(arg: string): { entry: string; env: Record<string, string> } {
  const [entry, ...pairs] = arg.split('@');
  return { entry: entry!, env: Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)])) };
}

interface Run { rps: number; cpuUs: number; p99: number }

async function load(server: ServerProcess, request: BenchRequest): Promise<Run> {
  const pid = server.child.pid!;
  const cpu0 = cpuSeconds(pid);
  const result = await autocannon({ url: `${server.url}/v1/commands/message.send`, method: 'POST', ...request, connections: 32, duration: DURATION });
  if (result.non2xx + result.errors > 0) throw new Error(`${result.non2xx} non-2xx, ${result.errors} errors`);
  const cpu = cpuSeconds(pid) - cpu0;
  return { rps: result.requests.average, cpuUs: (cpu / result.requests.total) * 1e6, p99: result.latency.p99 };
}

const servers: ServerProcess[] = [];
try {
  const requests: BenchRequest[] = [];
  for (const arg of entries) {
    const { entry, env } = parse(arg);
    const dataDir = process.env.COMPARE_DATA_DIR ? mkdtempSync(join(process.env.COMPARE_DATA_DIR, 'switchboard-compare-')) : undefined;
    const server = await startServer({ SWITCHBOARD_RATE_LIMIT: '0', SWITCHBOARD_LEASE_TTL_MS: '3600000', ...env }, dataDir, entry);
    servers.push(server);
    requests.push(await benchRequest(server));
  }
  const runs: Run[][] = entries.map(() => []);
  for (let round = 1; round <= ROUNDS; round++) {
    // All builds under load at once, so each sees the same machine: a shared machine's load
    // changes from second to second, and a build measured alone would be judged by its moment.
    const results = await Promise.all(servers.map((server, i) => load(server, requests[i]!)));
    results.forEach((result, i) => runs[i]!.push(result));
    console.log(styleText('dim', `round ${round}: ${runs.map((r) => `${r.at(-1)!.rps.toFixed(0)} req/s ${r.at(-1)!.cpuUs.toFixed(0)} µs`).join('   ')}`));
  }
  for (const [i, entry] of entries.entries()) {
    const mine = runs[i]!;
    const ratio = median(mine.map((r, k) => r.rps / runs[0]![k]!.rps));
    const cpuRatio = median(mine.map((r, k) => r.cpuUs / runs[0]![k]!.cpuUs));
    console.log(
      `${entry.padEnd(50)} ${median(mine.map((r) => r.rps)).toFixed(0).padStart(7)} req/s  ${median(mine.map((r) => r.cpuUs)).toFixed(1).padStart(6)} µs/req  ` +
      `p99 ${median(mine.map((r) => r.p99)).toFixed(1)} ms   vs first: throughput ${(ratio * 100).toFixed(0)}%, CPU/req ${(cpuRatio * 100).toFixed(0)}%`,
    );
  }
} finally {
  for (const server of servers) {
    await server.stop();
    removeDataDir(server.dataDir);
  }
}
