import type { PlatformEvent } from '@switchboard/contracts';
import type { CommandRecord, ConversationRecord, NewEvent, PlatformEventView, PollRecord } from '../types.ts';

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

/** A confirmed send of a poll makes the poll (its id is the command's): votes name its message from then on. */
export function sentPoll(sent: Pick<CommandRecord, 'id' | 'accountId' | 'type' | 'payload'> | null, conversationId: string, messageExternalId: string, at: number): PollRecord | null {
  const content = sent ? pollContent(sent.type, sent.payload) : null;
  if (!sent || !content) return null;
  return { id: sent.id, accountId: sent.accountId, conversationId, messageExternalId, question: content.question, options: content.options, sentAt: at };
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

/** What a vote writes (the voter's choice) and shows; null for a vote on no poll of the account's, or one that changes nothing. */
export function voteEffect(
  poll: PollRecord | null, held: HeldVote | null, event: PollVoted, conversation: ConversationRecord, view: PlatformEventView,
): { vote: HeldVote; shown: NewEvent } | null {
  if (!poll || !voteApplies(poll, held, event)) return null;
  return {
    vote: { optionIndex: event.optionIndex, votedAt: Date.parse(event.votedAt) },
    shown: view(event, conversation, { poll, previousOptionIndex: held?.optionIndex ?? null }),
  };
}
