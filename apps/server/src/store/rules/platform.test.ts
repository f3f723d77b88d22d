import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { PlatformEvent } from '@switchboard/contracts';
import type { ConversationRecord, PlatformEventView } from '../types.ts';
import {
  announcesConversationOf, appearedConversation, changedFrom, conversationsMentioned, platformEventEffect, sameMembers, unknownConversation,
} from './platform.ts';

type Changed = Extract<PlatformEvent, { type: 'group.participants_changed' }>;

const group: ConversationRecord = {
  id: 'v1', accountId: 'a1', externalId: 'g', kind: 'group', name: 'Team', participants: ['a@example.com', 'b@example.com'], membershipVersion: 2, createdAt: 1,
};
/** A view that shows what it was given, so a test sees the event and the conversation the rule passed. */
const view: PlatformEventView = (event, conversation) => ({ type: event.type, time: 0, data: { event, conversation } });

const received: PlatformEvent = { type: 'message.received', conversationExternalId: 'g', messageExternalId: 'm1', senderExternalId: 'a@example.com', text: 'hi', attachments: [], receivedAt: '2026-01-01T00:00:00.000Z' };
const sent: PlatformEvent = { type: 'message.sent', conversationExternalId: 'g', messageExternalId: 'm2', commandId: 'c1' };

describe('platformEventEffect', () => {
  it('a message is itself by its id, is recorded, and is shown', () => {
    const effect = platformEventEffect(group, received, view, 7);
    expect(effect).toMatchObject({ identity: 'm1', conversation: null, shown: view(received, group) });
    expect(effect.message).toMatchObject({ messageExternalId: 'm1', direction: 'inbound', senderExternalId: 'a@example.com', text: 'hi', recordedAt: 7 });
    expect(platformEventEffect(group, sent, view, 7)).toMatchObject({ identity: 'm2', conversation: null, message: { direction: 'outbound', commandId: 'c1', sentAt: 7 } });
  });

  it('a state of a message is itself by the message; an edit by its message and time; a tapback by its own id', () => {
    const delivered: PlatformEvent = { type: 'message.delivered', conversationExternalId: 'g', messageExternalId: 'm2', deliveredAt: '2026-01-01T00:00:01.000Z' };
    expect(platformEventEffect(group, delivered, view, 7).identity).toBe('m2');
    const edited: PlatformEvent = { type: 'message.edited', conversationExternalId: 'g', messageExternalId: 'm1', senderExternalId: 'a@example.com', text: 'hey', editedAt: '2026-01-01T00:00:02.000Z' };
    expect(platformEventEffect(group, edited, view, 7).identity).toBe('m1@2026-01-01T00:00:02.000Z');
    const reaction: PlatformEvent = {
      type: 'message.reaction', conversationExternalId: 'g', reactionExternalId: 'r1', messageExternalId: 'm2', senderExternalId: 'a@example.com', reaction: 'love', action: 'added', reactedAt: '2026-01-01T00:00:03.000Z',
    };
    expect(platformEventEffect(group, reaction, view, 7)).toEqual({ identity: 'r1', conversation: null, message: null, shown: view(reaction, group) });
  });

  it('a rename by a command is that command; one the platform made has no identity', () => {
    const renamed = { type: 'group.renamed', conversationExternalId: 'g', name: 'New', commandId: 'c9' } as const;
    const after = { ...group, name: 'New' };
    expect(platformEventEffect(group, renamed, view, 0)).toEqual({ identity: 'command:c9', conversation: after, message: null, shown: view(renamed, after) });
    const { commandId: _, ...byPlatform } = renamed;
    expect(platformEventEffect(group, byPlatform, view, 0).identity).toBeNull();
  });

  it('a rename to the name it has changes nothing and shows nothing', () => {
    expect(platformEventEffect(group, { type: 'group.renamed', conversationExternalId: 'g', name: 'Team' }, view, 0)).toEqual({ identity: null, conversation: null, message: null, shown: null });
  });

  it('a membership change moves the version and shows added and removed against the members held', () => {
    // The host says it added nobody: a host that restarted knows no members from before.
    const event: Changed = { type: 'group.participants_changed', conversationExternalId: 'g', added: [], removed: [], participants: ['b@example.com', 'c@example.com'] };
    const after = { ...group, participants: ['b@example.com', 'c@example.com'], membershipVersion: 3 };
    const effect = platformEventEffect(group, event, view, 0);
    expect(effect.conversation).toEqual(after);
    expect(effect.shown).toEqual(view({ ...event, added: ['c@example.com'], removed: ['a@example.com'] }, after));
  });

  it('the same members in another order change nothing', () => {
    const event: Changed = { type: 'group.participants_changed', conversationExternalId: 'g', added: [], removed: [], participants: ['b@example.com', 'a@example.com'], commandId: 'c3' };
    expect(platformEventEffect(group, event, view, 0)).toEqual({ identity: 'command:c3', conversation: null, message: null, shown: null });
  });
});

describe('conversations named by a batch', () => {
  const appeared: PlatformEvent = { type: 'conversation.appeared', externalId: 'n', conversationKind: 'direct', name: null, participants: ['x@example.com'], commandId: 'c1' };

  it('a conversation.appeared makes the conversation it describes, at version 0', () => {
    expect(appearedConversation('a1', appeared as Extract<PlatformEvent, { type: 'conversation.appeared' }>, 'v9', 7)).toEqual({
      id: 'v9', accountId: 'a1', externalId: 'n', kind: 'direct', name: null, participants: ['x@example.com'], membershipVersion: 0, createdAt: 7,
    });
  });

  it('unknown: the first named that neither the store nor an earlier event knows', () => {
    const inN = { ...received, conversationExternalId: 'n' };
    expect(unknownConversation([received], new Set(['g']))).toBeNull();
    expect(unknownConversation([inN, appeared], new Set(['g']))).toBe('n');
    expect(unknownConversation([appeared, inN], new Set())).toBeNull();
    expect(unknownConversation([appeared, received], new Set())).toBe('g');
  });

  it('mentioned: each conversation an event names without announcing it, once', () => {
    expect(conversationsMentioned([appeared, received, sent])).toEqual(['g']);
  });

  it('a command announced its conversation', () => {
    expect(announcesConversationOf([received, appeared], 'c1')).toBe(true);
    expect(announcesConversationOf([appeared], 'c2')).toBe(false);
  });
});

describe('members', () => {
  it('sameMembers ignores order and nothing else', () => {
    const members = fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e'));
    fc.assert(fc.property(members, members, (a, b) => {
      expect(sameMembers(a, [...a].reverse())).toBe(true);
      expect(sameMembers(a, b)).toBe(a.length === b.length && a.every((m) => b.includes(m)));
    }));
  });

  it('changedFrom: added and removed are the difference from what is held', () => {
    expect(changedFrom(['a', 'b'], { added: ['z'], removed: ['y'], participants: ['b', 'c'] })).toEqual({ added: ['c'], removed: ['a'], participants: ['b', 'c'] });
  });
});
