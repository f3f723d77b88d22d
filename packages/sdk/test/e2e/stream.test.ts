import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awaitLog, removeDataDir, startServer } from '@switchboard/testkit';
import { SwitchboardClient, SwitchboardError, type StreamItem } from '../../src/index.ts';
import { Proxy } from '@switchboard/testkit';
import { readyAccount, startService, stopServer, type ReadyAccount, type Service } from '../support/service.ts';

/** Every event id of the account, from the JSON form: the ground truth a stream must match. */
async function allIds(a: ReadyAccount): Promise<string[]> {
  const ids: string[] = [];
  for (let after = '0'; ; ) {
    const page = await a.client.eventPage({ after, limit: 1000 });
    ids.push(...page.events.map((e) => e.id));
    if (page.nextAfter === after) return ids;
    after = page.nextAfter;
  }
}

/** Reads the stream in the background; `until(n)` resolves once n events have arrived. */
function collect(iterator: AsyncIterable<StreamItem>) {
  const items: StreamItem[] = [];
  let waiter: { count: number; resolve: () => void } | undefined;
  const done = (async () => {
    for await (const item of iterator) {
      items.push(item);
      if (waiter && items.length >= waiter.count) waiter.resolve();
    }
  })();
  return {
    items,
    done,
    ids: () => items.map((i) => ('id' in i ? i.id : `reset`)),
    until: (count: number) => (items.length >= count ? Promise.resolve() : new Promise<void>((resolve) => (waiter = { count, resolve }))),
  };
}

const sseRequests = (proxy: Proxy) => proxy.requests.filter((r) => r.startsWith('GET /v1/events'));
const lastEventId = (head: string) => /last-event-id: (\S+)/i.exec(head)?.[1];

describe('resume across a forced disconnect: no gap, no duplicate', () => {
  let service: Service;
  let proxy: Proxy;
  beforeAll(async () => {
    service = await startService();
    proxy = await new Proxy(new URL(service.server.url)).start();
  });
  afterAll(async () => {
    await proxy.stop();
    await service.stop();
  });

  it('the connection is cut halfway through an event; the SDK resumes from the last whole one', async () => {
    const a = await readyAccount(service.server);
    for (let i = 0; i < 10; i++) await a.host.received(a.direct.externalId, `before ${i}`);
    const before = await allIds(a);
    expect(before).toHaveLength(12);

    const client = new SwitchboardClient({ baseUrl: proxy.url, apiKey: a.apiKey, retry: { baseDelayMs: 10 } });
    const cut = proxy.cutNext({ after: `id: ${before[6]}\n`, extraBytes: 10 });
    const controller = new AbortController();
    const stream = collect(client.events({ signal: controller.signal }));
    await cut;
    await stream.until(12);
    for (let i = 0; i < 5; i++) await a.host.received(a.direct.externalId, `after ${i}`);
    await stream.until(17);
    controller.abort();
    await stream.done;

    expect(stream.ids()).toEqual(await allIds(a));
    const requests = sseRequests(proxy);
    expect(requests).toHaveLength(2);
    expect(lastEventId(requests[0]!)).toBe('0');
    expect(lastEventId(requests[1]!)).toBe(before[5]);
  });

  it("after: 'now' skips the retained history, and a cut before the first event resumes from the head", async () => {
    const a = await readyAccount(service.server);
    for (let i = 0; i < 3; i++) await a.host.received(a.direct.externalId, `history ${i}`);
    const head = (await allIds(a)).at(-1);
    const own = await new Proxy(new URL(service.server.url)).start();
    try {
      const client = new SwitchboardClient({ baseUrl: own.url, apiKey: a.apiKey, retry: { baseDelayMs: 10 } });
      const cut = own.cutNext({ after: 'retry: 3000\n\n', extraBytes: 0 });
      const controller = new AbortController();
      const stream = collect(client.events({ after: 'now', signal: controller.signal }));
      await cut;
      await a.host.received(a.direct.externalId, 'after now');
      await stream.until(1);
      controller.abort();
      await stream.done;

      expect(stream.items.map((i) => i.type === 'message.received' && i.data.text)).toEqual(['after now']);
      const streams = own.requests.filter((r) => r.startsWith('GET /v1/events') && /accept: text\/event-stream/i.test(r));
      expect(streams.length).toBeGreaterThanOrEqual(2);
      for (const request of streams) expect(lastEventId(request)).toBe(head);
    } finally {
      await own.stop();
    }
  });

  it('heartbeats keep an idle stream open past the idle timeout', async () => {
    const fast = await startService({ SWITCHBOARD_HEARTBEAT_MS: '20' });
    const fastProxy = await new Proxy(new URL(fast.server.url)).start();
    try {
      const a = await readyAccount(fast.server);
      const client = new SwitchboardClient({ baseUrl: fastProxy.url, apiKey: a.apiKey });
      const controller = new AbortController();
      const stream = collect(client.events({ signal: controller.signal, idleTimeoutMs: 200 }));
      await stream.until(2);
      // Fifteen heartbeats span 300 ms, longer than the idle timeout; none of them is an event.
      await fastProxy.seen(': heartbeat', 15);
      await a.host.received(a.direct.externalId, 'still here');
      await stream.until(3);
      controller.abort();
      await stream.done;
      expect(stream.items.map((i) => i.type)).toEqual(['conversation.appeared', 'conversation.appeared', 'message.received']);
      expect(sseRequests(fastProxy)).toHaveLength(1);
    } finally {
      await fastProxy.stop();
      await fast.stop();
    }
  });
});

describe('resume across a server restart', () => {
  it('the server is killed and started again on the same store; the stream carries on exactly once', async () => {
    let server = await startServer();
    const dataDir = server.dataDir;
    const proxy = await new Proxy(new URL(server.url)).start();
    try {
      const a = await readyAccount(server);
      for (let i = 0; i < 3; i++) await a.host.received(a.direct.externalId, `before ${i}`);
      const client = new SwitchboardClient({ baseUrl: proxy.url, apiKey: a.apiKey, retry: { baseDelayMs: 20, maxDelayMs: 200 } });
      const controller = new AbortController();
      const stream = collect(client.events({ signal: controller.signal }));
      await stream.until(5);

      await server.kill();
      proxy.dropAll();
      server = await startServer({}, dataDir);
      proxy.retarget(server.url);
      a.host.url = server.url;
      a.client = new SwitchboardClient({ baseUrl: server.url, apiKey: a.apiKey });
      await a.host.lease();
      for (let i = 0; i < 3; i++) await a.host.received(a.direct.externalId, `after ${i}`);
      await stream.until(8);
      controller.abort();
      await stream.done;

      expect(stream.ids()).toEqual(await allIds(a));
      expect(stream.items.slice(5).map((i) => i.type === 'message.received' && i.data.text)).toEqual(['after 0', 'after 1', 'after 2']);
    } finally {
      await proxy.stop();
      await stopServer(server);
      removeDataDir(dataDir);
    }
  });
});

describe('reset: resuming from before retention', () => {
  it('yields reset, then continues from the oldest retained event; the JSON form answers cursor_expired', async () => {
    // Events older than 300 ms are purged, every 300 ms.
    const service = await startService({ SWITCHBOARD_EVENT_RETENTION_MS: '300' });
    try {
      const a = await readyAccount(service.server);
      const [first] = (await a.client.eventPage()).events.map((e) => e.id);
      await awaitLog(service.server.child, 'retention purge');
      // A purge may have caught only the older of the account's first events: wait for one past `first`.
      const deadline = Date.now() + 10_000;
      let expired: unknown;
      for (;;) {
        expired = await a.client.eventPage({ after: first! }).catch((e: unknown) => e);
        if (expired instanceof SwitchboardError || Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }

      // The JSON form refuses the expired cursor and names the oldest retained event...
      expect(expired).toBeInstanceOf(SwitchboardError);
      expect(expired).toMatchObject({ status: 410, code: 'cursor_expired' });
      const { oldestId } = (expired as SwitchboardError).body as { oldestId: string };

      // ...and the stream says the same with a reset, then carries on.
      const controller = new AbortController();
      const stream = collect(a.client.events({ after: first!, signal: controller.signal }));
      await stream.until(1);
      await a.host.received(a.direct.externalId, 'after the purge');
      await stream.until(2);
      controller.abort();
      await stream.done;

      const [reset, event] = stream.items;
      expect(reset).toEqual({ type: 'reset', data: { reason: 'cursor_expired', requestedAfter: first, oldestId } });
      expect(event).toMatchObject({ type: 'message.received', data: { text: 'after the purge' } });
    } finally {
      await service.stop();
    }
  });
});
