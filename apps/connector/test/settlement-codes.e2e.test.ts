import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createGroup, DRIVERS, inbound, startRig, toConversation, type Rig } from './helpers.ts';

/**
 * Every settlement code, each from the scenario that produces it, with the real server and real
 * host processes, against every driver (the bluebubbles driver in front of its stand-in). The
 * tests share one account per driver and run in order; a test that needs a differently
 * configured host replaces the running one.
 */
describe.each(DRIVERS)('%s driver', (driver) => {
  let rig: Rig;

  /** The command read, GET /v1/commands/{commandId}. */
  async function read(commandId: string): Promise<Record<string, unknown>> {
    const response = await fetch(`${rig.server.url}/v1/commands/${commandId}`, { headers: { authorization: `Bearer ${rig.apiKey}` } });
    expect(response.status).toBe(200);
    return (await response.json()) as Record<string, unknown>;
  }

  beforeAll(async () => {
    // One account sends every scenario's commands, more than the 60 a minute the limit allows.
    rig = await startRig({ SWITCHBOARD_RATE_LIMIT: '0' }, undefined, driver);
    await rig.onlyHost();
  });

  afterAll(async () => {
    await rig?.close();
  });

  describe('with a host that declares everything', () => {
    test('a recipient send announces its new conversation on the stream before its command event; rich content then goes to the conversation', async () => {
      const commandId = await rig.command('message.send', { target: { kind: 'recipient', recipientExternalId: 'dana@example.com' }, payload: { text: 'hi Dana' } });
      const settled = await rig.settled(commandId);
      const appeared = rig.stream.events.find((e) => e.type === 'conversation.appeared' && e.data.commandId === commandId)!;
      expect(appeared.data).toMatchObject({ kind: 'direct', participants: ['dana@example.com'] });
      expect(BigInt(appeared.id)).toBeLessThan(BigInt(settled.id));
      expect(settled.data).toMatchObject({ status: 'succeeded', errorCode: null, routingPath: 'admin', conversationId: appeared.data.conversationId });

      const rich = await rig.run('message.send', { target: toConversation(appeared.data.conversationId), payload: { kind: 'rich_text', text: 'now with confetti', effect: 'confetti', subject: 'Hello' } });
      expect(rich).toMatchObject({ status: 'succeeded', routingPath: 'agent-turn' });
      expect(rig.actionMessages(rich.logicalActionId)[0]).toMatchObject({ kind: 'rich_text', body: { effect: 'confetti', subject: 'Hello' } });
    });

    test('a recipient send delivers the bare text: the keys the service discarded never reach the platform', async () => {
      const data = await rig.run('message.send', { target: { kind: 'recipient', recipientExternalId: 'erin@example.com' }, payload: { kind: 'rich_text', text: 'plain', effect: 'lasers' } });
      expect(data.status).toBe('succeeded');
      expect(rig.actionMessages(data.logicalActionId)).toEqual([expect.objectContaining({ kind: 'text', body: { text: 'plain' } })]);
    });

    test('stale_target: after add_participant, commands to the group settle stale_target until a new message arrives in it', async () => {
      const group = await createGroup(rig, ['+14155550101', '+14155550102'], 'Team');
      const add = await rig.command('group.update', { target: toConversation(group.conversationId), payload: { action: 'add_participant', participantExternalId: '+14155550103' } });
      expect((await rig.settled(add)).data.status).toBe('succeeded');
      const changed = rig.stream.events.find((e) => e.type === 'group.participants_changed' && e.data.commandId === add)!;
      expect(changed.data).toMatchObject({ added: ['+14155550103'], participants: ['+14155550101', '+14155550102', '+14155550103'] });

      expect(await rig.run('message.send', { target: toConversation(group.conversationId), payload: { text: 'too early' } })).toMatchObject({ status: 'failed', errorCode: 'stale_target' });
      expect(await rig.run('group.update', { target: toConversation(group.conversationId), payload: { action: 'rename', name: 'Too early' } })).toMatchObject({ status: 'failed', errorCode: 'stale_target' });

      await inbound(rig, '+14155550103', 'thanks for adding me', group.externalId);
      expect(await rig.run('message.send', { target: toConversation(group.conversationId), payload: { text: 'welcome!' } })).toMatchObject({ status: 'succeeded' });
      expect(await rig.run('group.update', { target: toConversation(group.conversationId), payload: { action: 'rename', name: 'Team of three' } })).toMatchObject({ status: 'succeeded' });
      expect(rig.stream.events.some((e) => e.type === 'group.renamed' && e.data.conversationId === group.conversationId && e.data.name === 'Team of three')).toBe(true);
    });

    test('payload_invalid: add_participant of what is not an address; an address written another way joins in the form the platform knows', async () => {
      const group = await createGroup(rig, ['+14155550131', '+14155550132'], 'Forms');
      const to = toConversation(group.conversationId);
      expect(await rig.run('group.update', { target: to, payload: { action: 'add_participant', participantExternalId: 'not an address' } })).toMatchObject({
        status: 'failed', errorCode: 'payload_invalid', errorPath: '/payload/participantExternalId', errorMessage: expect.stringContaining('not_a_phone_number_or_email'),
      });
      const add = await rig.command('group.update', { target: to, payload: { action: 'add_participant', participantExternalId: '+1 (415) 555-0133' } });
      expect((await rig.settled(add)).data.status).toBe('succeeded');
      const changed = rig.stream.events.find((e) => e.type === 'group.participants_changed' && e.data.commandId === add)!;
      expect(changed.data).toMatchObject({ added: ['+14155550133'], participants: ['+14155550131', '+14155550132', '+14155550133'] });
    });

    test('a group whose photo the account changed from another device is still the account\'s group', async () => {
      const group = await createGroup(rig, ['+14155550141', '+14155550142'], 'Photo');
      rig.platform.groupPhotoChanged(group.externalId);
      expect(await rig.run('message.send', { target: toConversation(group.conversationId), payload: { text: 'new photo!' } })).toMatchObject({ status: 'succeeded' });
    });

    test('invalid_target: an address the platform cannot reach, and a group the account left', async () => {
      expect(await rig.run('message.send', { target: { kind: 'recipient', recipientExternalId: 'ghost@example.invalid' }, payload: { text: 'hello?' } })).toMatchObject({ status: 'failed', errorCode: 'invalid_target' });

      const group = await createGroup(rig, ['+14155550104', '+14155550105']);
      expect(await rig.run('group.leave', { target: toConversation(group.conversationId), payload: {} })).toMatchObject({ status: 'succeeded' });
      expect(await rig.run('message.send', { target: toConversation(group.conversationId), payload: { text: 'still here?' } })).toMatchObject({ status: 'failed', errorCode: 'invalid_target' });
    });

    test.each([
      ['a misspelled field', 'message.send', { txt: 'hi' }, '/payload/txt'],
      ['a bad effect enum', 'message.send', { kind: 'rich_text', text: 'hi', effect: 'sparkles' }, '/payload/effect'],
      ['a poll with one option', 'message.send', { kind: 'poll', question: 'q', options: ['only'] }, '/payload/options'],
      ['a tapback that is not one', 'reaction.tapback', { messageExternalId: 'M', tapback: 'wow' }, '/payload/tapback'],
      ['reaction.apply without a tapback', 'reaction.apply', {}, '/payload/tapback'],
      ['name_photo.share with a field', 'name_photo.share', { card: 'x' }, '/payload/card'],
    ])('payload_invalid: %s is accepted with 202, then settles payload_invalid, saying where (%s)', async (_name, type, payload, errorPath) => {
      const { conversationId } = await inbound(rig, '+14155550110', 'hi');
      expect(await rig.run(type, { target: toConversation(conversationId), payload })).toMatchObject({
        status: 'failed', errorCode: 'payload_invalid', errorPath, errorMessage: expect.stringContaining(`${errorPath}: `),
      });
    });

    test('why it failed: a misspelled field\'s command read and command event both say what and where; a success says nothing', async () => {
      const { conversationId } = await inbound(rig, '+14155550111', 'hi');
      const why = {
        errorMessage: '/payload/txt: Unrecognized key: "txt"; /payload/text: Invalid input: expected string, received undefined',
        errorPath: '/payload/txt',
      };
      const failed = await rig.run('message.send', { target: toConversation(conversationId), payload: { txt: 'typo' } });
      expect(failed).toMatchObject({ status: 'failed', errorCode: 'payload_invalid', ...why });
      expect(await read(failed.commandId)).toMatchObject({ status: 'failed', errorCode: 'payload_invalid', ...why });

      const succeeded = await rig.run('message.send', { target: toConversation(conversationId), payload: { text: 'fixed' } });
      expect(succeeded).toMatchObject({ status: 'succeeded', errorCode: null, errorMessage: null, errorPath: null });
      expect(await read(succeeded.commandId)).toMatchObject({ status: 'succeeded', errorMessage: null, errorPath: null });
    });

    test('why it failed: a message longer than 1,024 characters (200 misspelled keys) is cut to 1,023 and an ellipsis', async () => {
      const { conversationId } = await inbound(rig, '+14155550112', 'hi');
      const payload = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`misspelled_${String(i).padStart(3, '0')}`, 'x']));
      const failed = await rig.run('message.send', { target: toConversation(conversationId), payload: { text: 'hi', ...payload } });
      expect(failed).toMatchObject({ errorCode: 'payload_invalid', errorPath: '/payload/misspelled_000' });
      expect(failed.errorMessage).toHaveLength(1_024);
      expect(failed.errorMessage).toMatch(/^\/payload\/misspelled_000: Unrecognized keys: "misspelled_000", "misspelled_001", .*…$/);
      expect((await read(failed.commandId)).errorMessage).toBe(failed.errorMessage);
    });

    test('payload_invalid: a recipient send whose text is not a string', async () => {
      expect(await rig.run('message.send', { target: { kind: 'recipient', recipientExternalId: 'frank@example.com' }, payload: { text: 42 } })).toMatchObject({ status: 'failed', errorCode: 'payload_invalid' });
    });

    test('payload_invalid: group.update with an unknown action', async () => {
      const group = await createGroup(rig, ['+14155550111', '+14155550112']);
      expect(await rig.run('group.update', { target: toConversation(group.conversationId), payload: { action: 'promote', participantExternalId: '+14155550111' } })).toMatchObject({ errorCode: 'payload_invalid' });
    });

    test('transfer_unavailable: attachment, sticker and set_photo name a transferId nothing produces', async () => {
      // BlueBubbles has no way to send a sticker, so a host in front of it never declares the kind.
      const stickerCode = driver === 'bluebubbles' ? 'capability_constraint_violation' : 'transfer_unavailable';
      const { conversationId } = await inbound(rig, '+14155550113', 'send me something');
      expect(await rig.run('message.send', { target: toConversation(conversationId), payload: { kind: 'attachment', transferId: 'tr_1' } })).toMatchObject({ status: 'failed', errorCode: 'transfer_unavailable' });
      expect(await rig.run('message.send', { target: toConversation(conversationId), payload: { kind: 'sticker', transferId: 'tr_2' } })).toMatchObject({ status: 'failed', errorCode: stickerCode });
      const group = await createGroup(rig, ['+14155550113', '+14155550114']);
      expect(await rig.run('group.update', { target: toConversation(group.conversationId), payload: { action: 'set_photo', transferId: 'tr_3' } })).toMatchObject({ status: 'failed', errorCode: 'transfer_unavailable' });
    });

    test('no_message_to_react_to: reaction.apply in a DM with no incoming message, and a tapback of an unknown message', async () => {
      const sent = await rig.run('message.send', { target: { kind: 'recipient', recipientExternalId: 'gina@example.com' }, payload: { text: 'hi Gina' } });
      expect(await rig.run('reaction.apply', { target: toConversation(sent.conversationId), payload: { tapback: 'like' } })).toMatchObject({ status: 'failed', errorCode: 'no_message_to_react_to' });
      expect(await rig.run('reaction.tapback', { target: toConversation(sent.conversationId), payload: { messageExternalId: 'NO-SUCH-MESSAGE', tapback: 'love' } })).toMatchObject({ status: 'failed', errorCode: 'no_message_to_react_to' });
    });

    test('reaction.apply reacts to the newest incoming message; reaction.tapback to any message, in a group too; name_photo.share in a DM', async () => {
      await inbound(rig, '+14155550115', 'first');
      const { conversationId, messageExternalId: newest } = await inbound(rig, '+14155550115', 'second');
      const apply = await rig.run('reaction.apply', { target: toConversation(conversationId), payload: { tapback: 'love' } });
      expect(apply.status).toBe('succeeded');
      // BlueBubbles' react takes no tempGuid, so the stand-in's tapback is found by its conversation.
      const tapbacks = rig.driver === 'simulator' ? rig.actionMessages(apply.logicalActionId) : rig.platform.messages('sim;-;+14155550115').filter((m) => m.kind === 'tapback');
      expect(tapbacks).toEqual([expect.objectContaining({ kind: 'tapback', associatedMessage: newest })]);
      expect(await rig.run('name_photo.share', { target: toConversation(conversationId), payload: {} })).toMatchObject({ status: 'succeeded' });

      const group = await createGroup(rig, ['+14155550115', '+14155550116']);
      const { messageExternalId } = await inbound(rig, '+14155550116', 'vote?', group.externalId);
      expect(await rig.run('reaction.tapback', { target: toConversation(group.conversationId), payload: { messageExternalId, tapback: 'emphasize' } })).toMatchObject({ status: 'succeeded' });
    });

    test('direct_conversation_required: reaction.apply and name_photo.share aimed at a group', async () => {
      const group = await createGroup(rig, ['+14155550117', '+14155550118']);
      await inbound(rig, '+14155550117', 'hello group', group.externalId);
      expect(await rig.run('reaction.apply', { target: toConversation(group.conversationId), payload: { tapback: 'like' } })).toMatchObject({ status: 'failed', errorCode: 'direct_conversation_required' });
      expect(await rig.run('name_photo.share', { target: toConversation(group.conversationId), payload: {} })).toMatchObject({ status: 'failed', errorCode: 'direct_conversation_required' });
    });

    test('remove_participant below OS major version 26 removes the member', async () => {
      const group = await createGroup(rig, ['+14155550119', '+14155550120']);
      const removed = await rig.run('group.update', { target: toConversation(group.conversationId), payload: { action: 'remove_participant', participantExternalId: '+14155550120' } });
      expect(removed.status).toBe('succeeded');
      expect(rig.platform.conversation(group.externalId)?.participants).toEqual(['+14155550119']);
    });
  });

  describe('capability_constraint_violation', () => {
    test('a host that does not declare what a command needs settles it capability_constraint_violation', async () => {
      const group = await createGroup(rig, ['+14155550121', '+14155550122']);
      const { conversationId: dm } = await inbound(rig, '+14155550121', 'hi');
      await rig.onlyHost({
        SWITCHBOARD_CAPABILITIES: 'command.message_send.conversation.v1,command.message_send.content.v1,command.group_update.v1',
        SWITCHBOARD_SUPPORTED_KINDS: 'rich_text',
        SWITCHBOARD_SUPPORTS_PARTICIPANTS: 'false',
      });
      const declared = (await (await fetch(`${rig.server.url}/v1/capabilities`, { headers: { authorization: `Bearer ${rig.apiKey}` } })).json()) as { capabilities: unknown[] };
      expect(declared.capabilities).toContainEqual({ name: 'command.group_update.v1', supportsRename: true, supportsPhoto: true, supportsParticipants: false });

      const violation = { status: 'failed', errorCode: 'capability_constraint_violation' };
      expect(await rig.run('group.update', { target: toConversation(group.conversationId), payload: { action: 'add_participant', participantExternalId: '+14155550123' } })).toMatchObject(violation);
      expect(await rig.run('message.send', { target: toConversation(dm), payload: { kind: 'poll', question: 'q', options: ['a', 'b'] } })).toMatchObject(violation);
      expect(await rig.run('message.send', { target: toConversation(group.conversationId), payload: { text: 'no group capability' } })).toMatchObject(violation);
      expect(await rig.run('message.send', { target: { kind: 'recipient', recipientExternalId: 'hal@example.com' }, payload: { text: 'no recipient capability' } })).toMatchObject(violation);
      // What it does declare still works.
      expect(await rig.run('message.send', { target: toConversation(dm), payload: { kind: 'rich_text', text: 'declared' } })).toMatchObject({ status: 'succeeded' });
      expect(await rig.run('group.update', { target: toConversation(group.conversationId), payload: { action: 'rename', name: 'Renamed' } })).toMatchObject({ status: 'succeeded' });
    });
  });

  describe('platform faults (the simulator\'s, or the BlueBubbles stand-in\'s Mac)', () => {
    test.each([
      ['SWITCHBOARD_SIM_P_GATEWAY_REJECTED', 'gateway_rejected', 0],
      ['SWITCHBOARD_SIM_P_SEND_NOT_OK', 'send_returned_not_ok', 0],
      ['SWITCHBOARD_SIM_P_ECHO_LOST', 'accepted_echo_unconfirmed', 1],
    ])('%s=1 makes message.send settle %s (messages on the platform: %i)', async (variable, code, onPlatform) => {
      const { conversationId } = await inbound(rig, '+14155550130', 'hi');
      await rig.onlyHost({ [variable]: '1' });
      const data = await rig.run('message.send', { target: toConversation(conversationId), payload: { text: 'will it?' } });
      expect(data).toMatchObject({ status: 'failed', errorCode: code });
      expect(rig.actionMessages(data.logicalActionId)).toHaveLength(onPlatform);
      // Without an echo there is nothing to announce as sent.
      expect(rig.stream.events.some((e) => e.type === 'message.sent' && e.data.commandId === data.commandId)).toBe(false);
    });

    test.each([
      ['group.create', { target: { kind: 'participants', participantExternalIds: ['+14155550133', '+14155550134'] }, payload: { text: 'kickoff' } }],
      ['message.send to a new recipient', { target: { kind: 'recipient', recipientExternalId: 'ivy@example.com' }, payload: { text: 'hello Ivy' } }],
    ])('SWITCHBOARD_SIM_P_ECHO_LOST=1 makes %s settle accepted_echo_unconfirmed: it went out, so it is not sent again', async (name, body) => {
      await rig.onlyHost({ SWITCHBOARD_SIM_P_ECHO_LOST: '1' });
      const data = await rig.run(name.split(' ')[0]!, body);
      expect(data).toMatchObject({ status: 'failed', errorCode: 'accepted_echo_unconfirmed' });
      expect(rig.actionMessages(data.logicalActionId)).toHaveLength(1);
    });

    test('SWITCHBOARD_SIM_P_GROUP_UPDATE_UNVERIFIED=1 makes group.update settle group_update_unverified', async () => {
      await rig.onlyHost();
      const group = await createGroup(rig, ['+14155550131', '+14155550132'], 'Before');
      await rig.onlyHost({ SWITCHBOARD_SIM_P_GROUP_UPDATE_UNVERIFIED: '1' });
      expect(await rig.run('group.update', { target: toConversation(group.conversationId), payload: { action: 'rename', name: 'After' } })).toMatchObject({ status: 'failed', errorCode: 'group_update_unverified' });
      expect(rig.platform.conversation(group.externalId)?.name).toBe('Before');
    });
  });

  describe('operating system major version 26', () => {
    test('remove_participant is accepted with 202, stalls, then settles group_update_unverified', async () => {
      await rig.onlyHost();
      const group = await createGroup(rig, ['+14155550141', '+14155550142']);
      const host = await rig.onlyHost({ SWITCHBOARD_OS_MAJOR_VERSION: '26', SWITCHBOARD_SIM_REMOVE_STALL_MS: '1500' });
      const posted = performance.now();
      const answer = await rig.post('group.update', { target: toConversation(group.conversationId), payload: { action: 'remove_participant', participantExternalId: '+14155550142' } });
      expect(answer.status).toBe(202);
      const { commandId } = answer.body;
      await host.logs.waitFor((r) => r.msg === 'command executing' && r.commandId === commandId);
      // Stalled on the host: the command is still queued.
      const during = (await (await fetch(`${rig.server.url}/v1/commands/${commandId}`, { headers: { authorization: `Bearer ${rig.apiKey}` } })).json()) as { status: string };
      expect(during.status).toBe('queued');
      const settled = await rig.settled(commandId);
      expect(performance.now() - posted).toBeGreaterThanOrEqual(1500);
      expect(settled.data).toMatchObject({ status: 'failed', errorCode: 'group_update_unverified' });
      expect(rig.platform.conversation(group.externalId)?.participants).toEqual(['+14155550141', '+14155550142']);
    });
  });

  test('every failure this suite produced says why, on its command event and its command read; no success does', async () => {
    const settled = rig.stream.events.filter((e) => e.type === 'command.settled');
    const failures = settled.filter((e) => e.data.status === 'failed');
    expect(failures.length).toBeGreaterThan(10);
    for (const { data } of failures) {
      expect(data.errorMessage, `${data.errorCode} of ${data.commandType}`).toEqual(expect.stringMatching(/\S/));
      expect((await read(data.commandId)).errorMessage).toBe(data.errorMessage);
    }
    for (const { data } of settled.filter((e) => e.data.status === 'succeeded')) expect(data).toMatchObject({ errorMessage: null, errorPath: null });
  });

  test('every settlement code was produced by this suite', () => {
    const seen = new Set(rig.stream.events.filter((e) => e.type === 'command.settled').map((e) => e.data.errorCode));
    for (const code of ['stale_target', 'invalid_target', 'gateway_rejected', 'send_returned_not_ok', 'accepted_echo_unconfirmed', 'group_update_unverified', 'capability_constraint_violation', 'payload_invalid', 'transfer_unavailable', 'no_message_to_react_to', 'direct_conversation_required', null]) {
      expect(seen, String(code)).toContain(code);
    }
  });
});
