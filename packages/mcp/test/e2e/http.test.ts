/**
 * The streamable HTTP transport, and the error codes that need their own account or server: no
 * live connector host, a wrong API key, the rate limit.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCatalog } from '@switchboard/contracts';
import { removeDataDir, startServer, type ServerProcess } from '@switchboard/testkit';
import { httpAgent, startWorld, type World } from '../support/world.ts';

/** POSTs tools/list to the MCP endpoint with the given Host header (fetch cannot set one); the status. */
function listToolsWithHost(endpoint: string, host: string): Promise<number> {
  const url = new URL(endpoint);
  return new Promise<number>((resolve, reject) => {
    const headers = { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', reject);
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
  });
}

const catalogError = (code: keyof typeof errorCatalog) => ({ error: code, retry: errorCatalog[code].retry, meaning: errorCatalog[code].description, status: errorCatalog[code].status });

describe('streamable HTTP', () => {
  let world: World;
  let session: Awaited<ReturnType<typeof httpAgent>>;
  beforeAll(async () => {
    world = await startWorld();
    session = await httpAgent(world.env);
  });
  afterAll(async () => {
    await session?.close();
    await world?.stop();
  });

  it('lists the tools and sends: a new contact, then the conversation it made, waited for; a repeat is adopted', async () => {
    const { agent } = session;
    const { tools } = await agent.client.listTools();
    expect(tools.map((t) => t.name)).toContain('message_send');
    const first = await agent.ok('message_send_to_new_contact', { recipientExternalId: '+14155550199', payload: { text: 'Hello over HTTP' }, wait: true });
    expect(first).toMatchObject({ routingPath: 'admin', idempotent: false, status: 'succeeded' });
    const { conversations } = await agent.ok('list_conversations', { limit: 10 });
    const conversationId = conversations.find((c: any) => c.participants[0]?.externalId === '+14155550199').conversationId;
    const args = { conversationId, payload: { kind: 'poll', question: 'Ship it?', options: ['yes', 'no'] }, wait: true };
    const sent = await agent.ok('message_send', args);
    expect(sent).toMatchObject({ disposition: 'queued', status: 'succeeded' });
    // Each HTTP request gets its own MCP server; the Idempotency-Keys are shared.
    expect(await agent.ok('message_send', args)).toMatchObject({ commandId: sent.commandId, disposition: 'adopted' });
  });

  it('answers only on /mcp, POST only, and with SWITCHBOARD_MCP_HTTP_TOKEN set only with that bearer token', async () => {
    expect((await fetch(session.http.url.replace('/mcp', '/other'), { method: 'POST' })).status).toBe(404);
    expect((await fetch(session.http.url)).status).toBe(405);
    const token = randomUUID();
    const guarded = await httpAgent({ ...world.env, SWITCHBOARD_MCP_HTTP_TOKEN: token }, { authorization: `Bearer ${token}` });
    try {
      expect((await guarded.agent.ok('capabilities')).hostId).toBe(world.host.hostId);
      const refused = await fetch(guarded.http.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
      expect(refused.status).toBe(401);
    } finally {
      await guarded.close();
    }
  });

  it('refuses a Host header other than its own (DNS rebinding)', async () => {
    expect(await listToolsWithHost(session.http.url, 'evil.example:80')).toBe(403);
  });

  it('accepts a Host header listed in SWITCHBOARD_MCP_ALLOWED_HOSTS', async () => {
    const proxied = await httpAgent({ ...world.env, SWITCHBOARD_MCP_ALLOWED_HOSTS: 'mcp.internal:443' });
    try {
      expect(await listToolsWithHost(proxied.http.url, 'mcp.internal:443')).toBe(200);
    } finally {
      await proxied.close();
    }
  });

  it('unauthenticated: a wrong API key is a tool error, not a crash', async () => {
    const wrong = await httpAgent({ ...world.env, SWITCHBOARD_API_KEY: 'sb_not_a_key' });
    try {
      const answer = await wrong.agent.call('list_conversations');
      expect(answer).toMatchObject({ isError: true, body: catalogError('unauthenticated') });
      expect((await wrong.agent.call('capabilities')).isError).toBe(true);
    } finally {
      await wrong.close();
    }
  });
});

describe('an account without a live connector host, on a server with a rate limit of 3 commands a minute', () => {
  let server: ServerProcess;
  let session: Awaited<ReturnType<typeof httpAgent>>;
  beforeAll(async () => {
    server = await startServer({ SWITCHBOARD_RATE_LIMIT: '3' });
    const account = await server.account();
    session = await httpAgent({ SWITCHBOARD_URL: server.url, SWITCHBOARD_API_KEY: account.apiKey });
  });
  afterAll(async () => {
    await session?.close();
    await server?.stop();
    if (server) removeDataDir(server.dataDir);
  });

  it('no_live_connector from capabilities and from a command', async () => {
    expect(await session.agent.call('capabilities')).toMatchObject({ isError: true, body: catalogError('no_live_connector') });
    const answer = await session.agent.call('group_create', { participantExternalIds: ['+14155550123'], payload: { text: 'hi' } });
    expect(answer).toMatchObject({ isError: true, body: catalogError('no_live_connector') });
  });

  it('rate_limited, with retryAfterSeconds', async () => {
    let answer;
    for (let i = 0; i < 6; i++) {
      answer = await session.agent.call('message_send_to_new_contact', { recipientExternalId: '+14155550123', payload: { text: `n${i}` } });
      if (answer.body.error === 'rate_limited') break;
    }
    expect(answer).toMatchObject({ isError: true, body: catalogError('rate_limited') });
    expect(answer!.body.retryAfterSeconds).toBeGreaterThanOrEqual(1);
  });
});
