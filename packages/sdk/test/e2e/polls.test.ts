import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformEvent } from '@switchboard/contracts';
import { SwitchboardError, type Poll, type PollVotedEvent, type StreamItem } from '../../src/index.ts';
import { HostLoop } from '../support/host.ts';
import { readyAccount, startService, type ReadyAccount, type Service } from '../support/service.ts';

let service: Service;
let a: ReadyAccount;
let b: ReadyAccount;
let loop: HostLoop;

beforeAll(async () => {
  service = await startService();
  a = await readyAccount(service.server);
  b = await readyAccount(service.server);
  loop = new HostLoop(a.host);
});
afterAll(async () => {
  await loop.stop();
  await service.stop();
});

function vote(voterExternalId: string, optionIndex: number | null, messageExternalId: string, at: number): PlatformEvent {
  return { type: 'poll.voted', conversationExternalId: a.group.externalId, pollMessageExternalId: messageExternalId, voterExternalId, optionIndex, votedAt: new Date(at).toISOString() };
}

/** The first `count` items of a stream, then it is closed. */
async function first<T>(stream: AsyncGenerator<T>, count: number): Promise<T[]> {
  const items: T[] = [];
  for await (const item of stream) {
    items.push(item);
    if (items.length === count) break;
  }
  return items;
}

describe('polls through the SDK', () => {
  it('getPoll reads the poll by the send\'s commandId; events({ include }) yields its votes typed; plain events() skips them', async () => {
    const head = (await a.client.eventPage({ after: 'now' })).nextAfter;
    const ack = await a.client.sendMessage({ target: { kind: 'conversation', conversationId: a.group.conversationId }, payload: { kind: 'poll', question: 'Lunch?', options: ['Pizza', 'Salad'] } });
    expect(await a.client.settled(ack.commandId, { timeoutMs: 15_000 })).toMatchObject({ status: 'succeeded' });
    const pollId = ack.commandId;
    const messageExternalId = `sent-${pollId}`;

    const t = Date.UTC(2026, 5, 1, 12);
    await a.host.report([vote('+14155550123', 0, messageExternalId, t), vote('dana@example.com', 0, messageExternalId, t + 1), vote('+14155550123', 1, messageExternalId, t + 2)]);
    await a.host.received(a.group.externalId, 'after the votes');

    const voted = (await first(a.client.events({ after: head, include: ['poll.voted'] }), 6)).filter((e): e is PollVotedEvent => e.type === 'poll.voted');
    expect(voted.map((e) => [e.data.voterExternalId, e.data.change, e.data.option, e.data.previousOption])).toEqual([
      ['+14155550123', 'cast', 'Pizza', null],
      ['dana@example.com', 'cast', 'Pizza', null],
      ['+14155550123', 'changed', 'Salad', 'Pizza'],
    ]);
    expect(voted.every((e) => e.data.pollId === pollId && e.data.conversationId === a.group.conversationId)).toBe(true);

    const plain: StreamItem[] = await first(a.client.events({ after: head }), 3);
    expect(plain.map((e) => e.type)).toEqual(['message.sent', 'command.settled', 'message.received']);

    const poll: Poll = await a.client.getPoll(pollId);
    expect(poll).toMatchObject({ pollId, question: 'Lunch?', messageExternalId, options: [{ index: 0, text: 'Pizza', votes: 1 }, { index: 1, text: 'Salad', votes: 1 }] });
    expect(poll.voters.map((v) => [v.voterExternalId, v.optionIndex])).toEqual([['dana@example.com', 0], ['+14155550123', 1]]);

    // Another account's poll is unknown, as is a command that is not a poll.
    for (const [client, id] of [[b.client, pollId], [a.client, (await a.client.sendMessage({ target: { kind: 'conversation', conversationId: a.group.conversationId }, payload: { text: 'hi' } })).commandId]] as const) {
      const error = await client.getPoll(id).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SwitchboardError);
      expect(error).toMatchObject({ status: 404, code: 'poll_not_found', retry: 'never' });
    }
  });
});
