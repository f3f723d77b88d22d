import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { SwitchboardClient, SwitchboardError, type Poll } from '@switchboard/sdk';
import { paths } from '@switchboard/testkit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createGroup, startRig, toConversation, type Rig } from './helpers.ts';

const run = promisify(execFile);

/**
 * Polls read back, end to end: a real server, a real connector host on the simulated platform,
 * votes cast by people on the platform through `switchboard-connector inject`, and the client's
 * view of them over HTTP (the stream's poll.voted events and GET /v1/polls/{pollId}).
 */
describe('polls', () => {
  let rig: Rig;
  let other: Rig;
  let group: { conversationId: string; externalId: string };
  const [ana, ben, cy] = ['+14155550161', '+14155550162', '+14155550163'];

  beforeAll(async () => {
    rig = await startRig();
    await rig.onlyHost();
    other = await startRig({}, rig.server);
    group = await createGroup(rig, [ana, ben], 'Lunch crew');
  });

  afterAll(async () => {
    await other?.close();
    await rig?.close();
  });

  async function cli(...args: string[]): Promise<any> {
    const { stdout } = await run(process.execPath, [paths.connector, ...args, '--account', rig.accountId, '--sim-db', rig.simDb]);
    return JSON.parse(stdout);
  }

  function getPoll(pollId: string, apiKey = rig.apiKey): Promise<Response> {
    return fetch(`${rig.server.url}/v1/polls/${pollId}`, { headers: { authorization: `Bearer ${apiKey}` } });
  }

  /** message.send of a poll, settled; its pollId (the commandId) and its message on the platform. */
  async function sendPoll(question: string, options: string[]): Promise<{ pollId: string; messageExternalId: string }> {
    const pollId = await rig.command('message.send', { target: toConversation(group.conversationId), payload: { kind: 'poll', question, options } });
    expect((await rig.settled(pollId)).data).toMatchObject({ status: 'succeeded', errorCode: null });
    const sent = rig.stream.events.find((e) => e.type === 'message.sent' && e.data.commandId === pollId)!;
    return { pollId, messageExternalId: sent.data.messageExternalId };
  }

  test('votes cast, changed and withdrawn on the platform arrive as poll.voted in order, and the poll reads back with its tallies and voters', async () => {
    const { pollId, messageExternalId } = await sendPoll('Where to?', ['Tacos', 'Sushi', 'Pizza']);
    const fresh = await getPoll(pollId);
    expect(fresh.status).toBe(200);
    expect(await fresh.json()).toEqual({
      pollId, conversationId: group.conversationId, messageExternalId, question: 'Where to?',
      options: [{ index: 0, text: 'Tacos', votes: 0 }, { index: 1, text: 'Sushi', votes: 0 }, { index: 2, text: 'Pizza', votes: 0 }],
      voters: [], sentAt: expect.any(String),
    });

    const votes = [
      await cli('inject', '--from', ana, '--poll', messageExternalId, '--vote', '0'),
      await cli('inject', '--from', ben, '--poll', messageExternalId, '--vote', '1'),
      await cli('inject', '--from', ana, '--poll', messageExternalId, '--vote', '2'),
      await cli('inject', '--from', ben, '--poll', messageExternalId, '--withdraw'),
    ];
    expect(votes[0]).toMatchObject({ type: 'poll.voted', conversationExternalId: group.externalId, pollMessageExternalId: messageExternalId, voterExternalId: ana, optionIndex: 0 });

    await rig.stream.waitFor((e) => e.type === 'poll.voted' && e.data.pollId === pollId && e.data.change === 'withdrawn', 20_000, 'the withdrawal');
    const voted = rig.stream.events.filter((e) => e.type === 'poll.voted' && e.data.pollId === pollId);
    const common = { pollId, conversationId: group.conversationId, messageExternalId };
    expect(voted.map((e) => e.data)).toEqual([
      { ...common, voterExternalId: ana, change: 'cast', optionIndex: 0, option: 'Tacos', previousOptionIndex: null, previousOption: null, votedAt: votes[0].votedAt },
      { ...common, voterExternalId: ben, change: 'cast', optionIndex: 1, option: 'Sushi', previousOptionIndex: null, previousOption: null, votedAt: votes[1].votedAt },
      { ...common, voterExternalId: ana, change: 'changed', optionIndex: 2, option: 'Pizza', previousOptionIndex: 0, previousOption: 'Tacos', votedAt: votes[2].votedAt },
      { ...common, voterExternalId: ben, change: 'withdrawn', optionIndex: null, option: null, previousOptionIndex: 1, previousOption: 'Sushi', votedAt: votes[3].votedAt },
    ]);
    // After the poll's own message.sent, in the order the platform saw them.
    const sentAt = rig.stream.events.findIndex((e) => e.type === 'message.sent' && e.data.commandId === pollId);
    expect(rig.stream.events.findIndex((e) => e === voted[0])).toBeGreaterThan(sentAt);

    const read = await getPoll(pollId);
    expect(read.status).toBe(200);
    const poll = (await read.json()) as Poll;
    expect(poll.options.map((o) => o.votes)).toEqual([0, 0, 1]);
    expect(poll.voters).toEqual([{ voterExternalId: ana, optionIndex: 2, votedAt: votes[2].votedAt }]);

    // The SDK reads the same poll, typed.
    const sdkPoll: Poll = await new SwitchboardClient({ baseUrl: rig.server.url, apiKey: rig.apiKey }).getPoll(pollId);
    expect(sdkPoll).toEqual(poll);
  });

  test('a vote reported while no host runs reaches the stream once, through the next holder', async () => {
    const { pollId, messageExternalId } = await sendPoll('Dessert?', ['Yes', 'No']);
    await (await rig.onlyHost()).stop();
    const vote = rig.platform.vote({ from: ben, pollMessageExternalId: messageExternalId, optionIndex: 0 });
    await rig.onlyHost();
    await rig.stream.waitFor((e) => e.type === 'poll.voted' && e.data.pollId === pollId, 20_000, 'the vote cast while no host ran');
    // Something later, so the first vote had every chance to be reported twice.
    const later = rig.platform.receive({ from: ben, conversationExternalId: group.externalId, text: 'voted' });
    await rig.stream.waitFor((e) => e.type === 'message.received' && e.data.messageExternalId === later.messageExternalId);
    const voted = rig.stream.events.filter((e) => e.type === 'poll.voted' && e.data.pollId === pollId);
    expect(voted.map((e) => [e.data.voterExternalId, e.data.change, e.data.optionIndex, e.data.votedAt])).toEqual([[ben, 'cast', 0, vote.votedAt]]);
  });

  test('another account\'s poll, a plain message and an unknown id are 404 poll_not_found, for the SDK too', async () => {
    const { pollId } = await sendPoll('Mine?', ['a', 'b']);
    const plain = await rig.command('message.send', { target: toConversation(group.conversationId), payload: { text: 'not a poll' } });
    await rig.settled(plain);
    for (const [id, apiKey] of [[pollId, other.apiKey], [plain, rig.apiKey], ['0190b7a4-0000-7000-8000-00000000dead', rig.apiKey], ['not-a-uuid', rig.apiKey]] as const) {
      const answer = await getPoll(id, apiKey);
      expect(answer.status, id).toBe(404);
      expect(await answer.json()).toMatchObject({ error: 'poll_not_found' });
    }
    const error = await new SwitchboardClient({ baseUrl: rig.server.url, apiKey: other.apiKey }).getPoll(pollId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SwitchboardError);
    expect(error).toMatchObject({ status: 404, code: 'poll_not_found' });
  });

  test('inject refuses a vote the platform would not take: a non-member, an option the poll lacks, no vote to withdraw, a message that is no poll', async () => {
    const { messageExternalId } = await sendPoll('Refusals?', ['a', 'b']);
    await expect(cli('inject', '--from', cy, '--poll', messageExternalId, '--vote', '0')).rejects.toThrow(/not in conversation/);
    await expect(cli('inject', '--from', ana, '--poll', messageExternalId, '--vote', '2')).rejects.toThrow(/options 0 to 1/);
    await expect(cli('inject', '--from', ana, '--poll', messageExternalId, '--withdraw')).rejects.toThrow(/no vote on this poll to withdraw/);
    await expect(cli('inject', '--from', ana, '--poll', messageExternalId)).rejects.toThrow(/exactly one of --vote/);
    const received = rig.platform.receive({ from: ana, conversationExternalId: group.externalId, text: 'hello' });
    await expect(cli('inject', '--from', ana, '--poll', received.messageExternalId, '--vote', '0')).rejects.toThrow(/not a poll the account sent/);
  });
});
