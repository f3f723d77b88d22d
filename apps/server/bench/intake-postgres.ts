import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { styleText } from 'node:util';
import autocannon from 'autocannon';
import { awaitLog, exited, paths, removeDataDir, startServer, type ServerProcess } from '@switchboard/testkit';
import { dropTestDatabase, startEmbeddedPostgres, testDatabase, TEST_DATABASE_URL } from '@switchboard/testkit/postgres';
import { benchRequest, cpuSeconds, median } from './setup.ts';

// PostgreSQL intake beside the bare node:http ceiling, in the same run: one replica, then two
// replicas on one database sharing the load. Each round runs the ceiling, one replica and two
// replicas in turn; figures are medians over the rounds. PostgreSQL is embedded (npm) unless
// SWITCHBOARD_TEST_DATABASE_URL names a server.
const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 32;

interface Figures { rps: number; p99: number; failures: number; cpu: number }


/** Loads the servers at `urls` together, the connections split between them. */
async function load(urls: string[], pids: number[], headers: Record<string, string>, body: string): Promise<Figures> {
  const cpu0 = cpuSeconds(...pids);
  const started = performance.now();
  const results = await Promise.all(urls.map((url) => autocannon({
    url: `${url}/v1/commands/message.send`, method: 'POST', headers, body, connections: CONNECTIONS / urls.length, duration: DURATION,
  })));
  const cpu = (cpuSeconds(...pids) - cpu0) / ((performance.now() - started) / 1000);
  return {
    rps: results.reduce((n, r) => n + r.requests.average, 0),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    failures: results.reduce((n, r) => n + r.non2xx + r.errors, 0),
    cpu,
  };
}


console.log(styleText('bold', `PostgreSQL intake bench: ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION}s per setup, loopback`));
const embedded = process.env[TEST_DATABASE_URL] ? null : await startEmbeddedPostgres();
if (embedded) process.env[TEST_DATABASE_URL] = embedded.url;
const env = { SWITCHBOARD_DATABASE_URL: await testDatabase(`bench-${Date.now()}`), SWITCHBOARD_RATE_LIMIT: '0', SWITCHBOARD_LEASE_TTL_MS: '3600000' };
const replicas: ServerProcess[] = [];
for (let i = 0; i < 2; i++) replicas.push(await startServer(env, undefined, paths.serverDist));
const bare = spawn(process.execPath, [join(import.meta.dirname, 'bare-server.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
try {
  const bareUrl = (await awaitLog(bare, 'switchboard listening')).url as string;
  const [one, two] = replicas as [ServerProcess, ServerProcess];
  const { headers, body } = await benchRequest(one);

  const ceilings: Figures[] = [];
  const singles: Figures[] = [];
  const pairs: Figures[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const ceiling = await load([bareUrl], [bare.pid!], headers, body);
    const single = await load([one.url], [one.child.pid!], headers, body);
    const pair = await load([one.url, two.url], [one.child.pid!, two.child.pid!], headers, body);
    ceilings.push(ceiling);
    singles.push(single);
    pairs.push(pair);
    console.log(styleText('dim', `round ${round}: ceiling ${ceiling.rps.toFixed(0)} req/s, 1 replica ${single.rps.toFixed(0)}, 2 replicas ${pair.rps.toFixed(0)}`));
  }
  const ratio = (runs: Figures[]) => median(runs.map((r, i) => r.rps / ceilings[i]!.rps));
  const row = (name: string, runs: Figures[]) => {
    const f = runs[runs.map((r) => r.rps).indexOf(median(runs.map((r) => r.rps)))]!;
    return `${name.padEnd(34)} ${f.rps.toFixed(0).padStart(8)} req/s   p99 ${f.p99.toFixed(2).padStart(7)} ms   servers ${f.cpu.toFixed(2)} cores   failures ${f.failures}`;
  };
  console.log(row('bare node:http 202 (ceiling)', ceilings));
  console.log(row('PostgreSQL, 1 replica', singles));
  console.log(row('PostgreSQL, 2 replicas', pairs));
  const verdict = (ok: boolean) => (ok ? styleText('green', 'meets target') : styleText('red', 'misses target'));
  console.log(`1 replica / ceiling (median of ${ROUNDS}): ${(ratio(singles) * 100).toFixed(0)}% (target >= 35%): ${verdict(ratio(singles) >= 0.35)}`);
  console.log(`2 replicas / 1 replica (median of ${ROUNDS}): ${(median(pairs.map((p, i) => p.rps / singles[i]!.rps)) * 100).toFixed(0)}% (target >= 100%): ${verdict(median(pairs.map((p, i) => p.rps / singles[i]!.rps)) >= 1)}`);
} finally {
  bare.kill('SIGTERM');
  await exited(bare);
  for (const r of replicas) {
    await r.stop();
    removeDataDir(r.dataDir);
  }
  await dropTestDatabase(env.SWITCHBOARD_DATABASE_URL);
  await embedded?.stop();
}
