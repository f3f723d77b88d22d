import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BlueBubblesStandIn } from './server.ts';

let dir: string;
let standIn: BlueBubblesStandIn;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bb-stand-in-'));
  standIn = await new BlueBubblesStandIn({ dbPath: join(dir, 'sim.db'), account: 'acct', password: 'pw', feedPollMs: 5 }).start();
});

afterAll(async () => {
  await standIn.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function call(method: string, path: string, body?: unknown, password: string | null = 'pw') {
  const url = `${standIn.url}/api/v1${path}${password === null ? '' : `${path.includes('?') ? '&' : '?'}password=${password}`}`;
  const response = await fetch(url, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe('the BlueBubbles stand-in answers as BlueBubbles Server 1.9.9 does', () => {
  test('AuthMiddleware: no password and a wrong one are 401 in the envelope', async () => {
    expect(await call('GET', '/server/info', undefined, null)).toEqual({ status: 401, body: { status: 401, message: 'You are not authorized to access this resource', error: { type: 'Authentication Error', message: 'Missing server password!' } } });
    expect((await call('GET', '/server/info', undefined, 'nope')).body.error).toEqual({ type: 'Authentication Error', message: 'Unauthorized' });
  });

  test('server info carries os_version, private_api and helper_connected', async () => {
    const { status, body } = await call('GET', '/server/info');
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ os_version: '15.5', server_version: '1.9.9', private_api: true, helper_connected: true });
  });

  test('MessageValidator.validateText: AppleScript needs a tempGuid; a queued tempGuid is refused; an effect implies the Private API', async () => {
    standIn.platform.receive({ from: '+14155550999', text: 'hi' });
    const noTemp = await call('POST', '/message/text', { chatGuid: 'iMessage;-;+14155550999', message: 'x' });
    expect(noTemp).toMatchObject({ status: 400, body: { error: { type: 'Validation Error', message: "A 'tempGuid' is required when sending via AppleScript" } } });
    standIn.options.sendLatencyMs = 300;
    const first = call('POST', '/message/text', { chatGuid: 'iMessage;-;+14155550999', message: 'once', tempGuid: 't-1' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const again = await call('POST', '/message/text', { chatGuid: 'iMessage;-;+14155550999', message: 'once', tempGuid: 't-1' });
    expect(again.body.error.message).toBe('Message is already queued to be sent! (Temp GUID: t-1)');
    expect(await first).toMatchObject({ status: 200, body: { message: 'Message sent!', data: { tempGuid: 't-1', text: 'once', isFromMe: true, error: 0 } } });
    standIn.options.sendLatencyMs = 0;
    const effect = await call('POST', '/message/text', { chatGuid: 'iMessage;-;+14155550999', message: 'boom', tempGuid: 't-2', effectId: 'com.apple.messages.effect.CKConfettiEffect' });
    expect(effect.body.data).toMatchObject({ expressiveSendStyleId: 'com.apple.messages.effect.CKConfettiEffect' });
  });

  test('unknown chats and messages are 404 "does not exist"; a reaction to an unknown message is 400', async () => {
    expect(await call('GET', '/chat/iMessage;-;nobody')).toMatchObject({ status: 404, body: { error: { message: 'Chat does not exist!' } } });
    expect(await call('GET', '/message/NOPE')).toMatchObject({ status: 404, body: { error: { message: 'Message does not exist!' } } });
    expect(await call('POST', '/message/react', { chatGuid: 'iMessage;-;+14155550999', selectedMessageGuid: 'NOPE', reaction: 'love' })).toMatchObject({ status: 400, body: { error: { message: 'Selected message does not exist!' } } });
  });

  test('webhooks: registered with POST /webhook, an unknown event is refused, and an inbound message is posted as new-message', async () => {
    expect((await call('POST', '/webhook', { url: 'http://127.0.0.1:9/x', events: ['new-mesage'] })).status).toBe(400);
    expect(await call('POST', '/webhook', { url: 'http://127.0.0.1:9/x', events: ['new-message'] })).toMatchObject({ status: 200, body: { data: { url: 'http://127.0.0.1:9/x', events: ['new-message'] } } });
    const injected = standIn.platform.receive({ from: '+14155550998', text: 'ping' });
    await expect.poll(() => standIn.delivered.find((d) => (d.body as any).data.guid === injected.messageExternalId)?.body).toMatchObject({
      type: 'new-message', data: { text: 'ping', isFromMe: false, handle: { address: '+14155550998' }, chats: [{ guid: 'iMessage;-;+14155550998', style: 45 }] },
    });
  });
});
