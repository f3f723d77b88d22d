import type { PlatformEvent } from '@switchboard/contracts';
import type { PollRecord, PollVoteRecord } from './types.ts';
import type { Row } from './rows.ts';

type PollVoted = Extract<PlatformEvent, { type: 'poll.voted' }>;

/**
 * The question and options of a command that sent a poll, or null when it is not one. Only a
 * message.send the host executed reaches here (its message.sent), so its payload passed the
 * host's validation; the checks keep a hand-made report from recording garbage all the same.
 */
export function pollContent(type: string, payload: unknown): { question: string; options: string[] } | null {
  if (type !== 'message.send' || typeof payload !== 'object' || payload === null) return null;
  const { kind, question, options } = payload as Record<string, unknown>;
  if (kind !== 'poll' || typeof question !== 'string' || !Array.isArray(options) || !options.every((o) => typeof o === 'string')) return null;
  return { question, options: options as string[] };
}

/** A voter's choice as held: the option (null once withdrawn) and when it was made. */
export interface HeldVote {
  optionIndex: number | null;
  votedAt: number;
}

/**
 * Whether a reported vote changes what is held: not older than the held vote (a re-report or
 * an overtaken vote changes nothing), an option the poll has, and a different choice.
 */
export function voteApplies(poll: PollRecord, held: HeldVote | null, vote: PollVoted): boolean {
  const votedAt = Date.parse(vote.votedAt);
  if (!Number.isFinite(votedAt)) return false;
  if (vote.optionIndex !== null && vote.optionIndex >= poll.options.length) return false;
  if (held && votedAt < held.votedAt) return false;
  return (held?.optionIndex ?? null) !== vote.optionIndex;
}

export function heldVote(row: Row | undefined): HeldVote | null {
  return row ? { optionIndex: row.option_index === null ? null : Number(row.option_index), votedAt: Number(row.voted_at) } : null;
}

export function poll(row: Row): PollRecord {
  return {
    id: row.id as string,
    accountId: row.account_id as string,
    conversationId: row.conversation_id as string,
    messageExternalId: row.message_external_id as string,
    question: row.question as string,
    options: JSON.parse(row.options as string) as string[],
    sentAt: Number(row.sent_at),
  };
}

export function pollVote(row: Row): PollVoteRecord {
  return { voterExternalId: row.voter as string, optionIndex: Number(row.option_index), votedAt: Number(row.voted_at) };
}
