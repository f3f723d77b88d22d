import type { PlatformEvent } from '@switchboard/contracts';
import type { Services } from '../services.ts';
import type { ConversationRecord, MessageRecord, PlatformEventsResult, PollVoteChange } from '../store/types.ts';
import type { EventBody, EventData } from './envelope.ts';
import { iso } from '../clock.ts';

/** A platform's time as the stream writes times (clock.ts). */
function platformTime(at: string): string {
  return iso(Date.parse(at));
}

/** The `poll.voted` data of a vote that changed a voter's choice. */
function pollVoted(event: Extract<PlatformEvent, { type: 'poll.voted' }>, conversation: ConversationRecord, vote: PollVoteChange): EventData<'poll.voted'> {
  const { poll, previousOptionIndex } = vote;
  const optionIndex = event.optionIndex;
  return {
    pollId: poll.id,
    conversationId: conversation.id,
    messageExternalId: poll.messageExternalId,
    voterExternalId: event.voterExternalId,
    change: previousOptionIndex === null ? 'cast' : optionIndex === null ? 'withdrawn' : 'changed',
    optionIndex,
    option: optionIndex === null ? null : poll.options[optionIndex]!,
    previousOptionIndex,
    previousOption: previousOptionIndex === null ? null : poll.options[previousOptionIndex]!,
    votedAt: new Date(Date.parse(event.votedAt)).toISOString(),
  };
}

/** The stream event (specs/asyncapi/stream.yaml) a platform event implies. */
export function streamEvent(event: PlatformEvent, conversation: ConversationRecord, time: number, vote?: PollVoteChange, message?: MessageRecord): EventBody & { time: number } {
  const conversationId = conversation.id;
  switch (event.type) {
    case 'conversation.appeared':
      return {
        type: event.type,
        time,
        data: { conversationId, kind: conversation.kind, name: conversation.name, participants: conversation.participants, commandId: event.commandId ?? null },
      };
    case 'message.received':
      return {
        type: event.type,
        time,
        data: {
          conversationId,
          messageExternalId: event.messageExternalId,
          senderExternalId: event.senderExternalId,
          text: event.text,
          attachments: event.attachments,
          receivedAt: event.receivedAt,
        },
      };
    case 'message.sent':
      return { type: event.type, time, data: { conversationId, messageExternalId: event.messageExternalId, commandId: event.commandId } };
    case 'group.renamed':
      return { type: event.type, time, data: { conversationId, name: event.name, commandId: event.commandId ?? null } };
    case 'group.participants_changed':
      return {
        type: event.type,
        time,
        data: { conversationId, added: event.added, removed: event.removed, participants: event.participants, commandId: event.commandId ?? null },
      };
    case 'poll.voted':
      // The store passes the change for every vote it applies; a vote without one is a store bug.
      if (!vote) throw new Error('a poll.voted event needs the vote change it made');
      return { type: event.type, time, data: pollVoted(event, conversation, vote) };
    case 'message.delivered':
      return { type: event.type, time, data: { conversationId, messageExternalId: event.messageExternalId, commandId: message?.commandId ?? null, deliveredAt: platformTime(event.deliveredAt) } };
    case 'message.read':
      return { type: event.type, time, data: { conversationId, messageExternalId: event.messageExternalId, commandId: message?.commandId ?? null, readAt: platformTime(event.readAt) } };
    case 'message.failed':
      return {
        type: event.type,
        time,
        data: {
          conversationId, messageExternalId: event.messageExternalId, commandId: message?.commandId ?? null, reason: event.reason,
          platformMessage: event.platformMessage, failedAt: platformTime(event.failedAt),
        },
      };
    case 'message.reaction':
      return {
        type: event.type,
        time,
        data: {
          conversationId, messageExternalId: event.messageExternalId, reactionExternalId: event.reactionExternalId, senderExternalId: event.senderExternalId,
          reaction: event.reaction, action: event.action, reactedAt: platformTime(event.reactedAt),
        },
      };
    case 'message.edited':
      return { type: event.type, time, data: { conversationId, messageExternalId: event.messageExternalId, senderExternalId: event.senderExternalId, text: event.text, editedAt: platformTime(event.editedAt) } };
    case 'message.unsent':
      return { type: event.type, time, data: { conversationId, messageExternalId: event.messageExternalId, senderExternalId: event.senderExternalId, unsentAt: platformTime(event.unsentAt) } };
  }
}

/**
 * Records what the platform reported: conversation state and the stream events it implies, in
 * the order reported, in one transaction, once (a re-reported event adds nothing). Then wakes
 * the account's open streams.
 */
export async function recordPlatformEvents(services: Pick<Services, 'store' | 'clock' | 'hub' | 'ids'>, accountId: string, events: PlatformEvent[]): Promise<PlatformEventsResult> {
  const now = services.clock.now();
  const result = await services.store.recordPlatformEvents(accountId, events, now, services.ids.next, (event, conversation, vote, message) => streamEvent(event, conversation, now, vote, message));
  if (result.ok && result.value.events.length > 0) services.hub.notify(accountId);
  return result;
}
