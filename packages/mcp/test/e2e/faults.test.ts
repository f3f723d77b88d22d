/**
 * What a tool answers when the way to the service breaks after the service acted: the MCP server
 * over stdio, in front of a faulty HTTP hop to the real server and host.
 */
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld, stdioAgent, type Agent, type World } from '../support/world.ts';

let world: World;
let agent: Agent;
let hop: Server;
/** What the hop does to a request: pass it on, pass it on and drop the answer, or answer 502 itself. */
let fault: (method: string, path: string) => 'pass' | 'drop' | '502' = () => 'pass';
const seen: string[] = [];

beforeAll(async () => {
  world = await startWorld();
  hop = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const what = fault(req.method!, req.url!);
    seen.push(`${req.method} ${req.url} ${what}`);
    if (what === '502') {
      res.writeHead(502, { 'content-type': 'text/plain' }).end('bad gateway');
      return;
    }
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name))) as Record<string, string>;
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const answer = await fetch(`${world.server.url}${req.url}`, { method: req.method!, headers, ...(body ? { body } : {}) });
    const text = Buffer.from(await answer.arrayBuffer());
    if (what === 'drop') {
      // The service acted; its answer never reaches the MCP server.
      req.socket.destroy();
      return;
    }
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(text);
  });
  hop.listen(0, '127.0.0.1');
  await once(hop, 'listening');
  const address = hop.address() as { port: number };
  ({ agent } = await stdioAgent({ ...world.env, SWITCHBOARD_URL: `http://127.0.0.1:${address.port}` }));
});
afterAll(async () => {
  await agent?.close();
  hop?.close();
  await world?.stop();
});

/** How many command reads went through the hop. */
const reads = () => seen.filter((line) => line.startsWith('GET /v1/commands/')).length;

/** A direct conversation, made by someone writing to the account. */
async function dm(): Promise<string> {
  await world.inject(['--from', '+14155550179', '--text', 'hi']);
  for (;;) {
    const answer = await fetch(`${world.server.url}/v1/conversations?limit=200`, { headers: { authorization: `Bearer ${world.account.apiKey}` } });
    const found = ((await answer.json()) as { conversations: Array<{ conversationId: string; kind: string; participants: Array<{ externalId: string }> }> }).conversations
      .find((c) => c.kind === 'direct' && c.participants[0]?.externalId === '+14155550179');
    if (found) return found.conversationId;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function groups(): Promise<number> {
  const answer = await fetch(`${world.server.url}/v1/conversations?limit=200`, { headers: { authorization: `Bearer ${world.account.apiKey}` } });
  return ((await answer.json()) as { conversations: Array<{ kind: string }> }).conversations.filter((c) => c.kind === 'group').length;
}

describe('the way to the service breaks after it acted', () => {
  it('an admin command whose answer was lost says to look before calling again, not to retry', async () => {
    const before = await groups();
    fault = (method, path) => (method === 'POST' && path === '/v1/commands/group.create' ? 'drop' : 'pass');
    try {
      const answer = await agent.call('group_create', { participantExternalIds: ['+14155550171', '+14155550172'], payload: { text: 'Kickoff' } });
      expect(answer.isError).toBe(true);
      expect(answer.body).toMatchObject({ error: 'network', retry: 'never' });
      expect(answer.body.message).toMatch(/may have acted on it/);
    } finally {
      fault = () => 'pass';
    }
    // It had: the group is there, once.
    await expect.poll(groups, { timeout: 10_000 }).toBe(before + 1);
  });

  it('a wait the agent cancels stops reading the command', async () => {
    const conversationId = await dm();
    world.host.pause();
    try {
      const cancel = new AbortController();
      const call = agent.client.callTool({ name: 'message_send', arguments: { conversationId, payload: { text: 'held' }, wait: true, timeoutMs: 30_000 } }, undefined, { signal: cancel.signal });
      await expect.poll(() => reads(), { timeout: 10_000 }).toBeGreaterThan(0);
      cancel.abort();
      await expect(call).rejects.toThrow();
      // The SDK polls every 2 s at most; give a running read time to finish, then none follows.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      const after = reads();
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      expect(reads()).toBe(after);
    } finally {
      world.host.resume();
    }
  });

  it('a wait that cannot read the outcome still answers the accepted command, to be read, not sent again', async () => {
    fault = (method, path) => (method === 'GET' && path.startsWith('/v1/commands/') ? '502' : 'pass');
    try {
      const answer = await agent.call('group_create', { participantExternalIds: ['+14155550173', '+14155550174'], payload: { text: 'Kickoff' }, wait: true, timeoutMs: 5_000 });
      expect(answer.isError, answer.text).toBe(false);
      expect(answer.body).toMatchObject({ commandId: expect.any(String), settled: false });
      expect(answer.body.note).toMatch(/do not send it again/);
      expect(seen.some((line) => line.startsWith('GET /v1/commands/') && line.endsWith('502'))).toBe(true);
    } finally {
      fault = () => 'pass';
    }
  });
});
