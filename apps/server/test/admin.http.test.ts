import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { loadConfig } from '../src/config.ts';
import { adminSpec, expectAdminSpec, postCommand, startTestServer, TestHost, type TestServer } from './helpers.ts';

/**
 * The admin API (specs/openapi/admin.yaml) over HTTP against the real server: who may call each
 * route, what each answers to bad input, and the flows an operator runs (accounts and keys, the
 * pause, hosts, a command's timeline, webhook endpoints and their attempts, the stream, the
 * audit log). Every answer's body is checked against the spec.
 */

// The generated admin document, every route of it: a route added to the spec is in the matrix below.
const spec = adminSpec;

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT';
const operations: Array<{ method: Method; path: string }> = Object.entries(spec.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
  Object.keys(item).filter((m) => m !== 'parameters').map((m) => ({ method: m.toUpperCase() as Method, path })));
const opName = (o: { method: string; path: string }) => `${o.method} ${o.path}`;
const expectSpec = expectAdminSpec;

const webhooks = { ...loadConfig({}).webhooks, retryBaseMs: 20, retryMaxMs: 2_000, pollMs: 20, timeoutMs: 2_000, claimTtlMs: 3_000 };
let server: TestServer;
let operator: { secret: string; id: string };

beforeAll(async () => {
  // Failed authentications are the matrix's business here; their limit has its own server below.
  server = await startTestServer({ authFailureLimit: 0, rateLimit: 0, readRateLimit: 0, webhooks });
  operator = await server.operatorKey();
});
afterAll(() => server.stopAndClean());

type Answer = { status: number; body: any; headers: Headers };

/** A request to the admin API; `body` a value is sent as JSON, a string as it is. */
async function call(key: string | null, method: string, path: string, body?: unknown, extra: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...extra },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

/** The spec path a concrete path was made from, for checking the answer. */
function specPath(path: string): string {
  const bare = path.split('?')[0]!;
  const match = Object.keys(spec.paths).find((p) => new RegExp(`^${p.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(bare));
  expect(match, `${bare} is no route of the spec`).toBeDefined();
  return match!;
}

/** An admin call by the full operator key, expected to answer `status`, its body checked against the spec. */
async function admin(method: string, path: string, body?: unknown, status = method === 'POST' && /\/(accounts|keys|operator-keys)$/.test(path) ? 201 : 200, key = operator.secret): Promise<any> {
  const answer = await call(key, method, path, body);
  expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(status);
  expectSpec(specPath(path), method, status, answer.body);
  return answer.body;
}

let names = 0;
const uniqueName = () => `acme-${process.pid}-${Date.now()}-${++names}`;
const UNKNOWN = '01900000-0000-7000-8000-000000000000';

/** An account made through the admin API, with an API key and a connector key made there too. */
async function adminAccount(): Promise<{ accountId: string; apiKey: string; connectorKey: string; apiKeyId: string }> {
  const account = await admin('POST', '/v1/admin/accounts', { name: uniqueName() });
  const api = await admin('POST', `/v1/admin/accounts/${account.id}/keys`, { kind: 'account', label: 'api' });
  const connector = await admin('POST', `/v1/admin/accounts/${account.id}/keys`, { kind: 'connector' });
  return { accountId: account.id, apiKey: api.secret, connectorKey: connector.secret, apiKeyId: api.id };
}

const send = (apiKey: string, conversationId: string, text = 'hello') => postCommand(server.url, apiKey, 'message.send', { target: { kind: 'conversation', conversationId }, payload: { text } });

describe('who may call the admin API: every route of the spec', () => {
  it('the matrix covers the spec\'s 29 operations (a new route joins it by being in the spec)', () => {
    expect(operations.length).toBeGreaterThanOrEqual(29);
  });

  it('no key, an account API key, a connector key, a revoked operator key: 401 on every route; a read-only key: 403 on every change, never on a GET', async () => {
    const account = await server.account();
    const revoked = await server.operatorKey();
    await admin('POST', `/v1/admin/operator-keys/${revoked.id}/revoke`);
    const readOnly = await server.operatorKey('read-only');
    const concrete = (path: string) => path.replace('{accountId}', account.accountId).replace(/\{[^}]+\}/g, UNKNOWN);
    for (const op of operations) {
      const path = concrete(op.path);
      for (const [who, key] of [['no key', null], ['API key', account.apiKey], ['connector key', account.connectorKey], ['revoked operator key', revoked.secret], ['unknown key', 'sbo_nope']] as const) {
        const answer = await call(key, op.method, path);
        expect(answer.status, `${opName(op)} with ${who}`).toBe(401);
        expect(answer.body.error).toBe('unauthenticated');
        expect(answer.headers.get('www-authenticate')).toBe('Bearer');
        expectSpec(op.path, op.method, 401, answer.body);
      }
      const answer = await call(readOnly.secret, op.method, path);
      if (op.method === 'GET') {
        expect([401, 403], `${opName(op)} with a read-only key: ${JSON.stringify(answer.body)}`).not.toContain(answer.status);
        expect(answer.status, opName(op)).toBeLessThan(500);
      } else {
        expect(answer.status, `${opName(op)} with a read-only key`).toBe(403);
        expect(answer.body.error).toBe('forbidden');
        expectSpec(op.path, op.method, 403, answer.body);
      }
    }
  });

  it('an operator key opens neither the public API nor the connector protocol', async () => {
    expect((await call(operator.secret, 'GET', '/v1/conversations')).status).toBe(401);
    expect((await call(operator.secret, 'POST', '/v1/connector/lease', { hostId: 'h', osMajorVersion: 15, capabilities: [] })).status).toBe(401);
    expect((await postCommand(server.url, operator.secret, 'message.send', {})).status).toBe(401);
  });

  it('failed authentications count toward the limit per address (429 with Retry-After), as on the public API', async () => {
    const limited = await startTestServer({ authFailureLimit: 3 });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const response = await fetch(`${limited.url}/v1/admin/accounts`, { headers: { authorization: `Bearer sbo_guess${i}` } });
        statuses.push(response.status);
        if (response.status === 429) {
          expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
          expectSpec('/v1/admin/accounts', 'GET', 429, await response.json());
        }
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
    } finally {
      await limited.stopAndClean();
    }
  });
});

describe('bad input on every route', () => {
  it('bad ids, bodies, queries and cursors answer the spec\'s code, route by route', async () => {
    const account = await adminAccount();
    const r = await receiver();
    const endpoint = await call(account.apiKey, 'POST', '/v1/webhook-endpoints', { url: r.url });
    expect(endpoint.status).toBe(201);
    const a = `/v1/admin/accounts/${account.accountId}`;
    const e = `${a}/webhook-endpoints/${endpoint.body.id}`;
    type Case = { path: string; body?: unknown; contentType?: string; status: number; error: string };
    const notAccount = (suffix: string, body?: unknown): Case[] => [
      { path: `/v1/admin/accounts/nope${suffix}`, body, status: 404, error: 'account_not_found' },
      { path: `/v1/admin/accounts/${UNKNOWN}${suffix}`, body, status: 404, error: 'account_not_found' },
    ];
    const notEndpoint = (suffix: string, body?: unknown): Case[] => [
      ...notAccount(`/webhook-endpoints/${endpoint.body.id}${suffix}`, body),
      { path: `${a}/webhook-endpoints/nope${suffix}`, body, status: 404, error: 'webhook_endpoint_not_found' },
      { path: `${a}/webhook-endpoints/${UNKNOWN}${suffix}`, body, status: 404, error: 'webhook_endpoint_not_found' },
    ];
    const badBodies = (path: string, ...bodies: unknown[]): Case[] => [
      { path, body: 'not json', status: 400, error: 'invalid_body' },
      { path, body: '{"a":', status: 400, error: 'invalid_body' },
      { path, body: JSON.stringify({ pad: 'x'.repeat(17 << 10) }), status: 400, error: 'invalid_body' },
      { path, body: {}, contentType: 'text/plain', status: 415, error: 'unsupported_media_type' },
      ...bodies.map((body) => ({ path, body, status: 400, error: 'invalid_body' })),
    ];
    const badQueries = (path: string, ...queries: string[]): Case[] => queries.map((q) => ({ path: `${path}?${q}`, status: 400, error: 'invalid_query' }));

    const cases: Record<string, Case[]> = {
      'GET /v1/admin/overview': badQueries('/v1/admin/overview', 'minutes=0', 'minutes=1441', 'minutes=abc', 'minutes=1.5'),
      'GET /v1/admin/accounts': [],
      'POST /v1/admin/accounts': [
        ...badBodies('/v1/admin/accounts', { name: '' }, { name: '-starts-with-dash' }, { name: 'has space' }, { name: 'x'.repeat(65) }, { name: 'ok', extra: 1 }, { nom: 'x' }),
        { path: '/v1/admin/accounts', body: { name: 'dup' }, status: 201, error: '' },
        { path: '/v1/admin/accounts', body: { name: 'dup' }, status: 409, error: 'account_exists' },
      ],
      'GET /v1/admin/accounts/{accountId}': notAccount(''),
      'POST /v1/admin/accounts/{accountId}/pause': notAccount('/pause'),
      'GET /v1/admin/accounts/{accountId}/policies': notAccount('/policies'),
      'PUT /v1/admin/accounts/{accountId}/policies': [
        ...notAccount('/policies', { pacing: { perMinute: 10 } }),
        ...badBodies(`${a}/policies`,
          // Negative, zero, over the maximum, a string, not a whole number.
          { pacing: { perMinute: -1 } }, { pacing: { perMinute: 0 } }, { pacing: { perMinute: 601 } }, { pacing: { perMinute: '10' } }, { pacing: { perMinute: 2.5 } },
          { newContacts: { perHour: 0 } }, { newContacts: { perDay: 100001 } }, { newContacts: { perHour: '15' } }, { newContacts: { perDay: -5 } },
          { loopBreaker: { maxUnanswered: 0 } }, { loopBreaker: { maxUnanswered: 10001 } }, { loopBreaker: { maxUnanswered: 'eight' } },
          // Unknown keys, at the top and within a policy.
          { speed: 1 }, { pacing: { perMinute: 5, burst: 2 } }, { newContacts: { perWeek: 3 } },
          // Wrong types and shapes.
          { pacing: {} }, { pacing: true }, { newContacts: 5 }, { loopBreaker: [8] }, [], 'null', '"off"', '7'),
      ],
      'GET /v1/admin/accounts/{accountId}/transfer-limits': notAccount('/transfer-limits'),
      'PUT /v1/admin/accounts/{accountId}/transfer-limits': [
        ...notAccount('/transfer-limits', { maxBytes: 1, allowedTypes: [] }),
        ...badBodies(`${a}/transfer-limits`, { maxBytes: 0, allowedTypes: [] }, { maxBytes: 100_000_001, allowedTypes: [] }, { maxBytes: '100', allowedTypes: [] }, { maxBytes: 100, allowedTypes: ['Image/PNG'] }, { maxBytes: 100 }, { maxBytes: 1, allowedTypes: [], extra: 1 }),
      ],
      'GET /v1/admin/accounts/{accountId}/policies/usage': [
        ...notAccount('/policies/usage'),
        ...badQueries(`${a}/policies/usage`, 'conversationId=nope', 'conversationId=12'),
      ],
      'POST /v1/admin/commands/{commandId}/release': [
        { path: '/v1/admin/commands/nope/release', status: 404, error: 'command_not_found' },
        { path: `/v1/admin/commands/${UNKNOWN}/release`, status: 404, error: 'command_not_found' },
      ],
      'POST /v1/admin/commands/{commandId}/reject': [
        { path: `/v1/admin/commands/${UNKNOWN}/reject`, status: 404, error: 'command_not_found' },
        { path: `/v1/admin/commands/${UNKNOWN}/reject`, body: { reason: 'x'.repeat(501) }, status: 400, error: 'invalid_body' },
        { path: `/v1/admin/commands/${UNKNOWN}/reject`, body: { why: 'no' }, status: 400, error: 'invalid_body' },
        { path: `/v1/admin/commands/${UNKNOWN}/reject`, body: 'not json', status: 400, error: 'invalid_body' },
      ],
      'POST /v1/admin/accounts/{accountId}/resume': notAccount('/resume'),
      'POST /v1/admin/outbound/pause': [],
      'POST /v1/admin/outbound/resume': [],
      'GET /v1/admin/accounts/{accountId}/keys': notAccount('/keys'),
      'POST /v1/admin/accounts/{accountId}/keys': [
        ...notAccount('/keys', { kind: 'account' }),
        ...badBodies(`${a}/keys`, { kind: 'operator' }, {}, { kind: 'account', label: 'x'.repeat(201) }, { kind: 'account', secret: 'mine' }),
      ],
      'POST /v1/admin/keys/{keyId}/revoke': [
        { path: '/v1/admin/keys/nope/revoke', status: 404, error: 'key_not_found' },
        { path: `/v1/admin/keys/${UNKNOWN}/revoke`, status: 404, error: 'key_not_found' },
        // An operator key is not an account's key.
        { path: `/v1/admin/keys/${operator.id}/revoke`, status: 404, error: 'key_not_found' },
      ],
      'GET /v1/admin/session': [],
      'GET /v1/admin/operator-keys': [],
      'POST /v1/admin/operator-keys': badBodies('/v1/admin/operator-keys', { role: 'admin' }, { label: 7 }, { label: 'x'.repeat(201) }),
      'POST /v1/admin/operator-keys/{keyId}/revoke': [
        { path: '/v1/admin/operator-keys/nope/revoke', status: 404, error: 'key_not_found' },
        { path: `/v1/admin/operator-keys/${UNKNOWN}/revoke`, status: 404, error: 'key_not_found' },
        { path: `/v1/admin/operator-keys/${account.apiKeyId}/revoke`, status: 404, error: 'key_not_found' },
      ],
      'GET /v1/admin/hosts': [],
      'GET /v1/admin/accounts/{accountId}/conversations': [
        ...notAccount('/conversations'),
        ...badQueries(`${a}/conversations`, 'limit=0', 'limit=201', 'limit=x', 'cursor=not-a-cursor', `cursor=${'1'.repeat(201)}`),
      ],
      'GET /v1/admin/commands': badQueries('/v1/admin/commands', 'accountId=nope', 'status=lost', 'errorCode=oops', 'type=message.shout', 'createdAfter=yesterday',
        'createdBefore=2026-13-01T00:00:00Z', 'limit=0', 'limit=201', 'cursor=abc', 'cursor=12'),
      'GET /v1/admin/commands/{commandId}': [
        { path: '/v1/admin/commands/nope', status: 404, error: 'command_not_found' },
        { path: `/v1/admin/commands/${UNKNOWN}`, status: 404, error: 'command_not_found' },
      ],
      'GET /v1/admin/accounts/{accountId}/events': [
        ...notAccount('/events'),
        ...badQueries(`${a}/events`, 'after=abc', 'after=-1', 'limit=0', 'limit=1001'),
        { path: `${a}/events?after=999999999999`, status: 410, error: 'cursor_expired' },
      ],
      'GET /v1/admin/webhook-endpoints': badQueries('/v1/admin/webhook-endpoints', 'state=broken', 'state='),
      'GET /v1/admin/accounts/{accountId}/webhook-endpoints': notAccount('/webhook-endpoints'),
      'GET /v1/admin/accounts/{accountId}/webhook-endpoints/{endpointId}': notEndpoint(''),
      'PATCH /v1/admin/accounts/{accountId}/webhook-endpoints/{endpointId}': [
        ...notEndpoint('', { enabled: true }),
        ...badBodies(e, {}, { enabled: 'yes' }, { enabled: true, url: 'https://example.com' }),
      ],
      'POST /v1/admin/accounts/{accountId}/webhook-endpoints/{endpointId}/rotate-secret': notEndpoint('/rotate-secret'),
      'GET /v1/admin/accounts/{accountId}/webhook-endpoints/{endpointId}/deliveries': [
        ...notEndpoint('/deliveries'),
        ...badQueries(`${e}/deliveries`, 'limit=0', 'limit=201', 'cursor=abc', 'cursor=1234567890123456'),
      ],
      'POST /v1/admin/accounts/{accountId}/webhook-endpoints/{endpointId}/resend': [
        ...notEndpoint('/resend', { eventId: '1' }),
        ...badBodies(`${e}/resend`, {}, { eventId: '0' }, { eventId: 1 }, { eventId: 'x' }),
        { path: `${e}/resend`, body: { eventId: '999999999999' }, status: 404, error: 'event_not_found' },
      ],
      'POST /v1/admin/accounts/{accountId}/webhook-endpoints/{endpointId}/replay': [
        ...notEndpoint('/replay', { after: '0' }),
        ...badBodies(`${e}/replay`, {}, { after: 'x' }, { after: 0 }),
        { path: `${e}/replay`, body: { after: '999999999999' }, status: 410, error: 'cursor_expired' },
      ],
      'POST /v1/admin/accounts/{accountId}/webhook-endpoints/{endpointId}/test': notEndpoint('/test'),
      'GET /v1/admin/audit': badQueries('/v1/admin/audit', 'limit=0', 'limit=201', 'cursor=abc', 'cursor=0', `cursor=${UNKNOWN}`),
    };
    // Every operation of the spec has its cases here (an empty list: it takes no input to get wrong).
    expect(Object.keys(cases).sort()).toEqual(operations.map(opName).sort());

    const dup = uniqueName();
    for (const [name, list] of Object.entries(cases)) {
      const [method, route] = name.split(' ') as [Method, string];
      for (const c of list) {
        const body = c.body !== undefined && typeof c.body === 'object' && (c.body as { name?: string }).name === 'dup' ? { name: dup } : c.body;
        const extra: Record<string, string> = c.contentType ? { 'content-type': c.contentType } : {};
        const answer = await call(operator.secret, method, c.path, body, extra);
        const what = `${name} ${c.path} ${typeof body === 'string' ? body.slice(0, 40) : JSON.stringify(body)?.slice(0, 80)}`;
        expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBe(c.status);
        if (c.status >= 400) expect(answer.body.error, what).toBe(c.error);
        expectSpec(route, method, c.status, answer.body);
      }
    }
  });
});

describe('accounts, keys and the outbound pause', () => {
  it('create an account and its keys, pause it (an accepted command\'s twin answers 503 outbound_paused), resume it', async () => {
    const name = uniqueName();
    const created = await admin('POST', '/v1/admin/accounts', { name });
    expect(created).toMatchObject({ name, outboundPaused: false });
    const api = await admin('POST', `/v1/admin/accounts/${created.id}/keys`, { kind: 'account', label: 'ci' });
    expect(api).toMatchObject({ accountId: created.id, kind: 'account', label: 'ci', revokedAt: null });
    expect(api.secret).toMatch(/^sb_/);
    expect(api.secret.startsWith(api.prefix)).toBe(true);
    const connector = await admin('POST', `/v1/admin/accounts/${created.id}/keys`, { kind: 'connector' });
    expect(connector.secret).toMatch(/^sbc_/);
    const keys = await admin('GET', `/v1/admin/accounts/${created.id}/keys`);
    expect(keys.keys.map((k: any) => [k.id, k.kind])).toEqual([[api.id, 'account'], [connector.id, 'connector']]);
    expect(JSON.stringify(keys)).not.toContain(api.secret);

    // The keys work: a host takes the lease, a conversation appears, a command is accepted.
    const host = await new TestHost(server.url, connector.secret).lease();
    const conversationId = await host.conversation(server, created.id, 'direct', ['+14155550123']);
    expect((await send(api.secret, conversationId)).status).toBe(202);

    const paused = await admin('POST', `/v1/admin/accounts/${created.id}/pause`);
    expect(paused).toMatchObject({ id: created.id, outboundPaused: true });
    expect(await admin('POST', `/v1/admin/accounts/${created.id}/pause`)).toMatchObject({ outboundPaused: true });
    const refused = await send(api.secret, conversationId);
    expect(refused.status).toBe(503);
    expect(refused.body.error).toBe('outbound_paused');
    expect(await admin('POST', `/v1/admin/accounts/${created.id}/resume`)).toMatchObject({ outboundPaused: false });
    expect((await send(api.secret, conversationId)).status).toBe(202);

    // The pause of every account holds it too, and the account's detail says so.
    expect(await admin('POST', '/v1/admin/outbound/pause')).toEqual({ paused: true });
    try {
      expect(await admin('GET', `/v1/admin/accounts/${created.id}`)).toMatchObject({ outboundPaused: false, pausedByAll: true });
      expect((await send(api.secret, conversationId)).body.error).toBe('outbound_paused');
      expect((await admin('GET', '/v1/admin/overview')).outboundPaused).toBe(true);
    } finally {
      expect(await admin('POST', '/v1/admin/outbound/resume')).toEqual({ paused: false });
    }
    expect(await admin('GET', `/v1/admin/accounts/${created.id}`)).toMatchObject({ pausedByAll: false });
    expect((await send(api.secret, conversationId)).status).toBe(202);

    // A revoked key answers 401 at once; revoking it again answers the same.
    const revoked = await admin('POST', `/v1/admin/keys/${api.id}/revoke`);
    expect(revoked.revokedAt).not.toBeNull();
    expect(await admin('POST', `/v1/admin/keys/${api.id}/revoke`)).toEqual(revoked);
    expect((await send(api.secret, conversationId)).status).toBe(401);

    // The list shows it, oldest first, with its lease as `host`.
    const { accounts } = await admin('GET', '/v1/admin/accounts');
    const listed = accounts.find((x: any) => x.id === created.id);
    expect(listed).toMatchObject({ name, host: { hostId: host.hostId, epoch: host.epoch, live: true } });
    const createdAts = accounts.map((x: any) => x.createdAt);
    expect([...createdAts].sort()).toEqual(createdAts);
  });

  it('operator keys: create (full or read-only), list without secrets, revoke (its next request is 401)', async () => {
    const full = await admin('POST', '/v1/admin/operator-keys', { label: 'ops' });
    expect(full).toMatchObject({ role: 'full', label: 'ops', revokedAt: null });
    expect(full.secret).toMatch(/^sbo_/);
    const reader = await admin('POST', '/v1/admin/operator-keys', { role: 'read-only' });
    expect(reader).toMatchObject({ role: 'read-only', label: '' });
    expect((await call(reader.secret, 'GET', '/v1/admin/hosts')).status).toBe(200);
    expect((await call(reader.secret, 'POST', '/v1/admin/outbound/pause')).status).toBe(403);
    // Each key reads its own record as the session: its id, role and label, never its secret.
    const session = await call(reader.secret, 'GET', '/v1/admin/session');
    expect(session.status).toBe(200);
    expect(session.body).toEqual({ id: reader.id, role: 'read-only', label: '', prefix: reader.prefix, createdAt: reader.createdAt, revokedAt: null });
    expect((await admin('GET', '/v1/admin/session', undefined, 200, full.secret))).toMatchObject({ id: full.id, role: 'full', label: 'ops' });
    const list = await admin('GET', '/v1/admin/operator-keys');
    expect(list.keys.map((k: any) => k.id)).toEqual(expect.arrayContaining([operator.id, full.id, reader.id]));
    expect(JSON.stringify(list)).not.toContain(full.secret);
    // The new full key works, and may revoke itself.
    expect((await admin('POST', `/v1/admin/operator-keys/${full.id}/revoke`, undefined, 200, full.secret)).revokedAt).not.toBeNull();
    expect((await call(full.secret, 'GET', '/v1/admin/hosts')).status).toBe(401);
  });
});

describe('line policies', () => {
  it('PUT replaces the set (a policy left out is off), GET and the account\'s detail show it, the audit log records it', async () => {
    const { accountId } = await adminAccount();
    const p = `/v1/admin/accounts/${accountId}/policies`;
    const off = { newContacts: null, pacing: null, loopBreaker: null, quietHours: null, firstContactApproval: false };
    // Every policy is off until an operator sets one.
    expect(await admin('GET', p)).toEqual(off);
    expect((await admin('GET', `/v1/admin/accounts/${accountId}`)).policies).toEqual(off);

    const all = {
      newContacts: { perHour: 15, perDay: 50 }, pacing: { perMinute: 10 }, loopBreaker: { maxUnanswered: 8 },
      quietHours: { from: '21:00', until: '08:00', timeZone: 'Europe/Paris', conversationTimeZones: {} }, firstContactApproval: true,
    };
    expect(await admin('PUT', p, all)).toEqual(all);
    expect(await admin('GET', p)).toEqual(all);
    expect((await admin('GET', `/v1/admin/accounts/${accountId}`)).policies).toEqual(all);
    // Any case of the id names the account.
    expect(await admin('GET', p.replace(accountId, accountId.toUpperCase()))).toEqual(all);

    // A bad body is 400 invalid_body naming the field, and changes nothing.
    for (const [body, field] of [
      [{ ...all, pacing: { perMinute: 0 } }, 'pacing.perMinute'],
      [{ ...all, loopBreaker: { maxUnanswered: 10001 } }, 'loopBreaker.maxUnanswered'],
      [{ ...all, newContacts: { perHour: '15' } }, 'newContacts.perHour'],
      [{ ...all, burst: 3 }, 'burst'],
    ] as const) {
      const refused = await admin('PUT', p, body, 400);
      expect(refused).toMatchObject({ error: 'invalid_body', field });
    }
    expect(await admin('GET', p)).toEqual(all);

    // The body is the whole set: left out or null is off; a new-contact budget with neither window is off too.
    expect(await admin('PUT', p, { pacing: { perMinute: 3 }, loopBreaker: null })).toEqual({ ...off, pacing: { perMinute: 3 } });
    expect(await admin('PUT', p, { newContacts: { perDay: 40 } })).toEqual({ ...off, newContacts: { perHour: null, perDay: 40 } });
    expect(await admin('PUT', p, { newContacts: { perHour: null } })).toEqual(off);
    expect(await admin('PUT', p, {})).toEqual(off);
    expect(await admin('GET', p)).toEqual(off);

    // Another account's policies are its own.
    const other = await adminAccount();
    expect(await admin('GET', `/v1/admin/accounts/${other.accountId}/policies`)).toEqual(off);

    // Each change is in the audit log with the policies as stored; a refused one is not.
    const { records } = await admin('GET', '/v1/admin/audit?limit=200');
    const mine = records.filter((r: any) => r.accountId === accountId && r.action === 'account.policies');
    expect(mine.map((r: any) => r.detail)).toEqual([off, off, { ...off, newContacts: { perHour: null, perDay: 40 } }, { ...off, pacing: { perMinute: 3 } }, all]);
    expect(mine[0]).toMatchObject({ operatorKeyId: operator.id, subject: null });
  });

  it('a read-only key reads them and may not change them (403, nothing changes)', async () => {
    const { accountId } = await adminAccount();
    const p = `/v1/admin/accounts/${accountId}/policies`;
    await admin('PUT', p, { pacing: { perMinute: 5 } });
    const reader = await server.operatorKey('read-only');
    expect(await admin('GET', p, undefined, 200, reader.secret)).toMatchObject({ pacing: { perMinute: 5 } });
    expect(await admin('PUT', p, { pacing: { perMinute: 50 } }, 403, reader.secret)).toMatchObject({ error: 'forbidden' });
    expect(await admin('GET', p)).toMatchObject({ pacing: { perMinute: 5 } });
  });
});

describe('hosts and the overview', () => {
  it('a host that takes a lease is listed live, renewedAt = expiresAt - the lease TTL; the overview counts it', async () => {
    const account = await server.account();
    const host = await new TestHost(server.url, account.connectorKey).lease([], 14);
    const { hosts } = await admin('GET', '/v1/admin/hosts');
    const listed = hosts.find((h: any) => h.accountId === account.accountId);
    expect(listed).toMatchObject({ hostId: host.hostId, epoch: host.epoch, osMajorVersion: 14, capabilities: [], live: true });
    expect(Date.parse(listed.expiresAt) - Date.parse(listed.renewedAt)).toBe(server.services.config.leaseTtlMs);
    const overview = await admin('GET', '/v1/admin/overview?minutes=5');
    expect(overview.hosts.live).toBeGreaterThanOrEqual(1);
    await host.release();
    const after = (await admin('GET', '/v1/admin/hosts')).hosts.find((h: any) => h.accountId === account.accountId);
    expect(after.live).toBe(false);
  });

  it('the overview has one entry per minute of the window, zeros included, and counts accepted and failed commands', async () => {
    const account = await server.account();
    const host = await new TestHost(server.url, account.connectorKey).lease();
    const conversationId = await host.conversation(server, account.accountId, 'direct', ['+14155550123']);
    const t0 = Math.floor(Date.now() / 60_000) * 60_000;
    const before = await admin('GET', '/v1/admin/overview?minutes=3');
    const t1 = Math.floor(Date.now() / 60_000) * 60_000;
    expect(before.minutes).toBe(3);
    expect(before.commandsPerMinute).toHaveLength(3);
    const minutes = before.commandsPerMinute.map((m: any) => Date.parse(m.minute));
    expect(minutes[1] - minutes[0]).toBe(60_000);
    // The current minute last.
    expect(minutes[2]).toBeGreaterThanOrEqual(t0);
    expect(minutes[2]).toBeLessThanOrEqual(t1);
    const accepted = await send(account.apiKey, conversationId);
    await host.dispatch();
    expect((await host.settle(accepted.body.commandId, 'failed', 'gateway_rejected')).status).toBe(200);
    const after = await admin('GET', '/v1/admin/overview?minutes=3');
    const sum = (o: any, k: string) => o.commandsPerMinute.reduce((n: number, m: any) => n + m[k], 0);
    expect(sum(after, 'accepted')).toBeGreaterThanOrEqual(sum(before, 'accepted') + 1);
    expect(sum(after, 'failed')).toBeGreaterThanOrEqual(1);
    expect(after.failuresByCode).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'gateway_rejected' })]));
    expect((await admin('GET', '/v1/admin/overview')).commandsPerMinute).toHaveLength(60);
  });
});

describe('commands', () => {
  it('a failed command\'s detail shows its errorCode and errorMessage, and its timeline: accepted, dispatched (host, epoch), settled', async () => {
    const account = await server.account();
    const host = await new TestHost(server.url, account.connectorKey).lease();
    const conversationId = await host.conversation(server, account.accountId, 'direct', ['+14155550123']);
    const accepted = await send(account.apiKey, conversationId);
    await host.dispatch();
    const why = { errorMessage: 'the gateway said no', errorPath: '/payload/text' };
    expect((await host.settle(accepted.body.commandId, 'failed', 'gateway_rejected', why)).status).toBe(200);
    const detail = await admin('GET', `/v1/admin/commands/${accepted.body.commandId}`);
    expect(detail.command).toMatchObject({ commandId: accepted.body.commandId, accountId: account.accountId, status: 'failed', errorCode: 'gateway_rejected', ...why });
    // The command as the account's own clients read it, plus its account.
    const own = await call(account.apiKey, 'GET', `/v1/commands/${accepted.body.commandId}`);
    expect(detail.command).toEqual({ ...own.body, accountId: account.accountId });
    expect(detail.timeline.map((s: any) => s.kind)).toEqual(['accepted', 'dispatched', 'settled']);
    expect(detail.timeline[0]).toMatchObject({ disposition: 'queued', routingPath: 'agent-turn' });
    expect(detail.timeline[1]).toMatchObject({ hostId: host.hostId, epoch: host.epoch });
    expect(detail.timeline[1].at).not.toBeNull();
    expect(detail.timeline[2]).toMatchObject({ status: 'failed', errorCode: 'gateway_rejected', ...why });
    // Any case of the id names it.
    expect((await admin('GET', `/v1/admin/commands/${accepted.body.commandId.toUpperCase()}`)).command.commandId).toBe(accepted.body.commandId);
  });

  it('the list filters by account, status, error code, type and time, newest first, paged by nextCursor', async () => {
    const account = await server.account();
    const host = await new TestHost(server.url, account.connectorKey).lease();
    const conversationId = await host.conversation(server, account.accountId, 'direct', ['+14155550123']);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await send(account.apiKey, conversationId, `n${i}`)).body.commandId);
    await host.dispatch();
    expect((await host.settle(ids[1]!, 'failed', 'gateway_rejected')).status).toBe(200);
    expect((await host.settle(ids[2]!, 'failed', 'invalid_target')).status).toBe(200);
    expect((await host.settle(ids[3]!, 'succeeded')).status).toBe(200);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: any = await admin('GET', `/v1/admin/commands?accountId=${account.accountId}&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.commands.length).toBeLessThanOrEqual(2);
      for (const c of page.commands) expect(c.accountId).toBe(account.accountId);
      seen.push(...page.commands.map((c: any) => c.commandId));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== null);
    expect(seen).toEqual([...ids].reverse());
    expect(pages).toBe(3);

    const q = (filters: string) => admin('GET', `/v1/admin/commands?accountId=${account.accountId}&${filters}`).then((p) => p.commands.map((c: any) => c.commandId));
    expect(await q('status=failed')).toEqual([ids[2], ids[1]]);
    expect(await q('status=failed&errorCode=invalid_target')).toEqual([ids[2]]);
    expect(await q('status=queued')).toEqual([ids[4], ids[0]]);
    expect(await q('type=message.send')).toHaveLength(5);
    expect(await q('type=group.leave')).toEqual([]);
    const first = await admin('GET', `/v1/admin/commands/${ids[0]}`);
    const last = await admin('GET', `/v1/admin/commands/${ids[4]}`);
    expect(await q(`createdAfter=${encodeURIComponent(new Date(Date.parse(last.command.createdAt) + 1).toISOString())}`)).toEqual([]);
    expect(await q(`createdBefore=${encodeURIComponent(first.command.createdAt)}`)).toEqual([]);
    expect(await q(`createdAfter=${encodeURIComponent(first.command.createdAt)}&createdBefore=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).toHaveLength(5);
    // Another account's commands are not in this account's list, and every account's are in the unfiltered one.
    const everyone = await admin('GET', '/v1/admin/commands?limit=200');
    expect(everyone.commands.map((c: any) => c.commandId)).toEqual(expect.arrayContaining(ids));
  });

  it('an account\'s conversations, as its clients see them', async () => {
    const account = await server.account();
    const host = await new TestHost(server.url, account.connectorKey).lease();
    const conversationId = await host.conversation(server, account.accountId, 'group', ['+14155550123', 'dana@example.com'], 'Team');
    const page = await admin('GET', `/v1/admin/accounts/${account.accountId}/conversations?limit=1`);
    expect(page.conversations).toEqual([expect.objectContaining({ conversationId, kind: 'group', name: 'Team' })]);
  });
});

/** A webhook receiver that answers with a body, so the attempts log has one to show. */
class TalkingReceiver {
  readonly received: Array<{ headers: Record<string, string>; body: string }> = [];
  status = 200;
  answer = 'thanks';
  private readonly waiters = new Set<() => void>();
  private readonly server: Server;
  constructor(server: Server) {
    this.server = server;
  }
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }
  static async start(): Promise<TalkingReceiver> {
    const http = createServer();
    const receiver = new TalkingReceiver(http);
    http.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        receiver.received.push({ headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])), body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(receiver.status, { 'content-type': 'text/plain' }).end(receiver.answer);
        for (const wake of receiver.waiters) wake();
      });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    return receiver;
  }
  async waitFor(count: number): Promise<void> {
    const deadline = Date.now() + 15_000;
    while (this.received.length < count) {
      if (Date.now() > deadline) throw new Error(`${this.received.length} of ${count} deliveries`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.waiters.delete(wake);
          resolve();
        };
        this.waiters.add(wake);
        setTimeout(wake, 100);
      });
    }
  }
  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const receivers: TalkingReceiver[] = [];
async function receiver(): Promise<TalkingReceiver> {
  const r = await TalkingReceiver.start();
  receivers.push(r);
  return r;
}
afterAll(async () => {
  for (const r of receivers) await r.close();
});

describe('webhook endpoints', () => {
  it('test, the attempts log with status and response body, resend, replay, disable and enable, rotate', async () => {
    const account = await server.account();
    const r = await receiver();
    const created = await call(account.apiKey, 'POST', '/v1/webhook-endpoints', { url: r.url });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const base = `/v1/admin/accounts/${account.accountId}/webhook-endpoints/${id}`;

    expect((await admin('GET', `/v1/admin/accounts/${account.accountId}/webhook-endpoints`)).endpoints).toEqual([
      expect.objectContaining({ id, accountId: account.accountId, url: r.url, enabled: true, failingSince: null }),
    ]);
    expect((await admin('GET', '/v1/admin/webhook-endpoints')).endpoints.map((e: any) => e.id)).toContain(id);

    // A test event reaches the receiver; its attempt is logged with the status and what the receiver said.
    r.status = 200;
    r.answer = 'got it, thanks';
    const { eventId } = await admin('POST', `${base}/test`, undefined, 202);
    await r.waitFor(1);
    expect(r.received[0]!.headers['webhook-id']).toBe(eventId);
    const log = await waitForLog(base, (d) => d.length >= 1);
    expect(log[0]).toMatchObject({ eventId, attempt: 1, status: 200, error: null, responseBody: 'got it, thanks', resend: false });

    // Resend: one signed attempt now, the event's own webhook-id, logged as a resend and answered.
    r.answer = 'again?';
    const resent = await admin('POST', `${base}/resend`, { eventId });
    expect(resent).toMatchObject({ eventId, status: 200, responseBody: 'again?', resend: true });
    expect(r.received).toHaveLength(2);
    expect(r.received[1]!.headers['webhook-id']).toBe(eventId);
    expect(new Webhook(created.body.secret).verify(r.received[1]!.body, r.received[1]!.headers)).toMatchObject({ id: eventId, type: 'webhook.test' });
    const withResend = await admin('GET', `${base}/deliveries`);
    expect(withResend.deliveries[0]).toEqual(resent);

    // Paging the log: cursors the API gave.
    const page = await admin('GET', `${base}/deliveries?limit=1`);
    expect(page.deliveries).toHaveLength(1);
    expect(page.nextCursor).not.toBeNull();
    const next = await admin('GET', `${base}/deliveries?limit=1&cursor=${page.nextCursor}`);
    expect(next.deliveries[0]).toMatchObject({ resend: false });

    // Replay from before the test event: it goes out again, in order.
    const replayed = await admin('POST', `${base}/replay`, { after: String(Number(eventId) - 1) });
    expect(replayed).toMatchObject({ id, accountId: account.accountId, cursor: String(Number(eventId) - 1) });
    await r.waitFor(3);
    expect(r.received[2]!.headers['webhook-id']).toBe(eventId);

    // Disable, enable.
    const disabled = await admin('PATCH', base, { enabled: false });
    expect(disabled).toMatchObject({ enabled: false, disabledReason: 'operator' });
    expect((await admin('GET', '/v1/admin/webhook-endpoints?state=disabled')).endpoints.map((e: any) => e.id)).toContain(id);
    expect((await admin('GET', '/v1/admin/webhook-endpoints?state=failing')).endpoints.map((e: any) => e.id)).not.toContain(id);
    // A disabled endpoint is resent to all the same.
    expect(await admin('POST', `${base}/resend`, { eventId })).toMatchObject({ status: 200, resend: true });
    const enabled = await admin('PATCH', base, { enabled: true });
    expect(enabled).toMatchObject({ enabled: true, disabledReason: null });
    expect(await admin('GET', base)).toMatchObject({ id, enabled: true });

    // Rotate: a new secret, shown once; the old one keeps signing for the overlap.
    const rotated = await admin('POST', `${base}/rotate-secret`);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.body.secret);
    expect(rotated.previousSecretExpiresAt).not.toBeNull();
    const { eventId: second } = await admin('POST', `${base}/test`, undefined, 202);
    await r.waitFor(5);
    const last = r.received.find((d) => d.headers['webhook-id'] === second)!;
    expect(new Webhook(rotated.secret).verify(last.body, last.headers)).toMatchObject({ id: second });
    expect(new Webhook(created.body.secret).verify(last.body, last.headers)).toMatchObject({ id: second });
  });

  it('a failing receiver\'s attempt shows its status and body; resend with no response shows the error', async () => {
    const account = await server.account();
    const r = await receiver();
    r.status = 500;
    r.answer = 'boom: database down';
    const created = await call(account.apiKey, 'POST', '/v1/webhook-endpoints', { url: r.url });
    const base = `/v1/admin/accounts/${account.accountId}/webhook-endpoints/${created.body.id}`;
    const { eventId } = await admin('POST', `${base}/test`, undefined, 202);
    const log = await waitForLog(base, (d) => d.some((x) => !x.resend));
    expect(log.find((x) => !x.resend)).toMatchObject({ eventId, status: 500, responseBody: 'boom: database down' });
    expect((await admin('GET', '/v1/admin/webhook-endpoints?state=failing')).endpoints).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: created.body.id, failingSince: expect.any(String) })]));
    await r.close();
    const resent = await admin('POST', `${base}/resend`, { eventId });
    expect(resent).toMatchObject({ status: null, responseBody: null, resend: true });
    expect(resent.error).toMatch(/^connection/);
  });
});

/** Polls the attempts log (it is written after the receiver answered) until `done`. */
async function waitForLog(base: string, done: (log: any[]) => boolean): Promise<any[]> {
  for (let i = 0; i < 300; i++) {
    const { deliveries } = await admin('GET', `${base}/deliveries`);
    if (done(deliveries)) return deliveries;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the attempts log never reached the expected state');
}

describe('an account\'s stream, read as an operator', () => {
  it('answers what GET /v1/events answers, and its SSE form receives a new event', async () => {
    const account = await server.account();
    const r = await receiver();
    const created = await call(account.apiKey, 'POST', '/v1/webhook-endpoints', { url: r.url });
    const base = `/v1/admin/accounts/${account.accountId}`;
    await admin('POST', `${base}/webhook-endpoints/${created.body.id}/test`, undefined, 202);
    const own = await call(account.apiKey, 'GET', '/v1/events?after=0');
    const operators = await admin('GET', `${base}/events?after=0`);
    expect(operators).toEqual(own.body);

    const abort = new AbortController();
    const response = await fetch(`${server.url}${base}/events?after=now`, { headers: { authorization: `Bearer ${operator.secret}`, accept: 'text/event-stream' }, signal: abort.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.getReader();
    const { eventId } = await admin('POST', `${base}/webhook-endpoints/${created.body.id}/test`, undefined, 202);
    let text = '';
    while (!text.includes(`id: ${eventId}\nevent: webhook.test`)) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += Buffer.from(chunk.value).toString('utf8');
    }
    abort.abort();
    expect(text).toContain(`id: ${eventId}\nevent: webhook.test`);
  });
});

describe('the audit log', () => {
  it('lists every change with the operator key that made it, newest first, and never a secret', async () => {
    const key = await admin('POST', '/v1/admin/operator-keys', { label: 'auditor' });
    const as = (method: string, path: string, body?: unknown, status?: number) => admin(method, path, body, status, key.secret);
    const account = await as('POST', '/v1/admin/accounts', { name: uniqueName() });
    const a = `/v1/admin/accounts/${account.id}`;
    const apiKey = await as('POST', `${a}/keys`, { kind: 'account' });
    await as('POST', `${a}/pause`);
    await as('POST', `${a}/resume`);
    await as('POST', '/v1/admin/outbound/pause');
    await as('POST', '/v1/admin/outbound/resume');
    await as('POST', `/v1/admin/keys/${apiKey.id}/revoke`);
    const other = await as('POST', '/v1/admin/operator-keys', { role: 'read-only' });
    await as('POST', `/v1/admin/operator-keys/${other.id}/revoke`);
    const r = await receiver();
    const owner = await server.account();
    const endpoint = await call(owner.apiKey, 'POST', '/v1/webhook-endpoints', { url: r.url });
    const e = `/v1/admin/accounts/${owner.accountId}/webhook-endpoints/${endpoint.body.id}`;
    await as('PATCH', e, { enabled: false });
    await as('PATCH', e, { enabled: true });
    const rotated = await as('POST', `${e}/rotate-secret`);
    const { eventId } = await as('POST', `${e}/test`, undefined, 202);
    await as('POST', `${e}/resend`, { eventId });
    await as('POST', `${e}/replay`, { after: '0' });
    // A change refused records nothing.
    await call(key.secret, 'POST', '/v1/admin/accounts', { name: account.name });

    const records: any[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await admin('GET', `/v1/admin/audit?limit=7${cursor ? `&cursor=${cursor}` : ''}`);
      records.push(...page.records);
      cursor = page.nextCursor;
    } while (cursor !== null);
    const mine = records.filter((x) => x.operatorKeyId === key.id).reverse();
    expect(mine.map((x) => x.action)).toEqual([
      'account.create', 'key.create', 'account.pause', 'account.resume', 'outbound.pause', 'outbound.resume', 'key.revoke',
      'operator_key.create', 'operator_key.revoke',
      'webhook_endpoint.disable', 'webhook_endpoint.enable', 'webhook_endpoint.rotate_secret', 'webhook_endpoint.test', 'webhook_endpoint.resend', 'webhook_endpoint.replay',
    ]);
    expect(mine[0]).toMatchObject({ accountId: account.id, subject: null, detail: { name: account.name } });
    expect(mine[1]).toMatchObject({ accountId: account.id, subject: apiKey.id, detail: { kind: 'account' } });
    expect(mine[4]).toMatchObject({ accountId: null, subject: null });
    expect(mine[7]).toMatchObject({ accountId: null, subject: other.id, detail: { role: 'read-only' } });
    expect(mine[11]).toMatchObject({ accountId: owner.accountId, subject: endpoint.body.id });
    expect(mine[13]).toMatchObject({ accountId: owner.accountId, subject: endpoint.body.id, detail: { eventId } });
    // Newest first, ids descending.
    const ids = records.map((x) => Number(x.id));
    expect([...ids].sort((x, y) => y - x)).toEqual(ids);
    // The key that made the operator key was the auditor's; its own creation is the first key's.
    expect(records.find((x) => x.action === 'operator_key.create' && x.subject === key.id)).toMatchObject({ operatorKeyId: operator.id });
    const text = JSON.stringify(records);
    for (const secret of [apiKey.secret, other.secret, key.secret, rotated.secret]) expect(text).not.toContain(secret);
  });
});
