import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { Receiver } from '@switchboard/testkit';
import { loadConfig } from '../src/config.ts';
import { expectSpecResponse, headers, startTestServer, TestHost, type TestAccount, type TestServer } from './helpers.ts';

// Fast retries, a short timeout and a short retry window, so every rule shows within seconds.
const webhooks = { ...loadConfig({}).webhooks, retryBaseMs: 20, retryMaxMs: 2_000, pollMs: 20, timeoutMs: 400, claimTtlMs: 1_000, disableAfterMs: 60_000 };

let server: TestServer;
const receivers: Receiver[] = [];
beforeAll(async () => {
  server = await startTestServer({ readRateLimit: 0, webhooks });
});
afterAll(async () => {
  await server.stopAndClean();
});
afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close();
});

async function receiver(): Promise<Receiver> {
  const r = await Receiver.start();
  receivers.push(r);
  return r;
}

async function api(key: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(`${server.url}${path}`, { method, headers: headers(key), ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

async function endpoint(account: TestAccount, url: string, extra: Record<string, unknown> = {}): Promise<{ id: string; secret: string }> {
  const created = await api(account.apiKey, 'POST', '/v1/webhook-endpoints', { url, ...extra });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expectSpecResponse('/v1/webhook-endpoints', 'POST', 201, created.body, created.headers);
  return created.body;
}

/** Appends a webhook.test event for the endpoint; returns its id. */
async function testEvent(account: TestAccount, endpointId: string): Promise<string> {
  const sent = await api(account.apiKey, 'POST', `/v1/webhook-endpoints/${endpointId}/test`);
  expect(sent.status).toBe(202);
  return sent.body.eventId;
}

async function deliveries(account: TestAccount, endpointId: string): Promise<any[]> {
  const page = await api(account.apiKey, 'GET', `/v1/webhook-endpoints/${endpointId}/deliveries?limit=200`);
  expect(page.status).toBe(200);
  expectSpecResponse('/v1/webhook-endpoints/{endpointId}/deliveries', 'GET', 200, page.body, page.headers);
  return page.body.deliveries.reverse();
}

/** Polls the delivery log until `done` holds (the log is written after the receiver answered). */
async function logUntil(account: TestAccount, endpointId: string, done: (log: any[]) => boolean): Promise<any[]> {
  for (let i = 0; i < 300; i++) {
    const log = await deliveries(account, endpointId);
    if (done(log)) return log;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the delivery log never reached the expected state');
}

describe('a delivery is the stream envelope, signed per Standard Webhooks', () => {
  it('verifies with the standardwebhooks package and carries the SSE envelope, webhook-id = event id', async () => {
    const account = await server.account();
    const r = await receiver();
    const { id, secret } = await endpoint(account, r.url);
    expect(secret).toMatch(/^whsec_/);
    const eventId = await testEvent(account, id);
    const [delivery] = await r.waitForCount(1);
    expect(delivery!.headers['webhook-id']).toBe(eventId);
    expect(delivery!.headers['content-type']).toBe('application/json');
    const verified = new Webhook(secret).verify(delivery!.body, delivery!.headers) as any;
    const page = await api(account.apiKey, 'GET', `/v1/events?after=${Number(eventId) - 1}&limit=1`);
    expect(verified).toEqual(page.body.events[0]);
    expect(verified).toMatchObject({ id: eventId, type: 'webhook.test', account: account.accountId, data: { endpointId: id } });
    expect(() => new Webhook(`whsec_${Buffer.from('another secret, 24 bytes!').toString('base64')}`).verify(delivery!.body, delivery!.headers)).toThrow();
  });
});

describe('retries keep the order', () => {
  it('a receiver failing 3 times then succeeding gets the event 4 times, then the next; the log shows 4 attempts', async () => {
    const account = await server.account();
    const r = await receiver();
    r.answer = (_d, n) => ({ status: n < 3 ? 500 : 200 });
    const { id } = await endpoint(account, r.url);
    const first = await testEvent(account, id);
    const second = await testEvent(account, id);
    await r.waitForCount(5);
    expect(r.ids()).toEqual([first, first, first, first, second]);
    const log = await logUntil(account, id, (l) => l.length >= 5);
    expect(log.map((d) => [d.eventId, d.attempt, d.status])).toEqual([[first, 1, 500], [first, 2, 500], [first, 3, 500], [first, 4, 200], [second, 1, 200]]);
    for (const d of log) expect(d.latencyMs).toBeGreaterThanOrEqual(0);
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(/switchboard_webhook_attempts_total\{outcome="failed"\} [1-9]/);
    expect(metrics).toMatch(/switchboard_webhook_attempts_total\{outcome="delivered"\} [1-9]/);
    expect(metrics).toContain(`switchboard_webhook_backlog_events{endpoint="${id}"} 0`);
    expect(metrics).toContain('switchboard_webhook_attempt_seconds_bucket');
    const state = await api(account.apiKey, 'GET', `/v1/webhook-endpoints/${id}`);
    expectSpecResponse('/v1/webhook-endpoints/{endpointId}', 'GET', 200, state.body, state.headers);
    expect(state.body).toMatchObject({ cursor: second, backlog: 0, enabled: true });
  });

  it('429 with Retry-After waits as asked, not the (much shorter) backoff', async () => {
    const account = await server.account();
    const r = await receiver();
    r.answer = (_d, n) => (n === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 });
    const { id } = await endpoint(account, r.url);
    await testEvent(account, id);
    const [a, b] = await r.waitForCount(2);
    expect(b!.at - a!.at).toBeGreaterThanOrEqual(950);
    expect(b!.headers['webhook-id']).toBe(a!.headers['webhook-id']);
  });

  it('a receiver that hangs is timed out and retried', async () => {
    const account = await server.account();
    const r = await receiver();
    r.answer = (_d, n) => (n === 0 ? 'hang' : { status: 200 });
    const { id } = await endpoint(account, r.url);
    const eventId = await testEvent(account, id);
    await r.waitForCount(2);
    const log = await logUntil(account, id, (l) => l.length >= 2);
    expect(log[0]).toMatchObject({ eventId, attempt: 1, status: null, error: 'timeout' });
    expect(log[0].latencyMs).toBeGreaterThanOrEqual(webhooks.timeoutMs - 5);
    expect(log[1]).toMatchObject({ eventId, attempt: 2, status: 200 });
  });

  it('a redirect is a failure, never followed', async () => {
    const account = await server.account();
    const target = await receiver();
    const r = await receiver();
    r.answer = (_d, n) => (n === 0 ? { status: 307, headers: { location: target.url } } : { status: 200 });
    const { id } = await endpoint(account, r.url);
    await testEvent(account, id);
    await r.waitForCount(2);
    expect(target.deliveries).toHaveLength(0);
    expect((await logUntil(account, id, (l) => l.length >= 2))[0].status).toBe(307);
  });
});

describe('replay, filter, rotation', () => {
  it('replay from a cursor re-delivers every later event with the same webhook-id', async () => {
    const account = await server.account();
    const r = await receiver();
    const { id } = await endpoint(account, r.url);
    const ids = [await testEvent(account, id), await testEvent(account, id), await testEvent(account, id)];
    await r.waitForIds(ids);
    const replayed = await api(account.apiKey, 'POST', `/v1/webhook-endpoints/${id}/replay`, { after: ids[0] });
    expect(replayed.status).toBe(200);
    expectSpecResponse('/v1/webhook-endpoints/{endpointId}/replay', 'POST', 200, replayed.body, replayed.headers);
    await r.waitForCount(5);
    expect(r.ids()).toEqual([...ids, ids[1], ids[2]]);
    const expired = await api(account.apiKey, 'POST', `/v1/webhook-endpoints/${id}/replay`, { after: '9007199254740991' });
    expect(expired.status).toBe(410);
    expectSpecResponse('/v1/webhook-endpoints/{endpointId}/replay', 'POST', 410, expired.body, expired.headers);
  });

  it('an endpoint gets only the types it asked for, and no other endpoint\'s webhook.test', async () => {
    const account = await server.account();
    const r = await receiver();
    const other = await receiver();
    const { id } = await endpoint(account, r.url, { eventTypes: ['conversation.appeared'] });
    const { id: otherId } = await endpoint(account, other.url);
    const host = await new TestHost(server.url, account.connectorKey).lease();
    await testEvent(account, otherId);
    await host.conversation(server, account.accountId, 'direct', ['+14155550123']);
    const [delivery] = await r.waitForCount(1);
    expect(JSON.parse(delivery!.body).type).toBe('conversation.appeared');
    await other.waitForCount(2);
    expect(other.deliveries.map((d) => JSON.parse(d.body).type)).toEqual(['webhook.test', 'conversation.appeared']);
    // r skipped the other endpoint's test event: its cursor is past it, and its test event arrives next.
    const own = await testEvent(account, id);
    await r.waitForIds([own]);
    expect(r.ids()).toHaveLength(2);
  });

  it('after a rotation both secrets verify during the overlap', async () => {
    const account = await server.account();
    const r = await receiver();
    const { id, secret: old } = await endpoint(account, r.url);
    const rotated = await api(account.apiKey, 'POST', `/v1/webhook-endpoints/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expectSpecResponse('/v1/webhook-endpoints/{endpointId}/rotate-secret', 'POST', 200, rotated.body, rotated.headers);
    expect(rotated.body.secret).not.toBe(old);
    expect(Date.parse(rotated.body.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    await testEvent(account, id);
    const [delivery] = await r.waitForCount(1);
    expect(delivery!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    for (const secret of [old, rotated.body.secret]) expect(new Webhook(secret).verify(delivery!.body, delivery!.headers)).toBeTruthy();
  });
});

describe('the endpoints API', () => {
  it('another account\'s endpoint is 404, like an unknown one', async () => {
    const owner = await server.account();
    const stranger = await server.account();
    const r = await receiver();
    const { id } = await endpoint(owner, r.url);
    for (const [method, path] of [['GET', ''], ['PATCH', ''], ['DELETE', ''], ['POST', '/rotate-secret'], ['GET', '/deliveries'], ['POST', '/replay'], ['POST', '/test']] as const) {
      const answer = await api(stranger.apiKey, method, `/v1/webhook-endpoints/${id}${path}`, method === 'PATCH' ? { enabled: false } : method === 'POST' && path === '/replay' ? { after: '0' } : undefined);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.error).toBe('webhook_endpoint_not_found');
    }
    expect((await api(stranger.apiKey, 'GET', '/v1/webhook-endpoints')).body.endpoints).toEqual([]);
    expect((await api(owner.apiKey, 'GET', '/v1/webhook-endpoints')).body.endpoints.map((e: any) => e.id)).toEqual([id]);
  });

  it('bad bodies are 400 invalid_body; PATCH disables and enables; DELETE removes', async () => {
    const account = await server.account();
    const r = await receiver();
    const repeated = ['poll.voted', 'poll.voted'];
    for (const body of [{}, { url: r.url, extra: 1 }, { url: r.url, eventTypes: ['no.such'] }, { url: 5 }, { url: r.url, eventTypes: repeated }]) {
      const answer = await api(account.apiKey, 'POST', '/v1/webhook-endpoints', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error).toBe('invalid_body');
      expectSpecResponse('/v1/webhook-endpoints', 'POST', 400, answer.body, answer.headers);
    }
    const { id } = await endpoint(account, r.url);
    // uniqueItems (specs: WebhookEventTypes) on an update too.
    const twice = await api(account.apiKey, 'PATCH', `/v1/webhook-endpoints/${id}`, { eventTypes: repeated });
    expect(twice.status).toBe(400);
    expect(twice.body.error).toBe('invalid_body');
    const disabled = await api(account.apiKey, 'PATCH', `/v1/webhook-endpoints/${id}`, { enabled: false });
    expectSpecResponse('/v1/webhook-endpoints/{endpointId}', 'PATCH', 200, disabled.body, disabled.headers);
    expect(disabled.body).toMatchObject({ enabled: false, disabledReason: 'operator' });
    const eventId = await testEvent(account, id);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(r.deliveries).toHaveLength(0);
    await api(account.apiKey, 'PATCH', `/v1/webhook-endpoints/${id}`, { enabled: true });
    await r.waitForIds([eventId]);
    expect((await api(account.apiKey, 'DELETE', `/v1/webhook-endpoints/${id}`)).status).toBe(204);
    expect((await api(account.apiKey, 'GET', `/v1/webhook-endpoints/${id}`)).status).toBe(404);
  });
});

describe('an endpoint whose backlog emptied stays held for a moment', () => {
  /** Waits until the attempt at `eventId` is logged: its worker then waits for the next event. */
  const logged = (account: TestAccount, id: string, eventId: string) => logUntil(account, id, (log) => log.some((d) => d.eventId === eventId));

  it('its next event goes out on the commit signal, without claiming it again', async () => {
    const account = await server.account();
    const r = await receiver();
    const { id } = await endpoint(account, r.url);
    await logged(account, id, await testEvent(account, id));
    const store = server.services.store.webhooks;
    const claimDue = store.claimDue.bind(store);
    const claimed: string[] = [];
    const spy = vi.spyOn(store, 'claimDue').mockImplementation(async (...args) => {
      const claims = await claimDue(...args);
      claimed.push(...claims.map((c) => c.endpoint.id));
      return claims;
    });
    try {
      const next = await testEvent(account, id);
      await r.waitForIds([next]);
      expect(claimed).not.toContain(id);
    } finally {
      spy.mockRestore();
    }
  });

  it('a PATCH while it is held applies to the next event: a new URL gets it, a disabled endpoint gets nothing', async () => {
    const account = await server.account();
    const [first, second] = [await receiver(), await receiver()];
    const { id } = await endpoint(account, first.url);
    await logged(account, id, await testEvent(account, id));
    expect((await api(account.apiKey, 'PATCH', `/v1/webhook-endpoints/${id}`, { url: second.url })).status).toBe(200);
    const moved = await testEvent(account, id);
    await second.waitForIds([moved]);
    await logged(account, id, moved);
    expect(first.ids()).not.toContain(moved);
    expect((await api(account.apiKey, 'PATCH', `/v1/webhook-endpoints/${id}`, { enabled: false })).status).toBe(200);
    const held = await testEvent(account, id);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect([...first.ids(), ...second.ids()]).not.toContain(held);
    await api(account.apiKey, 'PATCH', `/v1/webhook-endpoints/${id}`, { enabled: true });
    await second.waitForIds([held]);
  });

  it('a replay while it is held re-delivers from the cursor', async () => {
    const account = await server.account();
    const r = await receiver();
    const { id } = await endpoint(account, r.url);
    const events = [await testEvent(account, id), await testEvent(account, id)];
    await logged(account, id, events[1]!);
    expect((await api(account.apiKey, 'POST', `/v1/webhook-endpoints/${id}/replay`, { after: String(Number(events[0]) - 1) })).status).toBe(200);
    await r.waitForCount(4);
    expect(r.ids()).toEqual([...events, ...events]);
  });
});

describe('SSRF protections', () => {
  it('refuses http to a public host, internal addresses and credentials in the URL', async () => {
    const account = await server.account();
    for (const url of ['http://example.com/hook', 'https://10.0.0.1/hook', 'https://169.254.169.254/latest', 'https://[fd00::1]/', 'https://[::ffff:192.168.1.1]/', 'https://user:pw@example.com/', 'ftp://example.com/', 'not a url']) {
      const answer = await api(account.apiKey, 'POST', '/v1/webhook-endpoints', { url });
      expect(answer.status, url).toBe(422);
      expect(answer.body.error).toBe('webhook_url_refused');
      expectSpecResponse('/v1/webhook-endpoints', 'POST', 422, answer.body, answer.headers);
    }
    expect((await api(account.apiKey, 'POST', '/v1/webhook-endpoints', { url: 'https://example.com/hook' })).status).toBe(201);
  });
});

describe('an endpoint failing for the whole retry window is disabled', () => {
  let short: TestServer;
  beforeAll(async () => {
    short = await startTestServer({ readRateLimit: 0, webhooks: { ...webhooks, disableAfterMs: 300 } });
  });
  afterAll(async () => {
    await short.stopAndClean();
  });

  it('disables it, says so on the stream and to the other endpoints, and resumes at the stuck event once enabled', async () => {
    const account = await short.account();
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${short.url}${path}`, { method, headers: headers(account.apiKey), ...(body === undefined ? {} : { body: JSON.stringify(body) }) }).then(async (r) => ({ status: r.status, body: await r.json() as any }));
    const failing = await receiver();
    failing.answer = () => ({ status: 500 });
    const watcher = await receiver();
    const { body: broken } = await call('POST', '/v1/webhook-endpoints', { url: failing.url });
    const { body: other } = await call('POST', '/v1/webhook-endpoints', { url: watcher.url, eventTypes: ['webhook.endpoint_disabled'] });
    const { body: sent } = await call('POST', `/v1/webhook-endpoints/${broken.id}/test`);
    const [notice] = await watcher.waitForCount(1);
    const event = JSON.parse(notice!.body);
    expect(event).toMatchObject({ type: 'webhook.endpoint_disabled', data: { endpointId: broken.id, url: failing.url, eventId: sent.eventId, lastError: 'status 500' } });
    expect(other.id).not.toBe(broken.id);
    const state = await call('GET', `/v1/webhook-endpoints/${broken.id}`);
    expect(state.body).toMatchObject({ enabled: false, disabledReason: 'failing' });
    const attempts = failing.deliveries.length;
    expect(attempts).toBeGreaterThan(1);
    const page = await call('GET', '/v1/events?limit=1000');
    expect(page.body.events.filter((e: any) => e.type === 'webhook.endpoint_disabled')).toHaveLength(1);

    failing.answer = () => ({ status: 200 });
    await call('PATCH', `/v1/webhook-endpoints/${broken.id}`, { enabled: true });
    await failing.waitForCount(attempts + 1);
    expect(failing.ids().at(-1)).toBe(sent.eventId);
  });
});
