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

  test('a send answers with its row before Messages sent it; is_sent shows only through the query\'s where, and turning 1 posts nothing', async () => {
    standIn.platform.receive({ from: '+14155550997', text: 'hi' });
    standIn.options.sentDelayMs = Infinity;
    const sent = await call('POST', '/message/text', { chatGuid: 'iMessage;-;+14155550997', message: 'held', tempGuid: 't-held' });
    standIn.options.sentDelayMs = 0;
    expect(sent).toMatchObject({ status: 200, body: { data: { tempGuid: 't-held', error: 0, isDelivered: false, dateDelivered: null } } });
    expect(sent.body.data).not.toHaveProperty('isSent');
    const guid = sent.body.data.guid as string;
    const proof = (where: string) => call('POST', '/message/query', { chatGuid: 'iMessage;-;+14155550997', where: [{ statement: 'message.guid = :messageGuid', args: { messageGuid: guid } }, { statement: where, args: {} }] });
    expect((await proof('message.is_sent = 1')).body.data).toEqual([]);
    const before = standIn.delivered.length;
    standIn.markSent(guid);
    expect((await proof('message.is_sent = 1')).body.data).toEqual([expect.objectContaining({ guid })]);
    expect(standIn.delivered.length).toBe(before);
    expect((await proof('message.nope = 1')).status).toBe(500);
    // TypeORM's parameters are one namespace: a `:guid` of the where replaces the chat's, so nothing matches.
    const clash = await call('POST', '/message/query', { chatGuid: 'iMessage;-;+14155550997', where: [{ statement: 'message.guid = :guid', args: { guid } }] });
    expect(clash.body.data).toEqual([]);
  });

  test('a delivery, a read and an edit post updated-message without chats; a failure posts message-send-error with them; a tapback is a row with its name', async () => {
    expect((await call('POST', '/webhook', { url: 'http://127.0.0.1:9/y', events: ['*'] })).status).toBe(200);
    const { messageExternalId: theirs } = standIn.platform.receive({ from: '+14155550996', text: 'first' });
    const sent = await call('POST', '/message/text', { chatGuid: 'iMessage;-;+14155550996', message: 'mine', tempGuid: 't-life' });
    const mine = sent.body.data.guid as string;
    const posted = (type: string, guid: string) => standIn.delivered.map((d) => d.body as any).filter((b) => b.type === type && b.data.guid === guid);

    standIn.platform.changeMessage(mine, { change: 'delivered' });
    standIn.platform.changeMessage(mine, { change: 'read' });
    await expect.poll(() => posted('updated-message', mine).length).toBe(2);
    const [delivered, read] = posted('updated-message', mine);
    // Each is the row as it is when posted.
    expect(delivered.data).toMatchObject({ isDelivered: true, dateDelivered: expect.any(Number) });
    expect(read.data).toMatchObject({ dateRead: expect.any(Number) });
    expect(read.data).not.toHaveProperty('chats');

    standIn.platform.changeMessage(theirs, { change: 'edited', text: 'first, edited' });
    await expect.poll(() => posted('updated-message', theirs)[0]?.data).toMatchObject({ text: 'first, edited', dateEdited: expect.any(Number) });
    const found = await call('GET', `/message/${theirs}?with=chats,message-summary-info`);
    expect(found.body.data).toMatchObject({ chats: [{ guid: 'iMessage;-;+14155550996' }], messageSummaryInfo: [{ editedParts: [0], retractedParts: [] }], partCount: 1 });

    standIn.platform.changeMessage(theirs, { change: 'reaction', from: '+14155550996', tapback: 'laugh', action: 'added' });
    await expect.poll(() => standIn.delivered.map((d) => d.body as any).find((b) => b.type === 'new-message' && b.data.associatedMessageGuid === `p:0/${theirs}`)?.data)
      .toMatchObject({ associatedMessageType: 'laugh', isFromMe: false, handle: { address: '+14155550996' } });

    standIn.platform.changeMessage(theirs, { change: 'unsent' });
    await expect.poll(async () => (await call('GET', `/message/${theirs}?with=message-summary-info`)).body.data)
      .toMatchObject({ text: null, partCount: 0, dateRetracted: null, dateEdited: expect.any(Number), messageSummaryInfo: [{ retractedParts: [0] }] });

    const other = await call('POST', '/message/text', { chatGuid: 'iMessage;-;+14155550996', message: 'doomed', tempGuid: 't-doomed' });
    standIn.platform.changeMessage(other.body.data.guid, { change: 'failed', reason: 'recipient_unreachable', platformMessage: null });
    await expect.poll(() => posted('message-send-error', other.body.data.guid)[0]?.data).toMatchObject({ error: 22, chats: [{ guid: 'iMessage;-;+14155550996' }] });
    expect(posted('message-send-error', other.body.data.guid)[0].data).not.toHaveProperty('tempGuid');
  });

  test('ServerRepository.addWebhook: a URL registered already is returned as it was, events and all', async () => {
    const first = await call('POST', '/webhook', { url: 'http://127.0.0.1:9/z', events: ['new-message'] });
    const again = await call('POST', '/webhook', { url: 'http://127.0.0.1:9/z', events: ['new-message', 'updated-message'] });
    expect(again.body.data).toEqual(first.body.data);
    expect((await call('POST', '/webhook', { url: 'http://127.0.0.1:9/z2', events: ['updated-message', 'message-send-error'] })).status).toBe(200);
  });
});

describe('the stand-in\'s media routes answer as BlueBubbles Server 1.9.9 does', () => {
  async function form(path: string, fields: Record<string, string>, file?: { field: string; bytes: Uint8Array; type: string; name: string }) {
    const body = new FormData();
    for (const [k, v] of Object.entries(fields)) body.append(k, v);
    if (file) body.append(file.field, new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.type }), file.name);
    const response = await fetch(`${standIn.url}/api/v1${path}?password=pw`, { method: 'POST', body });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  }
  const png = { field: 'attachment', bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47]), type: 'image/png', name: 'upload.png' };

  test('MessageValidator.validateAttachment: chatGuid and name required, AppleScript needs a tempGuid, the file must be there and not empty', async () => {
    standIn.platform.receive({ from: '+14155550990', text: 'hi' });
    const chatGuid = 'iMessage;-;+14155550990';
    expect((await form('/message/attachment', { name: 'a.png', tempGuid: 't' }, png)).body.error).toEqual({ type: 'Validation Error', message: 'The chatGuid field is required.' });
    expect((await form('/message/attachment', { chatGuid, tempGuid: 't' }, png)).body.error.message).toBe('The name field is required.');
    expect((await form('/message/attachment', { chatGuid, name: 'a.png' }, png)).body.error.message).toBe("A 'tempGuid' is required when sending via AppleScript");
    expect((await form('/message/attachment', { chatGuid, name: 'a.png', tempGuid: 't' })).body).toMatchObject({ status: 400, error: { message: 'Attachment not provided or was empty!' } });
    expect((await form('/message/attachment', { chatGuid, name: 'a.png', tempGuid: 't' }, { ...png, bytes: new Uint8Array(0) })).status).toBe(400);
  });

  test('MessageRouter.sendAttachment: "Attachment sent!" with the row (no tempGuid); the file is named `name`; the echo webhook carries the tempGuid', async () => {
    const hook = await call('POST', '/webhook', { url: 'http://127.0.0.1:9/media', events: ['new-message'] });
    expect(hook.status).toBe(200);
    standIn.platform.receive({ from: '+14155550989', text: 'hi' });
    const sent = await form('/message/attachment', { chatGuid: 'iMessage;-;+14155550989', name: 'cat.png', tempGuid: 't-media' }, png);
    expect(sent).toMatchObject({ status: 200, body: { message: 'Attachment sent!', data: { isFromMe: true, text: '\ufffc', attachments: [{ transferName: 'cat.png', mimeType: 'image/png', totalBytes: 4 }] } } });
    expect(sent.body.data).not.toHaveProperty('tempGuid');
    const echo = standIn.delivered.map((d) => d.body as any).find((b) => b.type === 'new-message' && b.data.guid === sent.body.data.guid);
    expect(echo.data).toMatchObject({ tempGuid: 't-media' });
    const download = await fetch(`${standIn.url}/api/v1/attachment/${sent.body.data.attachments[0].guid}/download?password=pw`);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(png.bytes);
  });

  test('ChatRouter.setGroupChatIcon: `icon` required, a chat that does not exist is 404, a direct chat 500; the chat\'s properties then name the photo', async () => {
    const { conversationExternalId } = standIn.platform.receive({ from: '+14155550987', group: { participants: ['+14155550987', '+14155550988'] }, text: 'group' });
    const guid = encodeURIComponent(conversationExternalId.replace(/^sim;/, 'iMessage;'));
    const icon = { ...png, field: 'icon' };
    expect((await form(`/chat/${guid}/icon`, {})).body.error.message).toBe('Icon not provided or was empty!');
    expect((await form('/chat/iMessage%3B%2B%3Bnope/icon', {}, icon)).body).toMatchObject({ status: 404, error: { type: 'Database Error', message: 'Chat does not exist!' } });
    expect((await form('/chat/iMessage%3B-%3B%2B14155550990/icon', {}, icon)).body).toMatchObject({ status: 500, error: { type: 'Server Error', message: 'Chat is not a group chat!' } });
    expect((await call('GET', `/chat/${guid}/icon`)).body).toMatchObject({ status: 404, error: { message: 'Unable to find icon for the selected chat' } });
    expect(await form(`/chat/${guid}/icon`, {}, icon)).toEqual({ status: 200, body: { status: 200, message: 'Successfully set group chat icon!' } });
    const chat = await call('GET', `/chat/${guid}`);
    expect(chat.body.data.properties).toEqual([{ groupPhotoGuid: expect.stringMatching(/^att_/) }]);
  });
});
