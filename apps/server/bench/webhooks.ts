import { styleText } from 'node:util';
import { paths, Receiver, removeDataDir, startServer } from '@switchboard/testkit';

// Webhook delivery on loopback, from the production build: how fast a backlog drains to one
// receiver and to 100 endpoints, and the delay from an event's commit to its delivery at a
// steady 200 events/s. Events come from a connector host reporting conversations, the way
// platform events reach the stream.
const BACKLOG = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 2000);
const ENDPOINTS = 100;
const RATE = 200;
const SECONDS = Number(process.env.BENCH_DURATION ?? 8);

const server = await startServer({ SWITCHBOARD_RATE_LIMIT: '0', SWITCHBOARD_READ_RATE_LIMIT: '0', SWITCHBOARD_LEASE_TTL_MS: '3600000' }, undefined, paths.serverDist);
const receiver = await Receiver.start();
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

async function call(key: string, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? null : response.json();
}

let sequence = 0;
/** `count` new conversations, reported in batches of 100: `count` stream events. */
async function report(connectorKey: string, epoch: number, count: number): Promise<void> {
  for (let left = count; left > 0; left -= 100) {
    const events = Array.from({ length: Math.min(100, left) }, () => ({ type: 'conversation.appeared', externalId: `bench-${++sequence}`, conversationKind: 'direct', name: null, participants: ['+14155550123'] }));
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

try {
  console.log(styleText('bold', 'webhook bench: loopback, production build, one receiver (node:http, answers 204)'));
  const one = await drain(1, BACKLOG);
  console.log(`backlog of ${BACKLOG} events to 1 endpoint:          ${one.toFixed(0).padStart(7)} deliveries/s`);
  const many = await drain(ENDPOINTS, BACKLOG / 20);
  console.log(`backlog of ${BACKLOG / 20} events to ${ENDPOINTS} endpoints:       ${many.toFixed(0).padStart(7)} deliveries/s`);

  // Commit-to-delivery delay at a steady rate: one event per report, RATE a second.
  const { account, epoch, ids } = await setup(1);
  await call(account.apiKey, 'PATCH', `/v1/webhook-endpoints/${ids[0]}`, { enabled: true });
  const before = receiver.deliveries.length;
  const total = RATE * SECONDS;
  const start = performance.now();
  for (let i = 0; i < total; i++) {
    const wait = start + (i * 1000) / RATE - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    void report(account.connectorKey, epoch, 1);
  }
  await receiver.waitForCount(before + total, 120_000);
  // The envelope's `time` is when the event was recorded, in the transaction that commits it.
  const delays = receiver.deliveries.slice(before).map((d) => d.at - Date.parse((JSON.parse(d.body) as { time: string }).time));
  const p99 = percentile(delays, 0.99);
  console.log(`commit to delivery at ${RATE} events/s (${total} events): p50 ${percentile(delays, 0.5)} ms, p99 ${p99} ms (target p99 < 50 ms): ${p99 < 50 ? styleText('green', 'met') : styleText('red', 'missed')}`);
} finally {
  await receiver.close();
  await server.stop();
  removeDataDir(server.dataDir);
}
