import { describe, expect, it } from 'vitest';
import type { PlatformEvent } from '@switchboard/contracts';
import type { ConversationRecord, PlatformEventView, PollRecord } from '../types.ts';
import { pollContent, sentPoll, voteApplies, voteEffect } from './polls.ts';

type PollVoted = Extract<PlatformEvent, { type: 'poll.voted' }>;

const poll: PollRecord = { id: 'c1', accountId: 'a1', conversationId: 'v1', messageExternalId: 'm1', question: 'Lunch?', options: ['Yes', 'No'], sentAt: 1 };
const conversation = { id: 'v1' } as ConversationRecord;
const view: PlatformEventView = (event, _conversation, vote) => ({ type: event.type, time: 0, data: vote });

function vote(optionIndex: number | null, votedAt: string): PollVoted {
  return { type: 'poll.voted', conversationExternalId: 'g', pollMessageExternalId: 'm1', voterExternalId: 'b@example.com', optionIndex, votedAt };
}

describe('polls', () => {
  it('a message.send of kind poll makes a poll; anything else makes none', () => {
    const command = { id: 'c1', accountId: 'a1', type: 'message.send' as const, payload: { kind: 'poll', question: 'Lunch?', options: ['Yes', 'No'] } };
    expect(sentPoll(command, 'v1', 'm1', 1)).toEqual(poll);
    expect(sentPoll({ ...command, payload: { text: 'hi' } }, 'v1', 'm1', 1)).toBeNull();
    expect(sentPoll(null, 'v1', 'm1', 1)).toBeNull();
    expect(pollContent('reaction.tapback', command.payload)).toBeNull();
    expect(pollContent('message.send', { kind: 'poll', question: 'Q', options: ['a', 2] })).toBeNull();
    expect(pollContent('message.send', null)).toBeNull();
  });

  it('a first vote is cast; a vote not older than the held one and different changes it', () => {
    expect(voteApplies(poll, null, vote(0, '2026-01-01T00:00:00Z'))).toBe(true);
    const held = { optionIndex: 0, votedAt: Date.parse('2026-01-01T00:00:00Z') };
    expect(voteApplies(poll, held, vote(1, '2026-01-01T00:00:00Z'))).toBe(true);
    expect(voteApplies(poll, held, vote(null, '2026-01-01T00:01:00Z'))).toBe(true);
  });

  it('a re-report, an older vote, an option the poll lacks, or a bad time changes nothing', () => {
    const held = { optionIndex: 0, votedAt: Date.parse('2026-01-01T00:01:00Z') };
    expect(voteApplies(poll, held, vote(0, '2026-01-01T00:02:00Z'))).toBe(false);
    expect(voteApplies(poll, held, vote(1, '2026-01-01T00:00:00Z'))).toBe(false);
    expect(voteApplies(poll, null, vote(2, '2026-01-01T00:00:00Z'))).toBe(false);
    expect(voteApplies(poll, null, vote(0, 'not a time'))).toBe(false);
    expect(voteApplies(poll, { optionIndex: null, votedAt: 0 }, vote(null, '2026-01-01T00:00:00Z'))).toBe(false);
  });

  it('voteEffect: the choice written and the change shown; nothing on no poll', () => {
    const held = { optionIndex: 1, votedAt: 0 };
    expect(voteEffect(poll, held, vote(0, '2026-01-01T00:00:00Z'), conversation, view)).toEqual({
      vote: { optionIndex: 0, votedAt: Date.parse('2026-01-01T00:00:00Z') },
      shown: { type: 'poll.voted', time: 0, data: { poll, previousOptionIndex: 1 } },
    });
    expect(voteEffect(null, null, vote(0, '2026-01-01T00:00:00Z'), conversation, view)).toBeNull();
    expect(voteEffect(poll, { optionIndex: 0, votedAt: 0 }, vote(0, '2026-01-01T00:00:00Z'), conversation, view)).toBeNull();
  });
});
