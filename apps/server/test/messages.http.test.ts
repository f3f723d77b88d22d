// A message's whole life over HTTP: what the connector host reports after the echo (delivered,
// read, failed) and what other people do to messages (tapbacks, edits, unsends), on the stream
// once each, on the command read and in the conversation's messages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformEvent } from '@switchboard/contracts';
import { eventsAfter, expectSpecResponse, headers, postCommand, readyAccount, startTestServer, streamHead, type TestServer } from './helpers.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ rateLimit: 0 });
});
afterAll(() => server.stopAndClean());

type Ready = Awaited<ReturnType<typeof readyAccount>>;

async function read(apiKey: string, path: string): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${server.url}${path}`, { headers: headers(apiKey) });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

async function externalId(a: Ready, conversationId: string): Promise<string> {
  return (await server.services.store.getConversation(a.accountId, conversationId))!.externalId;
}

/** A message.send executed by the test host: dispatched, echoed as `messageExternalId`, settled succeeded. */
async function send(a: Ready, conversationId: string, text: string, messageExternalId: string): Promise<string> {
  const res = await postCommand(server.url, a.apiKey, 'message.send', { target: { kind: 'conversation', conversationId }, payload: { text } });
  expect(res.status).toBe(202);
  const commandId = res.body.commandId as string;
  expect((await a.host.dispatch()).map((c) => c.commandId)).toEqual([commandId]);
  await a.host.report([{ type: 'message.sent', conversationExternalId: await externalId(a, conversationId), messageExternalId, commandId }]);
  expect((await a.host.settle(commandId, 'succeeded')).status).toBe(200);
  return commandId;
}

const at = (s: number) => new Date(Date.UTC(2026, 5, 1, 12, 0, s)).toISOString();

describe('a message after its echo', () => {
  it('is delivered, then read: once each on the stream, on the command read and in the conversation\'s messages, as the spec says', async () => {
    const a = await readyAccount(server);
    const commandId = await send(a, a.direct, 'Your parcel is on its way', 'm-1');
    const dm = await externalId(a, a.direct);
    const after = await streamHead(server, a.apiKey);
    const delivered: PlatformEvent = { type: 'message.delivered', conversationExternalId: dm, messageExternalId: 'm-1', deliveredAt: at(2) };
    const readIt: PlatformEvent = { type: 'message.read', conversationExternalId: dm, messageExternalId: 'm-1', readAt: at(9) };
    expect(await a.host.report([delivered])).toEqual({ recorded: 1 });
    expect(await a.host.report([delivered, readIt])).toEqual({ recorded: 2 });
    // The catch-up reads the same states again after a restart: nothing new.
    expect(await a.host.report([readIt, delivered])).toEqual({ recorded: 2 });
    const events = await eventsAfter(server, a.apiKey, after);
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ['message.delivered', { conversationId: a.direct, messageExternalId: 'm-1', commandId, deliveredAt: at(2) }],
      ['message.read', { conversationId: a.direct, messageExternalId: 'm-1', commandId, readAt: at(9) }],
    ]);

    const command = await read(a.apiKey, `/v1/commands/${commandId}`);
    expectSpecResponse('/v1/commands/{commandId}', 'get', 200, command.body, command.headers);
    expect(command.body).toMatchObject({ status: 'succeeded', message: { messageExternalId: 'm-1', direction: 'outbound', commandId, text: 'Your parcel is on its way', deliveredAt: at(2), readAt: at(9), failedAt: null, failure: null } });

    const messages = await read(a.apiKey, `/v1/conversations/${a.direct}/messages`);
    expect(messages.status).toBe(200);
    expectSpecResponse('/v1/conversations/{conversationId}/messages', 'get', 200, messages.body, messages.headers);
    expect(messages.body).toEqual({ messages: [command.body.message], nextCursor: null });
  });

  it('fails after its echo: the command stays succeeded, message.failed names it, and the command read shows why', async () => {
    const a = await readyAccount(server);
    const commandId = await send(a, a.direct, 'Hello', 'm-2');
    const after = await streamHead(server, a.apiKey);
    const failed: PlatformEvent = { type: 'message.failed', conversationExternalId: await externalId(a, a.direct), messageExternalId: 'm-2', reason: 'not_delivered', platformMessage: 'Not Delivered (error 4)', failedAt: at(3) };
    await a.host.report([failed]);
    await a.host.report([failed]);
    expect((await eventsAfter(server, a.apiKey, after)).map((e) => [e.type, e.data])).toEqual([
      ['message.failed', { conversationId: a.direct, messageExternalId: 'm-2', commandId, reason: 'not_delivered', platformMessage: 'Not Delivered (error 4)', failedAt: at(3) }],
    ]);
    const command = await read(a.apiKey, `/v1/commands/${commandId}`);
    expect(command.body).toMatchObject({ status: 'succeeded', errorCode: null, message: { failedAt: at(3), failure: { reason: 'not_delivered', platformMessage: 'Not Delivered (error 4)' } } });
  });

  it('a command that sent no message yet, or sends none, reads message null', async () => {
    const a = await readyAccount(server);
    const res = await postCommand(server.url, a.apiKey, 'group.update', { target: { kind: 'conversation', conversationId: a.group }, payload: { action: 'rename', name: 'Crew' } });
    const command = await read(a.apiKey, `/v1/commands/${res.body.commandId}`);
    expectSpecResponse('/v1/commands/{commandId}', 'get', 200, command.body, command.headers);
    expect(command.body.message).toBeNull();
  });
});

describe('what other people do to messages', () => {
  it('a tapback added then removed, an edit and an unsend: once each, and the message shows the edit and the unsend', async () => {
    const a = await readyAccount(server);
    await send(a, a.group, 'Launch at noon', 'm-3');
    const g = await externalId(a, a.group);
    const after = await streamHead(server, a.apiKey);
    const batch: PlatformEvent[] = [
      { type: 'message.reaction', conversationExternalId: g, reactionExternalId: 'r-1', messageExternalId: 'm-3', senderExternalId: 'dana@example.com', reaction: 'love', action: 'added', reactedAt: at(1) },
      { type: 'message.reaction', conversationExternalId: g, reactionExternalId: 'r-2', messageExternalId: 'm-3', senderExternalId: 'dana@example.com', reaction: 'love', action: 'removed', reactedAt: at(2) },
      { type: 'message.received', conversationExternalId: g, messageExternalId: 'in-1', senderExternalId: 'dana@example.com', text: 'noon works', attachments: [], receivedAt: at(3) },
      { type: 'message.edited', conversationExternalId: g, messageExternalId: 'in-1', senderExternalId: 'dana@example.com', text: 'noon works!', editedAt: at(4) },
      { type: 'message.received', conversationExternalId: g, messageExternalId: 'in-2', senderExternalId: '+14155550123', text: 'oops', attachments: [], receivedAt: at(5) },
      { type: 'message.unsent', conversationExternalId: g, messageExternalId: 'in-2', senderExternalId: '+14155550123', unsentAt: at(6) },
    ];
    await a.host.report(batch);
    await a.host.report(batch);
    const events = await eventsAfter(server, a.apiKey, after);
    expect(events.map((e) => e.type)).toEqual(['message.reaction', 'message.reaction', 'message.received', 'message.edited', 'message.received', 'message.unsent']);
    expect(events[1]!.data).toEqual({ conversationId: a.group, messageExternalId: 'm-3', reactionExternalId: 'r-2', senderExternalId: 'dana@example.com', reaction: 'love', action: 'removed', reactedAt: at(2) });
    const messages = (await read(a.apiKey, `/v1/conversations/${a.group}/messages?limit=2`)).body;
    expect(messages.messages.map((m: any) => [m.messageExternalId, m.text, m.unsentAt])).toEqual([['in-2', null, at(6)], ['in-1', 'noon works!', null]]);
    const older = (await read(a.apiKey, `/v1/conversations/${a.group}/messages?limit=2&cursor=${messages.nextCursor}`)).body;
    expect(older).toMatchObject({ messages: [{ messageExternalId: 'm-3', direction: 'outbound' }], nextCursor: null });
  });
});

describe('GET /v1/conversations/{conversationId}/messages', () => {
  it('another account\'s conversation, an unknown one or a bad cursor answer as the spec says', async () => {
    const a = await readyAccount(server);
    const b = await readyAccount(server);
    for (const path of [`/v1/conversations/${b.direct}/messages`, '/v1/conversations/not-a-uuid/messages']) {
      const res = await read(a.apiKey, path);
      expect(res.status).toBe(404);
      expectSpecResponse('/v1/conversations/{conversationId}/messages', 'get', 404, res.body, res.headers);
    }
    for (const query of ['cursor=%21%21', 'cursor=abc', 'limit=0', 'limit=201']) {
      const res = await read(a.apiKey, `/v1/conversations/${a.direct}/messages?${query}`);
      expect(res.status, query).toBe(400);
      expectSpecResponse('/v1/conversations/{conversationId}/messages', 'get', 400, res.body, res.headers);
    }
  });
});
