import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { once } from 'node:events';
import { SwitchboardClient, SwitchboardNetworkError } from '../../src/index.ts';
import { backoffHook } from '../support/clocks.ts';
import { TestHost } from '../support/host.ts';
import { Proxy } from '@switchboard/testkit';
import { readyAccount, startService, type Service } from '../support/service.ts';

let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.stop());

/** A fetch that records, per request, what it sent and the status it got. */
function recordingFetch() {
  const log: Array<{ body: string; status: number }> = [];
  const fetch = async (request: Request) => {
    const body = await request.clone().text();
    const response = await globalThis.fetch(request);
    log.push({ body, status: response.status });
    return response;
  };
  return { fetch, statusesOf: (text: string) => log.filter((entry) => entry.body.includes(text)).map((entry) => entry.status) };
}

describe('429: retried on every path after Retry-After (the service did nothing)', () => {
  let limited: Service;
  beforeAll(async () => {
    // Three counted requests per second per credential: enough to hit the limit in a test.
    limited = await startService({ SWITCHBOARD_RATE_LIMIT: '3', SWITCHBOARD_RATE_LIMIT_WINDOW_MS: '1000' });
  });
  afterAll(() => limited.stop());

  it('a recipient send (admin) and an agent-turn send each go through once the window frees', async () => {
    const recorder = recordingFetch();
    const a = await readyAccount(limited.server, { fetch: recorder.fetch });
    const target = { kind: 'conversation' as const, conversationId: a.direct.conversationId };
    const recipient = (text: string) => a.client.sendMessage({ target: { kind: 'recipient', recipientExternalId: '+14155550100' }, payload: { text } });

    await Promise.all(['fill-1', 'fill-2', 'fill-3'].map((text) => a.client.sendMessage({ target, payload: { text } })));
    const admin = await recipient('admin-after-limit');
    await Promise.all(['fill-4', 'fill-5'].map(recipient));
    const agentTurn = await a.client.sendMessage({ target, payload: { text: 'agent-turn-after-limit' } });

    expect(recorder.statusesOf('admin-after-limit')).toEqual([429, 202]);
    expect(recorder.statusesOf('agent-turn-after-limit')).toEqual([429, 202]);
    const dispatched = (await a.host.dispatch()).map((c) => c.commandId);
    expect(dispatched).toHaveLength(7);
    expect(dispatched).toContain(admin.commandId);
    expect(dispatched).toContain(agentTurn.commandId);
  });
});

describe('503 no_live_connector: retried until a host holds the lease', () => {
  it('on the agent-turn path and on the admin path (checked before anything is written)', async () => {
    const account = await service.server.account();
    const host = await new TestHost(service.server.url, account).lease();
    const { conversationId } = await host.conversation('direct', ['+14155550123']);
    await host.release();
    // A backoff is when a host comes back: it takes the lease, and the retry is accepted.
    const clock = backoffHook(60_000, () => host.lease().then(() => undefined));
    const client = new SwitchboardClient({ baseUrl: service.server.url, apiKey: account.apiKey, clock, timeoutMs: 60_000 });

    const agentTurn = await client.sendMessage({ target: { kind: 'conversation', conversationId }, payload: { text: 'hi' } });
    await host.release();
    const admin = await client.sendMessage({ target: { kind: 'recipient', recipientExternalId: '+14155550101' }, payload: { text: 'hi' } });
    expect([agentTurn.disposition, admin.disposition]).toEqual(['queued', 'queued']);
    // The service asked for 5 s (Retry-After) each time; the SDK waited at least that.
    expect(clock.backoffs).toHaveLength(2);
    for (const ms of clock.backoffs) expect(ms).toBeGreaterThanOrEqual(5_000);
    expect((await host.dispatch()).map((c) => c.commandId)).toEqual([agentTurn.commandId, admin.commandId]);
  });
});

describe('a dropped connection after the service acted', () => {
  let proxy: Proxy;
  beforeAll(async () => {
    proxy = await new Proxy(new URL(service.server.url)).start();
  });
  afterAll(() => proxy.stop());

  it('agent-turn: retried with the same Idempotency-Key, adopted, executed once', async () => {
    const a = await readyAccount(service.server);
    const client = new SwitchboardClient({ baseUrl: proxy.url, apiKey: a.apiKey, retry: { baseDelayMs: 10 } });
    const dropped = proxy.cutNext({ after: 'HTTP/1.1 202', extraBytes: -'HTTP/1.1 202'.length });
    const acknowledgement = await client.applyTapback({ target: { kind: 'conversation', conversationId: a.direct.conversationId }, payload: { messageExternalId: 'm1', tapback: 'love' } });
    await dropped;
    expect(acknowledgement.disposition).toBe('adopted');
    const dispatched = await a.host.dispatch();
    expect(dispatched.map((c) => c.commandId)).toEqual([acknowledgement.commandId]);
    const keys = proxy.requests.filter((r) => r.startsWith('POST /v1/commands/reaction.tapback')).map((r) => /idempotency-key: (\S+)/i.exec(r)?.[1]);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
    expect(dispatched[0]!.logicalActionId).toBe(keys[0]);
  });

  for (const [name, send] of [
    ['recipient send', (c: SwitchboardClient) => c.sendMessage({ target: { kind: 'recipient', recipientExternalId: '+14155550102' }, payload: { text: 'hi' } })],
    ['group.create', (c: SwitchboardClient) => c.createGroup({ target: { kind: 'participants', participantExternalIds: ['+14155550102'] }, payload: { text: 'hi' } })],
  ] as const) {
    it(`admin (${name}): not retried, and the service did act exactly once`, async () => {
      const a = await readyAccount(service.server);
      const client = new SwitchboardClient({ baseUrl: proxy.url, apiKey: a.apiKey, retry: { baseDelayMs: 10 } });
      const dropped = proxy.cutNext({ after: 'HTTP/1.1 202', extraBytes: -'HTTP/1.1 202'.length });
      const error = await send(client).catch((e: unknown) => e);
      await dropped;
      expect(error).toBeInstanceOf(SwitchboardNetworkError);
      expect(error).toMatchObject({ reason: 'failed', mayHaveReachedServer: true });
      // The command exists: a retry would have made a second one.
      expect(await a.host.dispatch()).toHaveLength(1);
    });
  }
});

describe('a connection refused before sending', () => {
  it('is retried even on the admin path, and the command is written once', async () => {
    const a = await readyAccount(service.server);
    // A port nothing listens on yet; the proxy starts listening on it during the backoff.
    const probe = createServer().listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const port = (probe.address() as { port: number }).port;
    probe.close();
    await once(probe, 'close');
    const proxy = new Proxy(new URL(service.server.url));
    const clock = backoffHook(60_000, () => proxy.start(port).then(() => undefined));
    const client = new SwitchboardClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: a.apiKey, clock, timeoutMs: 60_000 });
    try {
      const acknowledgement = await client.createGroup({ target: { kind: 'participants', participantExternalIds: ['+14155550103'] }, payload: { text: 'hi' } });
      expect(clock.backoffs).toHaveLength(1);
      expect((await a.host.dispatch()).map((c) => c.commandId)).toEqual([acknowledgement.commandId]);
    } finally {
      await proxy.stop();
    }
  });
});
