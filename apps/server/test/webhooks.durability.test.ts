import { afterAll, describe, expect, it } from 'vitest';
import { Receiver, removeDataDir, startServer, type ServerProcess } from '@switchboard/testkit';
import { headers } from './helpers.ts';

const started: ServerProcess[] = [];
let receiver: Receiver | undefined;
afterAll(async () => {
  for (const s of started) await s.kill();
  for (const dir of new Set(started.map((s) => s.dataDir))) removeDataDir(dir);
  await receiver?.close();
});

const env = {
  SWITCHBOARD_READ_RATE_LIMIT: '0',
  SWITCHBOARD_WEBHOOK_TIMEOUT_MS: '500',
  SWITCHBOARD_WEBHOOK_CLAIM_TTL_MS: '1000',
  SWITCHBOARD_WEBHOOK_POLL_MS: '50',
  SWITCHBOARD_WEBHOOK_RETRY_BASE_MS: '50',
};

async function api(url: string, key: string, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${url}${path}`, { method, headers: headers(key), ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  expect(response.status, path).toBeLessThan(300);
  return response.json();
}

describe('a server crash loses no webhook delivery', () => {
  it('after kill -9 mid-delivery, every event arrives; only the unacknowledged attempt is repeated, with the same webhook-id and body', async () => {
    const first = await startServer(env);
    started.push(first);
    const account = await first.account();
    receiver = await Receiver.start();
    let killed: Promise<void> | undefined;
    // The fifth delivery is never answered: the server dies while it is under way.
    receiver.answer = (_d, n) => {
      if (n !== 4) return { status: 200 };
      killed ??= first.kill();
      return 'hang';
    };
    const { id } = await api(first.url, account.apiKey, 'POST', '/v1/webhook-endpoints', { url: receiver.url });
    // Queue the events while the endpoint is disabled, so all of them are pending at the crash.
    await api(first.url, account.apiKey, 'PATCH', `/v1/webhook-endpoints/${id}`, { enabled: false });
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await api(first.url, account.apiKey, 'POST', `/v1/webhook-endpoints/${id}/test`)).eventId);
    await api(first.url, account.apiKey, 'PATCH', `/v1/webhook-endpoints/${id}`, { enabled: true });
    await receiver.waitForCount(5);
    await killed;
    expect(receiver.ids()).toEqual(ids.slice(0, 5));

    const second = await startServer(env, first.dataDir);
    started.push(second);
    await receiver.waitForIds(ids);
    const got = receiver.ids();
    // In order, each once, except the attempt the crash cut off, which is attempted again.
    expect(got).toEqual([...ids.slice(0, 5), ...ids.slice(4)]);
    const [cut, again] = receiver.deliveries.filter((d) => d.headers['webhook-id'] === ids[4]);
    expect(again!.body).toBe(cut!.body);
    const log = await api(second.url, account.apiKey, 'GET', `/v1/webhook-endpoints/${id}/deliveries?limit=200`);
    // (ids[4] was answered long before the last event, so its row is in.)
    // The cut-off attempt never got an answer, so the log has only what came after the restart.
    expect(log.deliveries.filter((d: any) => d.eventId === ids[4]).map((d: any) => d.status)).toEqual([200]);
    // The cursor moves just after the receiver answers the last one.
    let endpoint = await api(second.url, account.apiKey, 'GET', `/v1/webhook-endpoints/${id}`);
    while (endpoint.backlog > 0) endpoint = await api(second.url, account.apiKey, 'GET', `/v1/webhook-endpoints/${id}`);
    expect(endpoint).toMatchObject({ cursor: ids.at(-1), backlog: 0 });
  });

  it('acknowledgements recorded before kill -9 hold: nothing acknowledged is delivered again after the restart', async () => {
    // The cursor moves without waiting for the disk (see the store); a killed process must still keep it.
    const first = await startServer(env);
    started.push(first);
    const account = await first.account();
    const hooks = await Receiver.start();
    try {
      const { id } = await api(first.url, account.apiKey, 'POST', '/v1/webhook-endpoints', { url: hooks.url });
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) ids.push((await api(first.url, account.apiKey, 'POST', `/v1/webhook-endpoints/${id}/test`)).eventId);
      await hooks.waitForIds(ids);
      let endpoint = await api(first.url, account.apiKey, 'GET', `/v1/webhook-endpoints/${id}`);
      while (endpoint.cursor !== ids.at(-1)) endpoint = await api(first.url, account.apiKey, 'GET', `/v1/webhook-endpoints/${id}`);
      await first.kill();

      const second = await startServer(env, first.dataDir);
      started.push(second);
      const after = (await api(second.url, account.apiKey, 'POST', `/v1/webhook-endpoints/${id}/test`)).eventId as string;
      await hooks.waitForIds([after]);
      expect(hooks.ids()).toEqual([...ids, after]);
    } finally {
      await hooks.close();
    }
  });

  it('the operator CLI lists endpoints with their state and backlog, and disables and enables them', async () => {
    const server = started.at(-1)!;
    const account = await server.account();
    const { id } = await api(server.url, account.apiKey, 'POST', '/v1/webhook-endpoints', { url: 'https://example.com/hook' });
    const listed = await server.cli<any[]>('webhooks', 'list', account.accountId);
    expect(listed).toEqual([expect.objectContaining({ id, url: 'https://example.com/hook', enabled: true, backlog: 0 })]);
    expect(JSON.stringify(listed)).not.toContain('whsec_');
    expect(await server.cli('webhooks', 'disable', account.accountId, id)).toEqual({ id, enabled: false });
    expect((await server.cli<any[]>('webhooks', 'list', account.accountId))[0]).toMatchObject({ enabled: false, disabledReason: 'operator' });
    expect(await server.cli('webhooks', 'enable', account.accountId, id)).toEqual({ id, enabled: true });
  });
});
