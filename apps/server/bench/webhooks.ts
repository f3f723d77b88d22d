import { loadavg } from 'node:os';
import { styleText } from 'node:util';
import { paths, Receiver, removeDataDir, startServer } from '@switchboard/testkit';
import { startEmbeddedPostgres, testDatabase, TEST_DATABASE_URL } from '@switchboard/testkit/postgres';

// Webhook delivery on loopback, from the production build, on SQLite and on PostgreSQL side by
// side: how fast a backlog drains to one receiver and to 100 endpoints, and the delay from an
// event's commit to its delivery at a steady 200 events/s. Events come from a connector host
// reporting conversations, the way platform events reach the stream.
//
// PostgreSQL is embedded (npm) with its default durability (fsync, synchronous commit), unless
// SWITCHBOARD_TEST_DATABASE_URL names a server. BENCH_WEBHOOK_BASELINE=<path to another build's
// dist/main.js> measures that build too, in the same run, in turns with this one (build it from
// the commit to compare, then copy apps/server/dist to, say, apps/server/node_modules/.bench-base
// so its npm imports resolve). BENCH_WEBHOOK_STORES=sqlite (or postgres) measures one store.
const BACKLOG = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 2000);
const ENDPOINTS = 100;
const RATE = Number(process.env.BENCH_WEBHOOK_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_DURATION ?? 8);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
/** BENCH_WEBHOOK_DRAIN=0: only the steady rate (the drains take most of a run). */
const DRAIN = process.env.BENCH_WEBHOOK_DRAIN !== '0';
const STORES = (process.env.BENCH_WEBHOOK_STORES ?? 'sqlite,postgres').split(',') as Array<'sqlite' | 'postgres'>;
const BUILDS: Array<[string, string]> = [
  ...(process.env.BENCH_WEBHOOK_BASELINE ? [['baseline', process.env.BENCH_WEBHOOK_BASELINE] as [string, string]] : []),
  ['this build', paths.serverDist],
];

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

interface Figures { one: number; many: number; p50: number; p99: number; intake99: number; answered99: number; cold99: number; load: number }

/** One server (one build, one store) through the three measurements. */
async function measure(entry: string, env: Record<string, string>): Promise<Figures> {
  const server = await startServer({ SWITCHBOARD_RATE_LIMIT: '0', SWITCHBOARD_READ_RATE_LIMIT: '0', SWITCHBOARD_LEASE_TTL_MS: '3600000', ...env }, undefined, entry);
  const receiver = await Receiver.start();
  let sequence = 0;

  async function call(key: string, method: string, path: string, body?: unknown): Promise<any> {
    const response = await fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.status === 204 ? null : response.json();
  }

  /** `count` new conversations, reported in batches of 100: `count` stream events, each named after its external id. */
  async function report(connectorKey: string, epoch: number, count: number): Promise<void> {
    for (let left = count; left > 0; left -= 100) {
      const events = Array.from({ length: Math.min(100, left) }, () => {
        const externalId = `bench-${++sequence}`;
        return { type: 'conversation.appeared', externalId, conversationKind: 'direct', name: externalId, participants: ['+14155550123'] };
      });
      const response = await fetch(`${server.url}/v1/connector/platform-events`, { method: 'POST', headers: { authorization: `Bearer ${connectorKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ epoch, events }) });
      if (response.status !== 200) throw new Error(`platform-events: ${response.status}`);
    }
  }

  /** An account with a leased host and `n` endpoints (disabled until the backlog is in), each its own path on the receiver. */
  async function setup(n: number) {
    const account = await server.account();
    const lease = await fetch(`${server.url}/v1/connector/lease`, { method: 'POST', headers: { authorization: `Bearer ${account.connectorKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ hostId: `bench-${++sequence}`, osMajorVersion: 15, capabilities: [] }) }).then((r) => r.json() as Promise<{ epoch: number }>);
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const endpoint = await call(account.apiKey, 'POST', '/v1/webhook-endpoints', { url: `${receiver.url}/${i}` });
      await call(account.apiKey, 'PATCH', `/v1/webhook-endpoints/${endpoint.id}`, { enabled: false });
      ids.push(endpoint.id);
    }
    return { account, epoch: lease.epoch, ids };
  }

  /** Queues `events` while the endpoints are disabled, enables them, and times the drain (20 endpoints per account, the limit). */
  async function drain(n: number, events: number): Promise<number> {
    const groups = await Promise.all(Array.from({ length: Math.ceil(n / 20) }, (_, g) => setup(Math.min(20, n - g * 20))));
    for (const { account, epoch } of groups) await report(account.connectorKey, epoch, events);
    const before = receiver.deliveries.length;
    const started = performance.now();
    await Promise.all(groups.flatMap(({ account, ids }) => ids.map((id) => call(account.apiKey, 'PATCH', `/v1/webhook-endpoints/${id}`, { enabled: true }))));
    await receiver.waitForCount(before + n * events, 600_000);
    return (n * events) / ((performance.now() - started) / 1000);
  }

  /**
   * Commit-to-delivery delay at a steady rate: one event per report, RATE a second, after
   * WARMUP_SECONDS at that rate (its own p99 is the cold server's: V8 not yet compiled, the
   * database connections preparing their statements on first use).
   */
  async function steady(): Promise<{ p50: number; p99: number; intake99: number; answered99: number; cold99: number }> {
    const { account, epoch, ids } = await setup(1);
    await call(account.apiKey, 'PATCH', `/v1/webhook-endpoints/${ids[0]}`, { enabled: true });
    const cold = await timed(account.connectorKey, epoch, RATE * WARMUP_SECONDS);
    const warm = await timed(account.connectorKey, epoch, RATE * SECONDS);
    return { ...warm, cold99: cold.p99 };
  }

  /** `total` events reported at RATE a second, each delivered once: the delays' p50 and p99. */
  async function timed(connectorKey: string, epoch: number, total: number): Promise<{ p50: number; p99: number; intake99: number; answered99: number }> {
    const before = receiver.deliveries.length;
    const start = performance.now();
    /** Each report's own round trip: the event's commit, which the delivery delay includes. */
    const intake: number[] = [];
    /** When each event's report was answered (its commit is done by then), by conversation name. */
    const answered = new Map<string, number>();
    for (let i = 0; i < total; i++) {
      const wait = start + (i * 1000) / RATE - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const sent = performance.now();
      const name = `bench-${sequence + 1}`;
      void report(connectorKey, epoch, 1).then(() => {
        intake.push(performance.now() - sent);
        answered.set(name, Date.now());
      });
    }
    await receiver.waitForCount(before + total, 300_000);
    // The envelope's `time` is when the event was recorded, in the transaction that commits it.
    const bodies = receiver.deliveries.slice(before).map((d) => ({ at: d.at, envelope: JSON.parse(d.body) as { time: string; data: { name: string } } }));
    const delays = bodies.map((d) => d.at - Date.parse(d.envelope.time));
    // Delivered after the report's answer (negative: before it): the share of the delay that is not the event's own commit.
    while (answered.size < total) await new Promise((resolve) => setTimeout(resolve, 10));
    const afterAnswer = bodies.map((d) => d.at - answered.get(d.envelope.data.name)!);
    return { p50: percentile(delays, 0.5), p99: percentile(delays, 0.99), intake99: Math.round(percentile(intake, 0.99)), answered99: percentile(afterAnswer, 0.99) };
  }

  try {
    const one = DRAIN ? await drain(1, BACKLOG) : NaN;
    const many = DRAIN ? await drain(ENDPOINTS, BACKLOG / 20) : NaN;
    const { p50, p99, intake99, answered99, cold99 } = await steady();
    return { one, many, p50, p99, intake99, answered99, cold99, load: loadavg()[0]! };
  } finally {
    await receiver.close();
    await server.stop();
    removeDataDir(server.dataDir);
  }
}

console.log(styleText('bold', `webhook bench: loopback, production build, one receiver (node:http, answers 204); ${ROUNDS} round(s)`));
console.log(`columns: a backlog of ${BACKLOG} events to 1 endpoint, of ${BACKLOG / 20} events to each of ${ENDPOINTS} endpoints (deliveries/s); commit to delivery at ${RATE} events/s for ${SECONDS} s after ${WARMUP_SECONDS} s at that rate (target p99 < 50 ms) and the warm-up's own p99 (a cold server), the p99 of the reports' own round trips (the events' commits) and of delivery after the report's answer; 1-minute load average after`);
const embedded = STORES.includes('postgres') && !process.env[TEST_DATABASE_URL] ? await startEmbeddedPostgres({ durable: true }) : null;
if (embedded) process.env[TEST_DATABASE_URL] = embedded.url;
try {
  let databases = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    for (const store of STORES) {
      for (const [build, entry] of BUILDS) {
        const env: Record<string, string> = store === 'postgres' ? { SWITCHBOARD_DATABASE_URL: await testDatabase(`bench-webhooks-${Date.now()}-${++databases}`) } : {};
        const f = await measure(entry, env);
        const verdict = f.p99 < 50 ? styleText('green', 'met') : styleText('red', 'missed');
        console.log(`${store.padEnd(9)} ${build.padEnd(11)} 1 endpoint ${f.one.toFixed(0).padStart(5)}/s   100 endpoints ${f.many.toFixed(0).padStart(5)}/s   p50 ${String(f.p50).padStart(6)} ms   p99 ${String(f.p99).padStart(6)} ms (${verdict})   cold p99 ${String(f.cold99).padStart(5)} ms   report p99 ${String(f.intake99).padStart(4)} ms   after its answer p99 ${String(f.answered99).padStart(5)} ms   load ${f.load.toFixed(1)}`);
      }
    }
  }
} finally {
  await embedded?.stop();
}
