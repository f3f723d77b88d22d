import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve, join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { Receiver } from '@switchboard/testkit';
import { SwitchboardClient, SwitchboardError } from '../../src/index.ts';
import { verifyWebhook, WebhookVerificationError } from '../../src/webhooks.ts';
import { Child } from '../support/process.ts';
import { startService, type Service } from '../support/service.ts';

let service: Service;
let client: SwitchboardClient;
let receiver: Receiver;
beforeAll(async () => {
  service = await startService({ SWITCHBOARD_WEBHOOK_POLL_MS: '50', SWITCHBOARD_WEBHOOK_RETRY_BASE_MS: '50' });
  const account = await service.server.account();
  client = new SwitchboardClient({ baseUrl: service.server.url, apiKey: account.apiKey });
  receiver = await Receiver.start();
});
afterAll(async () => {
  await receiver.close();
  await service.stop();
});

describe('webhook endpoints through the SDK', () => {
  it('creates, signs deliveries the SDK verifier accepts (both secrets after a rotation), replays, deletes', async () => {
    const created = await client.createWebhookEndpoint({ url: receiver.url, description: 'crm' });
    expect(created.secret).toMatch(/^whsec_/);
    expect((await client.listWebhookEndpoints()).map((e) => e.id)).toEqual([created.id]);

    const first = await client.testWebhookEndpoint(created.id);
    const [delivery] = await receiver.waitForIds([first]);
    const event = await verifyWebhook(created.secret, delivery!.body, delivery!.headers);
    expect(event).toMatchObject({ id: first, type: 'webhook.test', data: { endpointId: created.id } });
    // The SDK verifier and the reference implementation agree.
    expect(new Webhook(created.secret).verify(delivery!.body, delivery!.headers)).toEqual(event);
    await expect(verifyWebhook(created.secret, `${delivery!.body} `, delivery!.headers)).rejects.toThrow(WebhookVerificationError);
    await expect(verifyWebhook(created.secret, delivery!.body, delivery!.headers, { now: Date.now() + 600_000 })).rejects.toThrow(/tolerance/);

    const rotated = await client.rotateWebhookSecret(created.id);
    const second = await client.testWebhookEndpoint(created.id);
    const signed = (await receiver.waitForIds([second])).find((d) => d.headers['webhook-id'] === second)!;
    for (const secret of [created.secret, rotated.secret]) expect((await verifyWebhook(secret, signed.body, signed.headers)).id).toBe(second);
    expect((await verifyWebhook([`whsec_${btoa('not the secret at all!!')}`, rotated.secret], signed.body, new Headers(signed.headers))).id).toBe(second);

    const replayed = await client.replayWebhookEndpoint(created.id, first);
    expect(replayed.cursor).toBe(first);
    await receiver.waitForCount(3);
    expect(receiver.ids()).toEqual([first, second, second]);
    // The log row is written once the answer is in, just after the receiver saw the request.
    let log = await client.listWebhookDeliveries(created.id, { limit: 10 });
    while (log.deliveries.length < 3) log = await client.listWebhookDeliveries(created.id, { limit: 10 });
    expect(log.deliveries.map((d) => [d.eventId, d.status])).toEqual([[second, 204], [second, 204], [first, 204]]);

    expect((await client.updateWebhookEndpoint(created.id, { enabled: false })).disabledReason).toBe('operator');
    await client.deleteWebhookEndpoint(created.id);
    const missing = await client.getWebhookEndpoint(created.id).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(SwitchboardError);
    expect((missing as SwitchboardError).code).toBe('webhook_endpoint_not_found');
  });
});

describe('examples/webhook-receiver.ts', () => {
  it('verifies, answers, and handles each event once however often it is delivered', async () => {
    const endpoint = await client.createWebhookEndpoint({ url: receiver.url });
    const examples = resolve(import.meta.dirname, '../../examples');
    const child = new Child(join(examples, 'webhook-receiver.ts'), [], { WEBHOOK_SECRET: endpoint.secret, PORT: '0' }, examples);
    try {
      const { listening } = await child.line<{ listening: string }>((l) => 'listening' in l);
      await client.updateWebhookEndpoint(endpoint.id, { url: listening });
      const id = await client.testWebhookEndpoint(endpoint.id);
      await child.line((l) => l.id === id);
      await client.replayWebhookEndpoint(endpoint.id, String(Number(id) - 1));
      const next = await client.testWebhookEndpoint(endpoint.id);
      await child.line((l) => l.id === next);
      expect(child.lines.filter((l) => typeof l === 'object' && l !== null && 'id' in l)).toEqual([{ id, type: 'webhook.test' }, { id: next, type: 'webhook.test' }]);
      let log = await client.listWebhookDeliveries(endpoint.id);
      while (log.deliveries.filter((d) => d.eventId === next).length === 0) log = await client.listWebhookDeliveries(endpoint.id);
      expect(log.deliveries.filter((d) => d.eventId === id).map((d) => d.status)).toEqual([204, 204]);
    } finally {
      await child.stop();
    }
  });
});
