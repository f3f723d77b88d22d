import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformEvent } from '@switchboard/contracts';
import { eventsAfter, expectSpecResponse, headers, postCommand, readyAccount, startTestServer, streamHead, type TestServer } from './helpers.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ rateLimit: 0 });
});
afterAll(() => server.stopAndClean());

type Ready = Awaited<ReturnType<typeof readyAccount>>;

async function getPoll(apiKey: string | null, pollId: string) {
  const res = await fetch(`${server.url}/v1/polls/${pollId}`, { headers: apiKey === null ? {} : headers(apiKey) });
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
}

/** A message.send into the group, executed by the test host: dispatched, echoed as `messageExternalId`, settled. */
async function send(a: Ready, payload: Record<string, unknown>, messageExternalId: string | null): Promise<string> {
  const res = await postCommand(server.url, a.apiKey, 'message.send', { target: { kind: 'conversation', conversationId: a.group }, payload });
  expect(res.status).toBe(202);
  const commandId = res.body.commandId as string;
  expect((await a.host.dispatch()).map((c) => c.commandId)).toEqual([commandId]);
  const external = (await server.services.store.getConversation(a.accountId, a.group))!.externalId;
  if (messageExternalId !== null) await a.host.report([{ type: 'message.sent', conversationExternalId: external, messageExternalId, commandId }]);
  expect((await a.host.settle(commandId, messageExternalId === null ? 'failed' : 'succeeded', messageExternalId === null ? 'accepted_echo_unconfirmed' : null)).status).toBe(200);
  return commandId;
}

async function groupExternalId(a: Ready): Promise<string> {
  return (await server.services.store.getConversation(a.accountId, a.group))!.externalId;
}

function vote(conversationExternalId: string, voterExternalId: string, optionIndex: number | null, at: number, pollMessageExternalId = 'poll-1'): PlatformEvent {
  return { type: 'poll.voted', conversationExternalId, pollMessageExternalId, voterExternalId, optionIndex, votedAt: new Date(at).toISOString() };
}

describe('GET /v1/polls/{pollId}', () => {
  it('reads a poll the account sent by its commandId, with each option\'s tally and each voter\'s choice, as the spec says', async () => {
    const a = await readyAccount(server);
    const pollId = await send(a, { kind: 'poll', question: 'Lunch?', options: ['Tacos', 'Sushi', 'Tacos'] }, 'poll-1');
    const g = await groupExternalId(a);
    const t = Date.UTC(2026, 5, 1, 12);
    await a.host.report([vote(g, '+14155550123', 0, t), vote(g, 'dana@example.com', 2, t + 1_000)]);

    const res = await getPoll(a.apiKey, pollId);
    expect(res.status).toBe(200);
    expectSpecResponse('/v1/polls/{pollId}', 'get', 200, res.body, res.headers);
    expect(res.body).toEqual({
      pollId,
      conversationId: a.group,
      messageExternalId: 'poll-1',
      question: 'Lunch?',
      options: [{ index: 0, text: 'Tacos', votes: 1 }, { index: 1, text: 'Sushi', votes: 0 }, { index: 2, text: 'Tacos', votes: 1 }],
      voters: [
        { voterExternalId: '+14155550123', optionIndex: 0, votedAt: new Date(t).toISOString() },
        { voterExternalId: 'dana@example.com', optionIndex: 2, votedAt: new Date(t + 1_000).toISOString() },
      ],
      sentAt: expect.any(String),
    });
    expect(res.headers.get('ratelimit-policy')).toContain('"read"');
  });

  it('is 404 poll_not_found for another account\'s poll, a plain message, a poll never confirmed sent, an unknown id and a segment that is not a UUID', async () => {
    const a = await readyAccount(server);
    const b = await readyAccount(server);
    const pollId = await send(a, { kind: 'poll', question: 'Q?', options: ['y', 'n'] }, 'poll-1');
    const plain = await send(a, { text: 'hello' }, 'plain-1');
    const unconfirmed = await send(a, { kind: 'poll', question: 'Lost?', options: ['y', 'n'] }, null);
    expect((await getPoll(a.apiKey, pollId)).status).toBe(200);
    for (const [key, id] of [[b.apiKey, pollId], [a.apiKey, plain], [a.apiKey, unconfirmed], [a.apiKey, '0190b7a4-0000-7000-8000-00000000dead'], [a.apiKey, 'nope']] as const) {
      const res = await getPoll(key, id);
      expect(res.status, id).toBe(404);
      expect(res.body).toMatchObject({ error: 'poll_not_found', requestId: expect.any(String) });
      expectSpecResponse('/v1/polls/{pollId}', 'get', 404, res.body, res.headers);
    }
  });

  it('is 401 unauthenticated without a credential', async () => {
    const res = await getPoll(null, '0190b7a4-0000-7000-8000-00000000dead');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: 'unauthenticated' });
  });
});

describe('poll.voted on the stream', () => {
  it('each change of a voter\'s choice is one event, in order, saying cast, changed or withdrawn and the option before; a re-reported batch adds none', async () => {
    const a = await readyAccount(server);
    const pollId = await send(a, { kind: 'poll', question: 'Where?', options: ['Here', 'There'] }, 'poll-1');
    const g = await groupExternalId(a);
    const before = await streamHead(server, a.apiKey);
    const t = Date.UTC(2026, 5, 1, 12);
    const batch = [vote(g, 'ana@example.com', 0, t), vote(g, 'ben@example.com', 1, t + 1), vote(g, 'ana@example.com', 1, t + 2), vote(g, 'ben@example.com', null, t + 3)];
    expect(await a.host.report(batch)).toEqual({ recorded: 4 });
    expect(await a.host.report(batch)).toEqual({ recorded: 4 });
    const events = (await eventsAfter(server, a.apiKey, before)).filter((e) => e.type === 'poll.voted');
    const common = { pollId, conversationId: a.group, messageExternalId: 'poll-1' };
    expect(events.map((e) => e.data)).toEqual([
      { ...common, voterExternalId: 'ana@example.com', change: 'cast', optionIndex: 0, option: 'Here', previousOptionIndex: null, previousOption: null, votedAt: new Date(t).toISOString() },
      { ...common, voterExternalId: 'ben@example.com', change: 'cast', optionIndex: 1, option: 'There', previousOptionIndex: null, previousOption: null, votedAt: new Date(t + 1).toISOString() },
      { ...common, voterExternalId: 'ana@example.com', change: 'changed', optionIndex: 1, option: 'There', previousOptionIndex: 0, previousOption: 'Here', votedAt: new Date(t + 2).toISOString() },
      { ...common, voterExternalId: 'ben@example.com', change: 'withdrawn', optionIndex: null, option: null, previousOptionIndex: 1, previousOption: 'There', votedAt: new Date(t + 3).toISOString() },
    ]);
    expect((await getPoll(a.apiKey, pollId)).body.options.map((o: { votes: number }) => o.votes)).toEqual([0, 1]);
  });

  it('a vote on a message that is no poll of the account, or for an option the poll lacks, is accepted and adds nothing', async () => {
    const a = await readyAccount(server);
    await send(a, { text: 'plain' }, 'plain-1');
    const pollId = await send(a, { kind: 'poll', question: 'Q?', options: ['y', 'n'] }, 'poll-1');
    const g = await groupExternalId(a);
    const before = await streamHead(server, a.apiKey);
    const t = Date.UTC(2026, 5, 1, 12);
    expect(await a.host.report([vote(g, 'ana@example.com', 0, t, 'plain-1'), vote(g, 'ana@example.com', 0, t, 'from-the-phone'), vote(g, 'ana@example.com', 2, t)])).toEqual({ recorded: 3 });
    expect(await eventsAfter(server, a.apiKey, before)).toEqual([]);
    expect((await getPoll(a.apiKey, pollId)).body.voters).toEqual([]);
  });
});
