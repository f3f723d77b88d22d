import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from 'vitest';
import { inbound, rigPerTest, toConversation, until, type Rig } from './helpers.ts';
import type { StreamEnvelope } from './stream.ts';

/**
 * A message's life through BlueBubbles (the stand-in's Mac on the simulated platform): a send
 * succeeds only once Messages sent it; what becomes of the account's messages (delivered, read,
 * failed) and what other people do to messages (tapbacks, edits, unsends) reach the stream from
 * BlueBubbles' webhooks and, for the webhooks it lost, from the catch-up.
 */
let rig: Rig;
rigPerTest({}, 'bluebubbles', (r) => (rig = r));

/**
 * The account's events as the server's log holds them (JSON pages): the test stream reads only
 * the default types, and a message's later states are opt-in there.
 */
async function log(): Promise<StreamEnvelope[]> {
  const events: StreamEnvelope[] = [];
  for (let after = '0'; ;) {
    const response = await fetch(`${rig.server.url}/v1/events?after=${after}&limit=1000`, { headers: { authorization: `Bearer ${rig.apiKey}`, accept: 'application/json' } });
    const page = (await response.json()) as { events: StreamEnvelope[]; nextAfter: string };
    events.push(...page.events);
    if (page.events.length === 0) return events;
    after = page.nextAfter;
  }
}

async function logged(predicate: (e: StreamEnvelope) => boolean, what: string, timeoutMs = 15_000): Promise<StreamEnvelope> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await log()).find(predicate);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no ${what} in the log within ${timeoutMs} ms; last events:\n${(await log()).slice(-8).map((e) => JSON.stringify(e)).join('\n')}`);
    await sleep(100);
  }
}

const about = (type: string, messageExternalId: string) => (e: StreamEnvelope) => e.type === type && e.data.messageExternalId === messageExternalId;

/** A message.send to the conversation; resolves with its command id and, once the Mac shows it, its message. */
async function send(conversationId: string, text: string): Promise<{ commandId: string; guid: string }> {
  const commandId = await rig.command('message.send', { target: toConversation(conversationId), payload: { text } });
  const message = await until(() => rig.actionMessages(commandId)[0], 10_000, `the message of ${commandId}`);
  return { commandId, guid: message.externalId };
}

async function settledYet(commandId: string): Promise<boolean> {
  return (await log()).some((e) => e.type === 'command.settled' && e.data.commandId === commandId);
}

test('a send succeeds only once Messages sent it: the echo alone settles nothing; without the proof it settles accepted_echo_unconfirmed, its message reported sent', async () => {
  await rig.onlyHost({ SWITCHBOARD_BLUEBUBBLES_ECHO_TIMEOUT_MS: '3000' }, { sentDelayMs: Infinity });
  const { conversationId } = await inbound(rig, '+14155550401', 'hi');
  const held = await send(conversationId, 'not sent yet');
  // The echo came (BlueBubbles answered with the row and posted it with the tempGuid) ...
  await until(() => rig.standIn!.delivered.some((d) => (d.body as any).type === 'new-message' && (d.body as any).data.guid === held.guid), 5_000, 'the echo');
  await sleep(1_000);
  // ... and the command waits for is_sent, which BlueBubbles does not post (no webhook).
  expect(await settledYet(held.commandId)).toBe(false);
  rig.standIn!.markSent(held.guid);
  expect((await rig.settled(held.commandId)).data).toMatchObject({ status: 'succeeded' });
  expect((await log()).filter(about('message.sent', held.guid))).toEqual([expect.objectContaining({ data: expect.objectContaining({ commandId: held.commandId }) })]);

  const never = await send(conversationId, 'never sent');
  const settled = (await rig.settled(never.commandId)).data;
  expect(settled).toMatchObject({ status: 'failed', errorCode: 'accepted_echo_unconfirmed' });
  expect(settled.errorMessage).toContain(`as message ${never.guid}`);
  expect((await log()).some((e) => about('message.sent', never.guid)(e) && e.data.commandId === never.commandId)).toBe(true);
  // Its delivery, later, reaches the stream with the command.
  rig.platform.changeMessage(never.guid, { change: 'delivered' });
  expect((await logged(about('message.delivered', never.guid), 'message.delivered')).data).toMatchObject({ commandId: never.commandId });
});

test('a delivery alone proves a send left the Mac', async () => {
  await rig.onlyHost({}, { sentDelayMs: Infinity });
  const { conversationId } = await inbound(rig, '+14155550402', 'hi');
  const sent = await send(conversationId, 'straight to delivered');
  await sleep(500);
  expect(await settledYet(sent.commandId)).toBe(false);
  rig.platform.changeMessage(sent.guid, { change: 'delivered' });
  expect((await rig.settled(sent.commandId)).data).toMatchObject({ status: 'succeeded' });
  await logged(about('message.delivered', sent.guid), 'message.delivered');
});

test('a send that echoes and then fails before it left the Mac settles gateway_rejected, its message reported sent and failed (error 22: recipient_unreachable)', async () => {
  await rig.onlyHost({}, { sentDelayMs: Infinity });
  const { conversationId } = await inbound(rig, '+14155550403', 'hi');
  const sent = await send(conversationId, 'will fail');
  rig.platform.changeMessage(sent.guid, { change: 'failed', reason: 'recipient_unreachable', platformMessage: null });
  const settled = (await rig.settled(sent.commandId)).data;
  expect(settled).toMatchObject({ status: 'failed', errorCode: 'gateway_rejected' });
  expect(settled.errorMessage).toContain('error 22');
  // BlueBubbles posted message-send-error for the row (MessagePoller.handlePreviouslyUnsent).
  await until(() => rig.standIn!.delivered.some((d) => (d.body as any).type === 'message-send-error' && (d.body as any).data.guid === sent.guid), 5_000, 'message-send-error');
  const events = await log();
  expect(events.filter(about('message.sent', sent.guid))).toHaveLength(1);
  expect(events.filter(about('message.failed', sent.guid))).toEqual([expect.objectContaining({
    data: expect.objectContaining({ commandId: sent.commandId, reason: 'recipient_unreachable', platformMessage: 'Messages error 22: the recipient is not registered with iMessage' }),
  })]);
});

test('a message that fails after its send succeeded keeps the settlement; message.failed names the command', async () => {
  await rig.onlyHost();
  const { conversationId } = await inbound(rig, '+14155550404', 'hi');
  const sent = await send(conversationId, 'sent, then not delivered');
  expect((await rig.settled(sent.commandId)).data).toMatchObject({ status: 'succeeded' });
  rig.platform.changeMessage(sent.guid, { change: 'failed', reason: 'not_delivered', platformMessage: 'Not Delivered' });
  const failed = await logged(about('message.failed', sent.guid), 'message.failed');
  expect(failed.data).toMatchObject({ commandId: sent.commandId, reason: 'not_delivered', platformMessage: 'Messages error 4: message timeout' });
  const command = await fetch(`${rig.server.url}/v1/commands/${sent.commandId}`, { headers: { authorization: `Bearer ${rig.apiKey}` } });
  expect(await command.json()).toMatchObject({ status: 'succeeded' });
  expect((await log()).filter((e) => e.type === 'command.settled' && e.data.commandId === sent.commandId)).toHaveLength(1);
});

test('a delivery and a read whose webhooks BlueBubbles lost are reported by the catch-up, once', async () => {
  await rig.onlyHost();
  const { conversationId } = await inbound(rig, '+14155550405', 'hi');
  const sent = await send(conversationId, 'read me');
  expect((await rig.settled(sent.commandId)).data).toMatchObject({ status: 'succeeded' });
  rig.standIn!.options.dropWebhooks = true;
  rig.platform.changeMessage(sent.guid, { change: 'delivered' });
  rig.platform.changeMessage(sent.guid, { change: 'read' });
  await until(() => rig.standIn!.delivered.filter((d) => (d.body as any).type === 'updated-message' && (d.body as any).data.guid === sent.guid).length === 2, 5_000, 'the two updated-message webhooks, dropped');
  const read = await logged(about('message.read', sent.guid), 'message.read');
  const platform = rig.platform.message(sent.guid)!;
  expect(read.data).toMatchObject({ commandId: sent.commandId, readAt: new Date(platform.readAt!).toISOString() });
  const delivered = await logged(about('message.delivered', sent.guid), 'message.delivered');
  expect(delivered.data).toMatchObject({ commandId: sent.commandId, deliveredAt: new Date(platform.deliveredAt!).toISOString() });
  // The catch-up runs every 250 ms here: the server still shows each state once.
  await sleep(1_000);
  const events = await log();
  expect(events.filter(about('message.delivered', sent.guid))).toHaveLength(1);
  expect(events.filter(about('message.read', sent.guid))).toHaveLength(1);
});

test('a group message is delivered, never read', async () => {
  await rig.onlyHost();
  const commandId = await rig.command('group.create', { target: { kind: 'participants', participantExternalIds: ['+14155550406', '+14155550407'] }, payload: { text: 'group hello' } });
  expect((await rig.settled(commandId)).data).toMatchObject({ status: 'succeeded' });
  const guid = rig.actionMessages(commandId)[0]!.externalId;
  rig.platform.changeMessage(guid, { change: 'delivered' });
  expect((await logged(about('message.delivered', guid), 'message.delivered')).data).toMatchObject({ commandId });
  expect(() => rig.platform.changeMessage(guid, { change: 'read' })).toThrow(/no read receipts in groups/);
});

test('someone\'s tapback, added then removed, is message.reaction (not message.received), on their message and on the account\'s', async () => {
  await rig.onlyHost();
  const { messageExternalId } = await inbound(rig, '+14155550408', 'react to this');
  const from = '+14155550408';
  rig.platform.changeMessage(messageExternalId, { change: 'reaction', from, tapback: 'love', action: 'added' });
  const added = await logged((e) => about('message.reaction', messageExternalId)(e) && e.data.action === 'added', 'the tapback added');
  rig.platform.changeMessage(messageExternalId, { change: 'reaction', from, tapback: 'love', action: 'removed' });
  const removed = await logged((e) => about('message.reaction', messageExternalId)(e) && e.data.action === 'removed', 'the tapback removed');
  expect(added.data).toMatchObject({ senderExternalId: from, reaction: 'love', reactionExternalId: expect.any(String) });
  expect(removed.data).toMatchObject({ senderExternalId: from, reaction: 'love' });
  expect(removed.data.reactionExternalId).not.toBe(added.data.reactionExternalId);
  // BlueBubbles posts a tapback as new-message with associatedMessageType "love", then "-love".
  const posted = rig.standIn!.delivered.map((d) => d.body as any).filter((b) => b.type === 'new-message' && b.data.associatedMessageGuid === `p:0/${messageExternalId}`);
  expect(posted.map((b) => b.data.associatedMessageType)).toEqual(['love', '-love']);

  const conversationId = added.data.conversationId as string;
  const sent = await send(conversationId, 'like this one');
  await rig.settled(sent.commandId);
  rig.standIn!.options.dropWebhooks = true;
  rig.platform.changeMessage(sent.guid, { change: 'reaction', from, tapback: 'emphasize', action: 'added' });
  // Lost as a webhook, found by the catch-up.
  await logged((e) => about('message.reaction', sent.guid)(e) && e.data.reaction === 'emphasize', 'the tapback on the account\'s message');
  const received = (await log()).filter((e) => e.type === 'message.received').map((e) => e.data.messageExternalId);
  expect(received).toEqual([messageExternalId]);
});

test('someone edits a message, then unsends another: message.edited with the new text, message.unsent; a lost webhook is caught up', async () => {
  await rig.onlyHost();
  const first = await inbound(rig, '+14155550409', 'see you at 5');
  const second = await inbound(rig, '+14155550409', 'oops, wrong chat');
  rig.platform.changeMessage(first.messageExternalId, { change: 'edited', text: 'see you at 6' });
  const edited = await logged(about('message.edited', first.messageExternalId), 'message.edited');
  expect(edited.data).toMatchObject({ senderExternalId: '+14155550409', text: 'see you at 6', editedAt: new Date(rig.platform.message(first.messageExternalId)!.editedAt!).toISOString() });

  rig.standIn!.options.dropWebhooks = true;
  rig.platform.changeMessage(second.messageExternalId, { change: 'unsent' });
  const unsent = await logged(about('message.unsent', second.messageExternalId), 'message.unsent');
  expect(unsent.data).toMatchObject({ senderExternalId: '+14155550409', unsentAt: new Date(rig.platform.message(second.messageExternalId)!.unsentAt!).toISOString() });
  await sleep(750);
  const events = await log();
  expect(events.filter(about('message.unsent', second.messageExternalId))).toHaveLength(1);
  expect(events.filter(about('message.edited', first.messageExternalId))).toHaveLength(1);
  expect(events.filter(about('message.edited', second.messageExternalId))).toHaveLength(0);
});
