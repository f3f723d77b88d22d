import type { PlatformEvent } from '@switchboard/contracts';
import type { CommandRecord, ConversationRecord, MessageRecord, NewEvent, PlatformEventView } from '../types.ts';
import { isMessageEvent, messageAfter } from './messages.ts';

type Appeared = Extract<PlatformEvent, { type: 'conversation.appeared' }>;
/** Every platform event but conversation.appeared: each names a conversation known already. */
export type InConversation = Exclude<PlatformEvent, Appeared>;

/** A platform event names a conversation nobody announced; what it was reported with is rolled back. */
export class UnknownConversation extends Error {
  readonly externalId: string;
  constructor(externalId: string) {
    super(`conversation "${externalId}" is unknown`);
    this.externalId = externalId;
  }
}

/** Whether a conversation.appeared among these events names the command that made it (its conversation from then on). */
export function announcesConversationOf(events: readonly PlatformEvent[], commandId: string): boolean {
  return events.some((e) => e.type === 'conversation.appeared' && e.commandId === commandId);
}

/** The conversations events name that they do not announce themselves. */
export function conversationsMentioned(events: readonly PlatformEvent[]): string[] {
  return [...new Set(events.flatMap((e) => (e.type === 'conversation.appeared' ? [] : [e.conversationExternalId])))];
}

/** The first conversation an event names that neither `known` nor an earlier event announced; null when there is none. */
export function unknownConversation(events: readonly PlatformEvent[], known: ReadonlySet<string>): string | null {
  const announced = new Set(known);
  for (const e of events) {
    if (e.type === 'conversation.appeared') announced.add(e.externalId);
    else if (!announced.has(e.conversationExternalId)) return e.conversationExternalId;
  }
  return null;
}

/**
 * The conversation a conversation.appeared makes, unless one with its platform id exists: then
 * nothing changes and nothing is shown (the store's unique key decides between racing writers).
 */
export function appearedConversation(accountId: string, event: Appeared, id: string, at: number): ConversationRecord {
  return {
    id, accountId, externalId: event.externalId, kind: event.conversationKind, name: event.name, participants: event.participants, membershipVersion: 0, createdAt: at,
  };
}

/**
 * A membership change as the stream shows it: `added` and `removed` are the difference from the
 * members the store holds, which is what subscribers saw last. A host's own count can be wrong
 * (one that restarted knows no members from before).
 */
export function changedFrom<E extends { added: string[]; removed: string[]; participants: string[] }>(held: readonly string[], event: E): E {
  return { ...event, added: event.participants.filter((p) => !held.includes(p)), removed: held.filter((p) => !event.participants.includes(p)) };
}

/** Whether two participant lists hold the same members: a platform lists them in an order of its own. */
export function sameMembers(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const members = new Set(a);
  return b.every((member) => members.has(member)) && new Set(b).size === members.size;
}

/**
 * What an event in a known conversation (not a vote: see polls.ts) is, once: a message (or a
 * message's state) by its id, a tapback by its own id, an edit by its message and time, a group
 * change by the command that made it. A change the platform made on its own has none: it applies
 * when it changes something.
 */
export function identityOf(event: Exclude<InConversation, { type: 'poll.voted' }>): string | null {
  switch (event.type) {
    case 'message.reaction':
      return event.reactionExternalId;
    case 'message.edited':
      return `${event.messageExternalId}@${event.editedAt}`;
    case 'group.renamed':
    case 'group.participants_changed':
      return event.commandId ? `command:${event.commandId}` : null;
    default:
      return event.messageExternalId;
  }
}

/**
 * What an event in a known conversation (not a vote: see polls.ts) does. The store records its
 * `identity` once, and a re-reported event (its identity recorded already) does nothing.
 * `conversation`: the row as the event leaves it, when it changes; `message`: the message row as
 * it leaves it (messages.ts), for an event about a message; `shown`: the stream event it implies.
 * `held`: the message the event names, as stored, and for a `message.sent` its command.
 */
export interface PlatformEffect {
  identity: string | null;
  conversation: ConversationRecord | null;
  message: MessageRecord | null;
  shown: NewEvent | null;
}

export interface HeldMessage {
  message: MessageRecord | null;
  command?: CommandRecord | null;
}

export function platformEventEffect(
  current: ConversationRecord, event: Exclude<InConversation, { type: 'poll.voted' }>, view: PlatformEventView, at: number, held: HeldMessage = { message: null },
): PlatformEffect {
  const identity = identityOf(event);
  if (isMessageEvent(event)) {
    const message = messageAfter(current.accountId, current.id, held.message, event, at, held.command ?? null);
    return { identity, conversation: null, message, shown: view(event, current, undefined, message) };
  }
  switch (event.type) {
    case 'message.reaction':
      return { identity, conversation: null, message: null, shown: view(event, current) };
    case 'group.renamed': {
      if (current.name === event.name) return { identity, conversation: null, message: null, shown: null };
      const renamed = { ...current, name: event.name };
      return { identity, conversation: renamed, message: null, shown: view(event, renamed) };
    }
    case 'group.participants_changed': {
      if (sameMembers(current.participants, event.participants)) return { identity, conversation: null, message: null, shown: null };
      const changed = { ...current, participants: event.participants, membershipVersion: current.membershipVersion + 1 };
      return { identity, conversation: changed, message: null, shown: view(changedFrom(current.participants, event), changed) };
    }
  }
}
