import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { ActionRef, ConversationRef } from '../types.ts';
import { raceTwoProcesses } from '@switchboard/testkit';
import { directExternalId, SimulatedPlatform } from './platform.ts';

const HOST = 'host-a';
let dir: string;
let path: string;
let platform: SimulatedPlatform;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sim-platform-'));
  path = join(dir, 'simulator.db');
  platform = new SimulatedPlatform(path, 'account-1');
});

afterEach(() => {
  platform.close();
  rmSync(dir, { recursive: true, force: true });
});

const action = (): ActionRef => {
  const commandId = randomUUID();
  return { commandId, logicalActionId: commandId };
};

/** The conversation as the server would resolve it now. */
function ref(externalId: string): ConversationRef {
  const state = platform.conversation(externalId)!;
  return { externalId, kind: state.kind, participants: state.participants, membershipVersion: state.membershipVersion };
}

function group(participants = ['+14155550101', '+14155550102']) {
  const created = platform.createGroup(action(), HOST, participants, 'hello all', 'Team', 'none');
  const appeared = created.events[0]!;
  if (appeared.type !== 'conversation.appeared') throw new Error('no conversation.appeared');
  return appeared.externalId;
}

describe('recipient sends', () => {
  test('a recipient send creates the direct conversation and reports it with its commandId before the echo', () => {
    const a = action();
    const outcome = platform.sendToRecipient(a, HOST, 'bob@example.com', 'hi', 'none');
    expect(outcome.result).toBe('confirmed');
    expect(outcome.events.map((e) => e.type)).toEqual(['conversation.appeared', 'message.sent']);
    expect(outcome.events[0]).toMatchObject({ externalId: directExternalId('bob@example.com'), conversationKind: 'direct', participants: ['bob@example.com'], commandId: a.commandId });
    expect(platform.conversation(directExternalId('bob@example.com'))?.createdByCommand).toBe(a.commandId);
  });

  test('an address on the reserved .invalid domain is an invalid target and creates nothing', () => {
    const outcome = platform.sendToRecipient(action(), HOST, 'nobody@example.invalid', 'hi', 'none');
    expect(outcome.result).toBe('invalid_target');
    expect(platform.conversations()).toEqual([]);
  });

  test('a rejected send leaves nothing on the platform; a lost echo leaves the message', () => {
    const rejected = action();
    expect(platform.sendToRecipient(rejected, HOST, 'bob@example.com', 'hi', 'gateway_rejected').result).toBe('gateway_rejected');
    expect(platform.messagesOfAction(rejected.logicalActionId)).toHaveLength(0);
    expect(platform.execution(rejected.logicalActionId)).toBeNull();

    const notOk = action();
    expect(platform.sendToRecipient(notOk, HOST, 'bob@example.com', 'hi', 'send_not_ok').result).toBe('send_not_ok');
    expect(platform.messagesOfAction(notOk.logicalActionId)).toHaveLength(0);

    const lost = action();
    const outcome = platform.sendToRecipient(lost, HOST, 'bob@example.com', 'hi', 'echo_lost');
    expect(outcome.result).toBe('accepted_no_echo');
    expect(outcome.events.map((e) => e.type)).toEqual(['conversation.appeared']);
    expect(platform.messagesOfAction(lost.logicalActionId)).toHaveLength(1);
  });
});

describe('executed once', () => {
  test('a logical action repeated returns what the first execution did and changes nothing', () => {
    platform.receive({ from: '+14155550101', text: 'hey' });
    const dm = ref(directExternalId('+14155550101'));
    const a = action();
    const first = platform.send(a, HOST, dm, { kind: 'text', text: 'one' }, 'none');
    const second = platform.send(a, 'host-b', dm, { kind: 'text', text: 'one' }, 'gateway_rejected');
    expect(second).toEqual({ ...first, replayed: true });
    expect(platform.messagesOfAction(a.logicalActionId)).toHaveLength(1);
    expect(platform.execution(a.logicalActionId)).toMatchObject({ commandId: a.commandId, hostId: HOST });
  });

  test('another command with the same logicalActionId gets the outcome without the first command\'s events', () => {
    platform.receive({ from: '+14155550101', text: 'hey' });
    const dm = ref(directExternalId('+14155550101'));
    const a = action();
    platform.send(a, HOST, dm, { kind: 'text', text: 'one' }, 'none');
    const other = platform.send({ commandId: randomUUID(), logicalActionId: a.logicalActionId }, HOST, dm, { kind: 'text', text: 'one' }, 'none');
    expect(other).toMatchObject({ result: 'confirmed', replayed: true, events: [] });
    expect(platform.messagesOfAction(a.logicalActionId)).toHaveLength(1);
  });

  test('two hosts sharing the platform file cannot both execute one logical action', () => {
    const other = new SimulatedPlatform(path, 'account-1');
    try {
      const a = action();
      const outcomes = [platform.sendToRecipient(a, HOST, 'bob@example.com', 'hi', 'none'), other.sendToRecipient(a, 'host-b', 'bob@example.com', 'hi', 'none')];
      expect(outcomes.map((o) => o.replayed === true)).toEqual([false, true]);
      expect(other.messagesOfAction(a.logicalActionId)).toHaveLength(1);
    } finally {
      other.close();
    }
  });

  test('failures that left the platform unchanged are not recorded, so a later attempt may execute', () => {
    const a = action();
    expect(platform.sendToRecipient(a, HOST, 'bob@example.com', 'hi', 'gateway_rejected').result).toBe('gateway_rejected');
    expect(platform.sendToRecipient(a, HOST, 'bob@example.com', 'hi', 'none')).toMatchObject({ result: 'confirmed' });
    expect(platform.messagesOfAction(a.logicalActionId)).toHaveLength(1);
  });

  test('each account has its own platform in the shared file', () => {
    const other = new SimulatedPlatform(path, 'account-2');
    try {
      platform.receive({ from: '+14155550101', text: 'hey' });
      expect(other.conversations()).toEqual([]);
      expect(platform.conversations()).toHaveLength(1);
    } finally {
      other.close();
    }
  });
});

describe('targets', () => {
  test('a conversation the platform does not know is an invalid target', () => {
    const outcome = platform.send(action(), HOST, { externalId: 'sim;-;nobody', kind: 'direct', participants: [], membershipVersion: 0 }, { kind: 'text', text: 'x' }, 'none');
    expect(outcome.result).toBe('invalid_target');
  });

  test('after group.leave the group is an invalid target, and receives nothing', () => {
    const g = group();
    expect(platform.leaveGroup(action(), HOST, ref(g)).result).toBe('confirmed');
    expect(platform.send(action(), HOST, ref(g), { kind: 'text', text: 'x' }, 'none').result).toBe('invalid_target');
    expect(() => platform.receive({ from: '+14155550101', conversationExternalId: g, text: 'anyone?' })).toThrow(/left/);
  });

  test('a reply to a message that is not in the conversation is an invalid target', () => {
    platform.receive({ from: '+14155550101', text: 'hey' });
    const dm = ref(directExternalId('+14155550101'));
    const outcome = platform.send(action(), HOST, dm, { kind: 'rich_text', text: 'x', replyToMessageExternalId: 'NOPE' }, 'none');
    expect(outcome.result).toBe('invalid_target');
  });

  test('a reply to a message of the conversation threads under it', () => {
    const { messageExternalId } = platform.receive({ from: '+14155550101', text: 'hey' });
    const dm = ref(directExternalId('+14155550101'));
    const a = action();
    expect(platform.send(a, HOST, dm, { kind: 'rich_text', text: 'x', effect: 'confetti', replyToMessageExternalId: messageExternalId }, 'none').result).toBe('confirmed');
    expect(platform.messagesOfAction(a.logicalActionId)[0]).toMatchObject({ kind: 'rich_text', body: { text: 'x', effect: 'confetti', replyToMessageExternalId: messageExternalId } });
  });
});

describe('group membership', () => {
  test('after add_participant the group is stale until a new inbound message arrives in it', () => {
    const g = group();
    const add = platform.addParticipant(action(), HOST, ref(g), '+14155550103', 'none');
    expect(add).toMatchObject({
      result: 'confirmed',
      events: [{ type: 'group.participants_changed', added: ['+14155550103'], removed: [], participants: ['+14155550101', '+14155550102', '+14155550103'] }],
    });
    // Even resolved against the new membership, the group stays stale until someone writes in it.
    expect(platform.send(action(), HOST, ref(g), { kind: 'text', text: 'x' }, 'none').result).toBe('stale_target');
    expect(platform.renameGroup(action(), HOST, ref(g), 'New', 'none').result).toBe('stale_target');
    platform.receive({ from: '+14155550103', conversationExternalId: g, text: 'thanks for adding me' });
    expect(platform.send(action(), HOST, ref(g), { kind: 'text', text: 'x' }, 'none').result).toBe('confirmed');
  });

  test('a command resolved before a membership change is stale even after the group is usable again', () => {
    const g = group();
    const before = ref(g);
    platform.addParticipant(action(), HOST, before, '+14155550103', 'none');
    platform.receive({ from: '+14155550101', conversationExternalId: g, text: 'hi' });
    expect(platform.send(action(), HOST, before, { kind: 'text', text: 'x' }, 'none').result).toBe('stale_target');
    expect(platform.send(action(), HOST, ref(g), { kind: 'text', text: 'x' }, 'none').result).toBe('confirmed');
  });

  test('remove_participant changes the membership without making the group stale', () => {
    const g = group();
    const outcome = platform.removeParticipant(action(), HOST, ref(g), '+14155550102', 'none');
    expect(outcome.events).toEqual([expect.objectContaining({ type: 'group.participants_changed', removed: ['+14155550102'], participants: ['+14155550101'] })]);
    expect(platform.conversation(g)).toMatchObject({ stale: false, membershipVersion: 1, participants: ['+14155550101'] });
  });

  test('an unverifiable group update changes nothing', () => {
    const g = group();
    expect(platform.renameGroup(action(), HOST, ref(g), 'New', 'unverified').result).toBe('group_update_unverified');
    expect(platform.addParticipant(action(), HOST, ref(g), '+14155550103', 'unverified').result).toBe('group_update_unverified');
    expect(platform.conversation(g)).toMatchObject({ name: 'Team', membershipVersion: 0, stale: false });
  });

  test('rename reports group.renamed; set photo keeps its digest', () => {
    const g = group();
    const a = action();
    expect(platform.renameGroup(a, HOST, ref(g), 'Renamed', 'none').events).toEqual([{ type: 'group.renamed', conversationExternalId: g, name: 'Renamed', commandId: a.commandId }]);
    expect(platform.setGroupPhoto(action(), HOST, ref(g), { fileName: 'p.png', mimeType: 'image/png', bytes: new Uint8Array([1, 2, 3]) }, 'none').result).toBe('confirmed');
    expect(platform.conversation(g)).toMatchObject({ name: 'Renamed', photoSha256: '039058c6f2c0cb492c533b0a4d14ef77cc0f78abccced5287d84a1a2011cfb81' });
  });
});

describe('reactions and cards', () => {
  test('reaction.apply reacts to the newest incoming message of the direct conversation', () => {
    platform.receive({ from: '+14155550101', text: 'first' });
    const { messageExternalId: newest } = platform.receive({ from: '+14155550101', text: 'second' });
    const dm = ref(directExternalId('+14155550101'));
    platform.send(action(), HOST, dm, { kind: 'text', text: 'my reply is newer but outgoing' }, 'none');
    const a = action();
    expect(platform.reactToNewestIncoming(a, HOST, dm, 'love').result).toBe('confirmed');
    expect(platform.messagesOfAction(a.logicalActionId)[0]).toMatchObject({ kind: 'tapback', associatedMessage: newest, body: { tapback: 'love' } });
  });

  test('reaction.apply without an incoming message has no message to react to', () => {
    platform.sendToRecipient(action(), HOST, 'bob@example.com', 'hi', 'none');
    const outcome = platform.reactToNewestIncoming(action(), HOST, ref(directExternalId('bob@example.com')), 'like');
    expect(outcome.result).toBe('no_message_to_react_to');
  });

  test('reaction.tapback reacts to any message by id, in a group too; an unknown id has no message to react to', () => {
    const g = group();
    const { messageExternalId } = platform.receive({ from: '+14155550102', conversationExternalId: g, text: 'vote?' });
    expect(platform.tapback(action(), HOST, ref(g), messageExternalId, 'emphasize', false).result).toBe('confirmed');
    expect(platform.tapback(action(), HOST, ref(g), 'UNKNOWN', 'emphasize', false).result).toBe('no_message_to_react_to');
  });

  test('name_photo.share puts the account\'s card in the direct conversation', () => {
    platform.receive({ from: '+14155550101', text: 'who is this?' });
    const a = action();
    expect(platform.shareNamePhoto(a, HOST, ref(directExternalId('+14155550101'))).result).toBe('confirmed');
    expect(platform.messagesOfAction(a.logicalActionId)).toEqual([expect.objectContaining({ kind: 'contact_card', direction: 'out' })]);
  });
});

describe('the feed', () => {
  test('an inbound message from someone new announces the conversation first, with the attachment bytes', () => {
    const bytes = new TextEncoder().encode('%PDF');
    const injected = platform.receive({ from: '+14155550101', text: 'see attached', attachments: [{ fileName: 'a.pdf', mimeType: 'application/pdf', bytes }] });
    const { events, through } = platform.readFeed(100);
    expect(through).toBeGreaterThan(0);
    expect(events.map((e) => e.type)).toEqual(['conversation.appeared', 'message.received']);
    expect(events[1]).toMatchObject({
      conversationExternalId: injected.conversationExternalId,
      messageExternalId: injected.messageExternalId,
      senderExternalId: '+14155550101',
      text: 'see attached',
      attachments: [{ attachmentId: injected.attachmentIds[0], fileName: 'a.pdf', mimeType: 'application/pdf', bytes }],
    });
  });

  test('every batch announces the conversations its messages are in, and resumes after the acknowledged entry', () => {
    platform.sendToRecipient(action(), HOST, 'bob@example.com', 'hi', 'none');
    platform.receive({ from: 'bob@example.com', text: 'hi back' });
    const first = platform.readFeed(100);
    // The conversation was made by a command: the feed still announces it, so the server knows it whichever report lands first.
    expect(first.events.map((e) => e.type)).toEqual(['conversation.appeared', 'message.received']);
    expect(platform.readFeed(100).events).toHaveLength(2);
    platform.ackFeed(first.through);
    expect(platform.readFeed(100).events).toEqual([]);
    platform.receive({ from: 'bob@example.com', text: 'again' });
    expect(platform.readFeed(100).events.map((e) => e.type)).toEqual(['conversation.appeared', 'message.received']);
  });

  test('the cursor is shared: what one host acknowledged, the next holder does not see again', () => {
    platform.receive({ from: '+14155550101', text: 'one' });
    platform.ackFeed(platform.readFeed(100).through);
    platform.receive({ from: '+14155550101', text: 'two' });
    const other = new SimulatedPlatform(path, 'account-1');
    try {
      const texts = other.readFeed(100).events.flatMap((e) => (e.type === 'message.received' ? [e.text] : []));
      expect(texts).toEqual(['two']);
    } finally {
      other.close();
    }
  });

  test('a group started by peers appears with its participants and name', () => {
    platform.receive({ from: '+14155550101', group: { participants: ['+14155550101', '+14155550102'], name: 'Peers' }, text: 'welcome' });
    expect(platform.readFeed(100).events[0]).toMatchObject({ type: 'conversation.appeared', conversationKind: 'group', name: 'Peers', participants: ['+14155550101', '+14155550102'] });
  });

  test('a sender who is not in the conversation cannot write in it', () => {
    const g = group();
    expect(() => platform.receive({ from: '+14155550199', conversationExternalId: g, text: 'hi' })).toThrow(/not in conversation/);
  });
});

describe('changes other people make', () => {
  test('a peer renaming a group or changing its members goes on the feed; commands resolved before the change are stale', () => {
    const { conversationExternalId: g } = platform.receive({ from: '+14155550101', group: { participants: ['+14155550101', '+14155550102'], name: 'Peers' }, text: 'hi' });
    const before = ref(g);
    platform.ackFeed(platform.readFeed(100).through);
    platform.changeGroup({ from: '+14155550101', conversationExternalId: g, rename: 'Renamed by a peer', add: '+14155550103' });
    const { events } = platform.readFeed(100);
    expect(events.map((e) => e.type)).toEqual(['conversation.appeared', 'group.renamed', 'group.participants_changed']);
    expect(events[1]).toEqual({ type: 'group.renamed', conversationExternalId: g, name: 'Renamed by a peer' });
    expect(events[2]).toEqual({ type: 'group.participants_changed', conversationExternalId: g, added: ['+14155550103'], removed: [], participants: ['+14155550101', '+14155550102', '+14155550103'] });
    expect(platform.send(action(), HOST, before, { kind: 'text', text: 'x' }, 'none').result).toBe('stale_target');
    // Only the account's own add_participant leaves the group stale until the next message.
    expect(platform.send(action(), HOST, ref(g), { kind: 'text', text: 'x' }, 'none').result).toBe('confirmed');
  });

  test('only a member can change a group', () => {
    const { conversationExternalId: g } = platform.receive({ from: '+14155550101', group: { participants: ['+14155550101', '+14155550102'] }, text: 'hi' });
    expect(() => platform.changeGroup({ from: '+14155550199', conversationExternalId: g, rename: 'x' })).toThrow(/not in conversation/);
  });
});

describe('polls', () => {
  test('a vote goes on the feed after its conversation and the poll\'s echo, so a server that missed the echo can place it; a lost echo is not made up', () => {
    const chat = group();
    const sent = platform.send(action(), HOST, ref(chat), { kind: 'poll', question: 'Lunch?', options: ['a', 'b'] }, 'none');
    const echo = sent.events[0]!;
    if (echo.type !== 'message.sent') throw new Error('no echo');
    const vote = platform.vote({ from: '+14155550101', pollMessageExternalId: echo.messageExternalId, optionIndex: 1 });
    expect(vote).toMatchObject({ type: 'poll.voted', conversationExternalId: chat, voterExternalId: '+14155550101', optionIndex: 1 });
    const feed = platform.readFeed(100).events.filter((e) => e.type !== 'message.received');
    expect(feed.map((e) => e.type)).toEqual(['conversation.appeared', 'message.sent', 'poll.voted']);
    expect(feed[1]).toEqual(echo);

    const lost = platform.send(action(), HOST, ref(chat), { kind: 'poll', question: 'Dinner?', options: ['a', 'b'] }, 'echo_lost');
    const lostId = platform.messagesOfAction(platform.messages(chat).at(-1)!.logicalActionId!).at(-1)!.externalId;
    expect(lost.result).toBe('accepted_no_echo');
    platform.ackFeed(platform.readFeed(100).through);
    platform.vote({ from: '+14155550102', pollMessageExternalId: lostId, optionIndex: 0 });
    expect(platform.readFeed(100).events.map((e) => e.type)).toEqual(['conversation.appeared', 'poll.voted']);
  });
});

describe('one file, shared by processes', () => {
  test('two processes that create the file at the same moment both open it', async () => {
    // Hosts and the CLI share the file. Two connections turning a new file to WAL at once
    // deadlock, and one of them was refused ("database is locked") in about one round in eight.
    const imports = `import { SimulatedPlatform } from ${JSON.stringify(new URL('./platform.ts', import.meta.url).href)};`;
    const open = `new SimulatedPlatform(${JSON.stringify(dir)} + '/race-' + i + '.db', 'account-1').close();`;
    expect(await raceTwoProcesses(imports, open, 40, 25)).toEqual([]);
  }, 20_000);
});
