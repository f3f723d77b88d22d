import { describe, expect, test } from 'vitest';
import { chatOf, failureOf, isUnsent, othersChanges, ownStates, reactionOf } from './rows.ts';
import { associatedGuidOf, tapbackOf, WEBHOOK_EVENTS, type BbMessage } from './wire.ts';

const T = Date.parse('2030-01-01T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const direct = { guid: 'iMessage;-;+14155550100', style: 45, chatIdentifier: '+14155550100', displayName: '' };
const group = { guid: 'iMessage;+;chat123', style: 43, chatIdentifier: 'chat123', displayName: 'G' };

/** A row as BlueBubbles serializes it (MessageSerializer.convert), with the fields a test sets. */
function row(fields: Partial<BbMessage> = {}): BbMessage {
  return {
    guid: 'MSG-1', text: 'hello', subject: null, error: 0, dateCreated: T, isFromMe: true, handle: null, itemType: 0, groupTitle: null,
    groupActionType: 0, associatedMessageGuid: null, associatedMessageType: null, expressiveSendStyleId: null, threadOriginatorGuid: null,
    attachments: [], chats: [direct], isDelivered: false, dateDelivered: null, dateRead: null, dateEdited: null, dateRetracted: null, partCount: 1,
    ...fields,
  };
}

describe('wire: what BlueBubbles names', () => {
  test('the driver registers for updated-message and message-send-error besides new messages and group changes', () => {
    expect(WEBHOOK_EVENTS).toEqual(['new-message', 'updated-message', 'message-send-error', 'group-name-change', 'participant-added', 'participant-removed', 'participant-left']);
  });

  test('MessageTypeTransformer: tapback names, a leading "-" removes; stickers, emoji tapbacks (bare numbers) and plain messages are no tapback', () => {
    expect(tapbackOf('love')).toEqual({ reaction: 'love', removed: false });
    expect(tapbackOf('-question')).toEqual({ reaction: 'question', removed: true });
    for (const other of [null, 'sticker', '2006', '3006', '-sticker']) expect(tapbackOf(other)).toBeNull();
  });

  test('associatedMessageGuid loses its p:N/ or bp: prefix as the BlueBubbles app strips it', () => {
    expect(associatedGuidOf('p:0/AAA-BBB')).toBe('AAA-BBB');
    expect(associatedGuidOf('p:2/AAA-BBB')).toBe('AAA-BBB');
    expect(associatedGuidOf('bp:AAA-BBB')).toBe('AAA-BBB');
    expect(associatedGuidOf('AAA-BBB')).toBe('AAA-BBB');
  });
});

describe('the account\'s own messages: delivered, read, failed', () => {
  test('nothing while the row shows nothing', () => {
    expect(ownStates(row(), chatOf(row())!, T)).toEqual([]);
  });

  test('dateDelivered is message.delivered at that time; isDelivered without a date (SMS) is delivered at dateCreated', () => {
    expect(ownStates(row({ isDelivered: true, dateDelivered: T + 1_000 }), chatOf(row())!, T)).toEqual([
      { key: 'MSG-1:delivered', event: { type: 'message.delivered', conversationExternalId: direct.guid, messageExternalId: 'MSG-1', deliveredAt: iso(T + 1_000) } },
    ]);
    expect(ownStates(row({ isDelivered: true }), chatOf(row())!, T)[0]!.event).toMatchObject({ deliveredAt: iso(T) });
  });

  test('dateRead is message.read in a direct chat, never in a group', () => {
    const read = row({ isDelivered: true, dateDelivered: T + 1_000, dateRead: T + 2_000 });
    expect(ownStates(read, chatOf(read)!, T).map((s) => s.event)).toEqual([
      expect.objectContaining({ type: 'message.delivered' }),
      { type: 'message.read', conversationExternalId: direct.guid, messageExternalId: 'MSG-1', readAt: iso(T + 2_000) },
    ]);
    const inGroup = { ...read, chats: [group] };
    expect(ownStates(inGroup, chatOf(inGroup)!, T).map((s) => s.event.type)).toEqual(['message.delivered']);
  });

  test('error ≠ 0 is message.failed at the time it is seen: 22 the recipient cannot receive iMessage, any other code not delivered', () => {
    expect(ownStates(row({ error: 22 }), chatOf(row())!, T + 5)).toEqual([{
      key: 'MSG-1:failed',
      event: { type: 'message.failed', conversationExternalId: direct.guid, messageExternalId: 'MSG-1', reason: 'recipient_unreachable', platformMessage: 'Messages error 22: the recipient is not registered with iMessage', failedAt: iso(T + 5) },
    }]);
    expect(failureOf(4)).toEqual({ reason: 'not_delivered', platformMessage: 'Messages error 4: message timeout' });
    expect(failureOf(1000)).toEqual({ reason: 'not_delivered', platformMessage: 'Messages error 1000' });
  });

  test('someone else\'s message, a tapback of the account\'s and a group event have no own states', () => {
    expect(ownStates(row({ isFromMe: false, isDelivered: true }), chatOf(row())!, T)).toEqual([]);
    expect(ownStates(row({ associatedMessageType: 'love', associatedMessageGuid: 'p:0/X', isDelivered: true }), chatOf(row())!, T)).toEqual([]);
    expect(ownStates(row({ itemType: 2, error: 4 }), chatOf(row())!, T)).toEqual([]);
  });
});

describe('what other people do to messages', () => {
  const theirs = (fields: Partial<BbMessage> = {}) => row({ isFromMe: false, handle: { address: '+14155550100', service: 'iMessage' }, ...fields });

  test('a tapback row is message.reaction on the message it names: added, or removed with "-"', () => {
    const added = theirs({ guid: 'TB-1', text: null, associatedMessageType: 'laugh', associatedMessageGuid: 'p:0/MSG-9', dateCreated: T + 7 });
    expect(reactionOf(added, chatOf(added)!)).toEqual({
      type: 'message.reaction', conversationExternalId: direct.guid, reactionExternalId: 'TB-1', messageExternalId: 'MSG-9', senderExternalId: '+14155550100',
      reaction: 'laugh', action: 'added', reactedAt: iso(T + 7),
    });
    const removed = theirs({ guid: 'TB-2', associatedMessageType: '-laugh', associatedMessageGuid: 'bp:MSG-9' });
    expect(reactionOf(removed, chatOf(removed)!)).toMatchObject({ reactionExternalId: 'TB-2', messageExternalId: 'MSG-9', reaction: 'laugh', action: 'removed' });
  });

  test('the account\'s own tapbacks, stickers and emoji tapbacks are no message.reaction', () => {
    expect(reactionOf(row({ associatedMessageType: 'love', associatedMessageGuid: 'p:0/X' }), chatOf(row())!)).toBeNull();
    expect(reactionOf(theirs({ associatedMessageType: 'sticker', associatedMessageGuid: 'p:0/X' }), chatOf(row())!)).toBeNull();
    expect(reactionOf(theirs({ associatedMessageType: '2006', associatedMessageGuid: 'p:0/X' }), chatOf(row())!)).toBeNull();
  });

  test('dateEdited is message.edited with the newest text, once per edit time', () => {
    const edited = theirs({ text: 'hello again', dateEdited: T + 60_000, messageSummaryInfo: [{ editedParts: [0] }] });
    expect(othersChanges(edited, chatOf(edited)!)).toEqual([{
      key: `MSG-1:edited:${T + 60_000}`,
      event: { type: 'message.edited', conversationExternalId: direct.guid, messageExternalId: 'MSG-1', senderExternalId: '+14155550100', text: 'hello again', editedAt: iso(T + 60_000) },
    }]);
    expect(othersChanges(theirs(), chatOf(row())!)).toEqual([]);
  });

  test('an unsend (dateEdited, a retracted part, no part left) is message.unsent, not an edit; dateRetracted counts too', () => {
    const unsent = theirs({ text: null, dateEdited: T + 90_000, partCount: 0, messageSummaryInfo: [{ retractedParts: [0] }] });
    expect(isUnsent(unsent)).toBe(true);
    expect(othersChanges(unsent, chatOf(unsent)!)).toEqual([{
      key: 'MSG-1:unsent',
      event: { type: 'message.unsent', conversationExternalId: direct.guid, messageExternalId: 'MSG-1', senderExternalId: '+14155550100', unsentAt: iso(T + 90_000) },
    }]);
    expect(isUnsent(theirs({ dateRetracted: T }))).toBe(true);
    // One part of two unsent: the message is still there, with what is left of it.
    const partly = theirs({ text: 'rest', dateEdited: T, partCount: 1, messageSummaryInfo: [{ retractedParts: [1] }] });
    expect(isUnsent(partly)).toBe(false);
    expect(othersChanges(partly, chatOf(partly)!).map((c) => c.event.type)).toEqual(['message.edited']);
    // The app's short key for the same list.
    expect(isUnsent(theirs({ dateEdited: T, partCount: 0, messageSummaryInfo: [{ rp: [0] }] }))).toBe(true);
  });

  test('the account\'s own edits and unsends are not reported', () => {
    expect(othersChanges(row({ dateEdited: T, text: 'mine' }), chatOf(row())!)).toEqual([]);
  });
});
