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
//
//   node bench/intake-postgres.ts                                       this build (dist/main.js)
//   node bench/intake-postgres.ts node_modules/.before/main.js dist/main.js   builds side by side
// With several builds (`main.js@NAME=value@...` adds environment, as in compare.ts), each has its
// own database and replicas; every round loads each build in turn, and each is also given as a
// ratio to the first build's figures of the same round.
const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 32;
const builds = (process.argv.length > 2 ? process.argv.slice(2) : [paths.serverDist]).map((arg) => {
  const [entry, ...pairs] = arg.split('@');
  return { name: arg, entry: entry!, env: Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)])) };
});

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
const setups: { name: string; database: string; replicas: ServerProcess[] }[] = [];
const bare = spawn(process.execPath, [join(import.meta.dirname, 'bare-server.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
try {
  for (const [i, build] of builds.entries()) {
    const database = await testDatabase(`bench-${Date.now()}-${i}`);
    const env = { SWITCHBOARD_DATABASE_URL: database, SWITCHBOARD_RATE_LIMIT: '0', SWITCHBOARD_LEASE_TTL_MS: '3600000', ...build.env };
    const setup = { name: build.name, database, replicas: [] as ServerProcess[] };
    setups.push(setup);
    for (let r = 0; r < 2; r++) setup.replicas.push(await startServer(env, undefined, build.entry));
  }
  const bareUrl = (await awaitLog(bare, 'switchboard listening')).url as string;
  const requests = await Promise.all(setups.map((setup) => benchRequest(setup.replicas[0]!)));

  const ceilings: Figures[] = [];
  const singles: Figures[][] = setups.map(() => []);
  const pairs: Figures[][] = setups.map(() => []);
  for (let round = 1; round <= ROUNDS; round++) {
    const ceiling = await load([bareUrl], [bare.pid!], requests[0]!.headers, requests[0]!.body);
    ceilings.push(ceiling);
    const line: string[] = [];
    // A different build first each round: the machine's load drifts within a round.
    const order = setups.map((_, k) => (k + round - 1) % setups.length);
    for (const i of order) {
      const { replicas } = setups[i]!;
      const [one, two] = replicas as [ServerProcess, ServerProcess];
      const { headers, body } = requests[i]!;
      const single = await load([one.url], [one.child.pid!], headers, body);
      const pair = await load([one.url, two.url], [one.child.pid!, two.child.pid!], headers, body);
      singles[i]!.push(single);
      pairs[i]!.push(pair);
      line.push(`${setups.length > 1 ? `${setups[i]!.name}: ` : ''}1 replica ${single.rps.toFixed(0)}, 2 replicas ${pair.rps.toFixed(0)}`);
    }
    console.log(styleText('dim', `round ${round}: ceiling ${ceiling.rps.toFixed(0)} req/s, ${line.join('; ')}`));
  }
  const ratio = (runs: Figures[], to: Figures[]) => median(runs.map((r, i) => r.rps / to[i]!.rps));
  const row = (name: string, runs: Figures[]) => {
    const f = runs[runs.map((r) => r.rps).indexOf(median(runs.map((r) => r.rps)))]!;
    return `${name.padEnd(34)} ${f.rps.toFixed(0).padStart(8)} req/s   p99 ${f.p99.toFixed(2).padStart(7)} ms   servers ${f.cpu.toFixed(2)} cores, ${((f.cpu / f.rps) * 1e6).toFixed(0)} µs/req   failures ${f.failures}`;
  };
  const verdict = (ok: boolean) => (ok ? styleText('green', 'meets target') : styleText('red', 'misses target'));
  console.log(row('bare node:http 202 (ceiling)', ceilings));
  for (const [i, setup] of setups.entries()) {
    if (setups.length > 1) console.log(styleText('bold', setup.name));
    console.log(row('PostgreSQL, 1 replica', singles[i]!));
    console.log(row('PostgreSQL, 2 replicas', pairs[i]!));
    console.log(`1 replica / ceiling (median of ${ROUNDS}): ${(ratio(singles[i]!, ceilings) * 100).toFixed(0)}% (target >= 35%): ${verdict(ratio(singles[i]!, ceilings) >= 0.35)}`);
    console.log(`2 replicas / 1 replica (median of ${ROUNDS}): ${(ratio(pairs[i]!, singles[i]!) * 100).toFixed(0)}% (target >= 100%): ${verdict(ratio(pairs[i]!, singles[i]!) >= 1)}`);
    if (i > 0) console.log(`vs ${setups[0]!.name}, same rounds: 1 replica ${(ratio(singles[i]!, singles[0]!) * 100).toFixed(0)}%, 2 replicas ${(ratio(pairs[i]!, pairs[0]!) * 100).toFixed(0)}%`);
  }
} finally {
  bare.kill('SIGTERM');
  await exited(bare);
  for (const setup of setups) {
    for (const r of setup.replicas) {
      await r.stop();
      removeDataDir(r.dataDir);
    }
    await dropTestDatabase(setup.database);
  }
  await embedded?.stop();
}
