import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { styleText } from 'node:util';
import autocannon from 'autocannon';
import { awaitLog, exited, paths, removeDataDir, startServer } from '@switchboard/testkit';

// Durable message.send intake against a bare node:http ceiling, measured in the same run, with a
// second reference: the durable floor (node:http plus a group-committed SQLite insert, nothing
// else). The servers take turns for ROUNDS rounds and every figure is the median over the rounds,
// because the machines are shared and a single round can land on a noisy moment.
const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 32;

interface Figures { rps: number; p50: number; p99: number; non2xx: number; errors: number; cpu: number }

/** User plus system CPU seconds a process has used so far. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))!;
  return Number(line.replace(/\D+/g, '')) / 1024;
}

/** Loads one server with the same request the whole run; `cpu` is the server's cores used. */
async function load(url: string, pid: number, headers: Record<string, string>, body: string, overallRate?: number): Promise<Figures> {
  const cpu0 = cpuSeconds(pid);
  const started = performance.now();
  const result = await autocannon({
    url: `${url}/v1/commands/message.send`,
    method: 'POST',
    headers,
    body,
    connections: CONNECTIONS,
    duration: DURATION,
    ...(overallRate ? { overallRate } : {}),
  });
  const cpu = (cpuSeconds(pid) - cpu0) / ((performance.now() - started) / 1000);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors, cpu };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const row = (name: string, f: Figures) =>
  `${name.padEnd(40)} ${f.rps.toFixed(0).padStart(8)} req/s   p50 ${f.p50.toFixed(2).padStart(6)} ms   p99 ${f.p99.toFixed(2).padStart(6)} ms   ` +
  `server ${f.cpu.toFixed(2)} cores, ${((f.cpu / f.rps) * 1e6).toFixed(0).padStart(3)} µs/req   non-2xx ${f.non2xx}`;

console.log(styleText('bold', `intake bench: ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION}s per server, loopback`));

// Switchboard: the production build (`pnpm bench` builds it first), as `pnpm start` runs it.
// Durable intake (WAL, synchronous=FULL, group commit), rate limit lifted.
const server = await startServer({ SWITCHBOARD_RATE_LIMIT: '0', SWITCHBOARD_LEASE_TTL_MS: '3600000' }, undefined, paths.serverDist);
// The ceiling (node:http reading the body and answering 202) and the durable floor.
const bare = spawn(process.execPath, [join(import.meta.dirname, 'bare-server.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
const floor = spawn(process.execPath, [join(import.meta.dirname, 'floor-server.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
try {
  const bareUrl = (await awaitLog(bare, 'switchboard listening')).url as string;
  const floorUrl = (await awaitLog(floor, 'switchboard listening')).url as string;
  const account = await server.account();
  const auth = { authorization: `Bearer ${account.connectorKey}`, 'content-type': 'application/json' };
  const lease = (await (await fetch(`${server.url}/v1/connector/lease`, { method: 'POST', headers: auth, body: JSON.stringify({ hostId: 'bench', osMajorVersion: 15, capabilities: [] }) })).json() as any);
  await fetch(`${server.url}/v1/connector/platform-events`, {
    method: 'POST', headers: auth,
    body: JSON.stringify({ epoch: lease.epoch, events: [{ type: 'conversation.appeared', externalId: 'bench-chat', conversationKind: 'direct', name: null, participants: ['+14155550123'] }] }),
  });
  const list = (await (await fetch(`${server.url}/v1/conversations`, { headers: { authorization: `Bearer ${account.apiKey}` } })).json() as any);
  // All three servers get this very request: same headers, same body.
  const body = JSON.stringify({ target: { kind: 'conversation', conversationId: list.conversations[0].conversationId }, payload: { text: 'hello from the bench' } });
  const headers = { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json' };
  const idleRss = rssMb(server.child.pid!);

  const ceilings: Figures[] = [];
  const floors: Figures[] = [];
  const maxes: Figures[] = [];
  const percent = (a: Figures, b: Figures) => `${((a.rps / b.rps) * 100).toFixed(0)}%`;
  for (let round = 1; round <= ROUNDS; round++) {
    const ceiling = await load(bareUrl, bare.pid!, headers, body);
    const durable = await load(floorUrl, floor.pid!, headers, body);
    const max = await load(server.url, server.child.pid!, headers, body);
    ceilings.push(ceiling);
    floors.push(durable);
    maxes.push(max);
    console.log(styleText('dim', `round ${round}: ceiling ${ceiling.rps.toFixed(0)} req/s, floor ${durable.rps.toFixed(0)} (${percent(durable, ceiling)}), intake ${max.rps.toFixed(0)} (${percent(max, ceiling)})`));
  }
  const ratios = maxes.map((max, i) => max.rps / ceilings[i]!.rps);
  const round = ratios.indexOf(median(ratios));
  const ceiling = ceilings[round]!;
  const max = maxes[round]!;
  const floorRatio = median(floors.map((f, i) => f.rps / ceilings[i]!.rps));
  const rate = Math.floor(median(maxes.map((m) => m.rps)) / 2);
  const half = await load(server.url, server.child.pid!, headers, body, rate);

  console.log(row('bare node:http 202 (ceiling)', ceiling));
  console.log(row('node:http + SQLite group commit (floor)', floors[round]!));
  console.log(row('switchboard durable intake (max)', max));
  console.log(row(`switchboard at half max (${rate}/s)`, half));
  const ratio = median(ratios);
  const verdict = (ok: boolean) => (ok ? styleText('green', 'meets target') : styleText('red', 'misses target'));
  console.log(`ratio to ceiling (median of ${ROUNDS}): ${(ratio * 100).toFixed(0)}% (target >= 50%): ${verdict(ratio >= 0.5)}`);
  console.log(`the durable floor's ratio to ceiling (median of ${ROUNDS}): ${(floorRatio * 100).toFixed(0)}%`);
  console.log(`p99 at half max: ${half.p99.toFixed(2)} ms (target < 10 ms): ${verdict(half.p99 < 10)}`);
  console.log(`server idle RSS: ${idleRss.toFixed(1)} MB (target < 100 MB): ${verdict(idleRss < 100)}`);
  const failures = maxes.reduce((n, m) => n + m.non2xx + m.errors, 0);
  if (failures > 0) console.log(styleText('yellow', `note: ${failures} non-2xx answers or errors during the max runs`));
} finally {
  bare.kill('SIGTERM');
  floor.kill('SIGTERM');
  await exited(bare);
  await exited(floor);
  await server.stop();
  removeDataDir(server.dataDir);
}
