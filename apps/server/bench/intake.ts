import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { styleText } from 'node:util';
import autocannon from 'autocannon';
import { awaitLog, exited, paths, removeDataDir, startServer } from '@switchboard/testkit';

// Durable message.send intake against a bare node:http ceiling, measured in the same run.
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 32;

interface Figures { rps: number; p50: number; p99: number; non2xx: number; errors: number }

async function load(url: string, headers: Record<string, string>, body: string, overallRate?: number): Promise<Figures> {
  const result = await autocannon({
    url: `${url}/v1/commands/message.send`,
    method: 'POST',
    headers,
    body,
    connections: CONNECTIONS,
    duration: DURATION,
    ...(overallRate ? { overallRate } : {}),
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
}

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))!;
  return Number(line.replace(/\D+/g, '')) / 1024;
}

const row = (name: string, f: Figures) =>
  `${name.padEnd(34)} ${f.rps.toFixed(0).padStart(8)} req/s   p50 ${f.p50.toFixed(2).padStart(6)} ms   p99 ${f.p99.toFixed(2).padStart(6)} ms   non-2xx ${f.non2xx}`;

console.log(styleText('bold', `intake bench: ${CONNECTIONS} connections, ${DURATION}s per run, loopback`));

// 1. The ceiling.
const bare = spawn(process.execPath, [join(import.meta.dirname, 'bare-server.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
const bareUrl = (await awaitLog(bare, 'switchboard listening')).url as string;
const ceiling = await load(bareUrl, { 'content-type': 'application/json' }, '{"target":{},"payload":{}}');
bare.kill('SIGTERM');
await exited(bare);

// 2. Switchboard: durable intake (WAL, synchronous=FULL, group commit), rate limit lifted.
// The production build (`pnpm bench` builds it first), as `pnpm start` runs it.
const server = await startServer({ SWITCHBOARD_RATE_LIMIT: '0', SWITCHBOARD_LEASE_TTL_MS: '3600000' }, undefined, paths.serverDist);
try {
  const account = await server.account();
  const auth = { authorization: `Bearer ${account.connectorKey}`, 'content-type': 'application/json' };
  const lease = (await (await fetch(`${server.url}/v1/connector/lease`, { method: 'POST', headers: auth, body: JSON.stringify({ hostId: 'bench', osMajorVersion: 15, capabilities: [] }) })).json() as any);
  await fetch(`${server.url}/v1/connector/platform-events`, {
    method: 'POST', headers: auth,
    body: JSON.stringify({ epoch: lease.epoch, events: [{ type: 'conversation.appeared', externalId: 'bench-chat', conversationKind: 'direct', name: null, participants: ['+14155550123'] }] }),
  });
  const list = (await (await fetch(`${server.url}/v1/conversations`, { headers: { authorization: `Bearer ${account.apiKey}` } })).json() as any);
  const body = JSON.stringify({ target: { kind: 'conversation', conversationId: list.conversations[0].conversationId }, payload: { text: 'hello from the bench' } });
  const headers = { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json' };

  const idleRss = rssMb(server.child.pid!);
  const max = await load(server.url, headers, body);
  const half = await load(server.url, headers, body, Math.floor(max.rps / 2));

  console.log(row('bare node:http 202 (ceiling)', ceiling));
  console.log(row('switchboard durable intake (max)', max));
  console.log(row(`switchboard at half max (${Math.floor(max.rps / 2)}/s)`, half));
  const ratio = max.rps / ceiling.rps;
  const verdict = (ok: boolean) => (ok ? styleText('green', 'meets target') : styleText('red', 'misses target'));
  console.log(`ratio to ceiling: ${(ratio * 100).toFixed(0)}% (target >= 50%): ${verdict(ratio >= 0.5)}`);
  console.log(`p99 at half max: ${half.p99.toFixed(2)} ms (target < 10 ms): ${verdict(half.p99 < 10)}`);
  console.log(`server idle RSS: ${idleRss.toFixed(1)} MB (target < 100 MB): ${verdict(idleRss < 100)}`);
  if (max.non2xx > 0 || max.errors > 0) console.log(styleText('yellow', `note: ${max.non2xx} non-2xx and ${max.errors} errors during the max run`));
} finally {
  await server.stop();
  removeDataDir(server.dataDir);
}
