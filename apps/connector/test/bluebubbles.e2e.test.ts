import { startHost } from '@switchboard/testkit';
import { expect, test } from 'vitest';
import { inbound, rigPerTest, toConversation, type Rig } from './helpers.ts';

/**
 * What only the bluebubbles driver has: capabilities read from server info, the flags of
 * `switchboard-connector run`, echo loops and lost webhooks. The shared suites (settlement codes,
 * inbound, failover) run against it too.
 */
let rig: Rig;
rigPerTest({}, 'bluebubbles', (r) => (rig = r));

async function declared(): Promise<{ hostId: string; osMajorVersion: number; capabilities: Array<Record<string, unknown>> }> {
  const response = await fetch(`${rig.server.url}/v1/capabilities`, { headers: { authorization: `Bearer ${rig.apiKey}` } });
  return (await response.json()) as never;
}

test('`switchboard-connector run --driver bluebubbles --bluebubbles-url … --bluebubbles-password …` runs a host that sends through BlueBubbles', async () => {
  const standIn = rig.standIn!;
  const host = startHost({
    url: rig.server.url,
    connectorKey: rig.connectorKey,
    args: ['run', '--driver', 'bluebubbles', '--bluebubbles-url', standIn.url, '--bluebubbles-password', 'stand-in-password', '--bluebubbles-webhook-listen', '127.0.0.1:0'],
    env: { SWITCHBOARD_BLUEBUBBLES_JOURNAL: `${rig.simDb}.flags-journal.db` },
  });
  try {
    await host.leased();
    const { conversationId } = await inbound(rig, '+14155550301', 'hi');
    const sent = await rig.run('message.send', { target: toConversation(conversationId), payload: { text: 'from the flags' } });
    expect(sent).toMatchObject({ status: 'succeeded' });
    expect(rig.actionMessages(sent.logicalActionId)).toEqual([expect.objectContaining({ direction: 'out', body: { text: 'from the flags' } })]);
    expect(standIn.webhooks).toEqual([expect.objectContaining({ events: ['new-message', 'updated-message', 'message-send-error', 'group-name-change', 'participant-added', 'participant-removed', 'participant-left'] })]);
  } finally {
    await host.kill();
  }
});

test('capabilities come from server info: without the Private API only plain sends are declared, and the rest settle capability_constraint_violation', async () => {
  await rig.onlyHost();
  const { conversationId, messageExternalId } = await inbound(rig, '+14155550302', 'hi');
  expect((await declared()).capabilities).toContainEqual({ name: 'command.reaction_tapback.v1' });

  const plain = await rig.onlyHost({}, { privateApi: false, osVersion: '14.6' });
  const now = await declared();
  expect(now).toMatchObject({ hostId: plain.hostId, osMajorVersion: 14 });
  expect(now.capabilities).toEqual([
    { name: 'command.message_send.conversation.v1' },
    { name: 'command.message_send.group.v1' },
    { name: 'command.message_send.recipient.v1' },
    { name: 'command.message_send.content.v1', supportedKinds: ['rich_link', 'attachment'] },
  ]);
  const violation = { status: 'failed', errorCode: 'capability_constraint_violation' };
  expect(await rig.run('reaction.tapback', { target: toConversation(conversationId), payload: { messageExternalId, tapback: 'love' } })).toMatchObject(violation);
  expect(await rig.run('message.send', { target: toConversation(conversationId), payload: { kind: 'rich_text', text: 'sparkle', effect: 'confetti' } })).toMatchObject(violation);
  expect(await rig.run('message.send', { target: toConversation(conversationId), payload: { kind: 'poll', question: 'q', options: ['a', 'b'] } })).toMatchObject(violation);
  expect(await rig.run('message.send', { target: toConversation(conversationId), payload: { text: 'plain still works' } })).toMatchObject({ status: 'succeeded' });
});

test('echo loops: messages from the Mac itself, the account\'s own sends and ones typed at the Mac, never reach the stream as message.received', async () => {
  await rig.onlyHost();
  const { conversationId } = await inbound(rig, '+14155550303', 'hi');
  const sent = await rig.run('message.send', { target: toConversation(conversationId), payload: { text: 'our own' } });
  const [ours] = rig.actionMessages(sent.logicalActionId);
  // Someone at the Mac (another BlueBubbles client) writes in the same chat.
  const typed = await fetch(`${rig.standIn!.url}/api/v1/message/text?password=stand-in-password`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ chatGuid: 'iMessage;-;+14155550303', tempGuid: 'typed-at-the-mac', message: 'typed at the Mac' }),
  });
  expect(typed.status).toBe(200);
  const typedGuid = ((await typed.json()) as { data: { guid: string } }).data.guid;
  // Something newer from the other side, so both had their chance to come back as inbound.
  const later = await inbound(rig, '+14155550303', 'and now me');
  const webhooked = rig.standIn!.delivered.filter((d) => (d.body as { type: string }).type === 'new-message').map((d) => (d.body as { data: { guid: string } }).data.guid);
  expect(webhooked).toEqual(expect.arrayContaining([ours!.externalId, typedGuid, later.messageExternalId]));
  const received = rig.stream.events.filter((e) => e.type === 'message.received').map((e) => e.data.messageExternalId);
  expect(received).toContain(later.messageExternalId);
  expect(received).not.toContain(ours!.externalId);
  expect(received).not.toContain(typedGuid);
  expect(rig.stream.events.filter((e) => e.type === 'message.sent' && e.data.commandId === sent.commandId)).toHaveLength(1);
});

test('webhooks BlueBubbles lost (it never retries them) are caught up from the message query, once', async () => {
  await rig.onlyHost({}, { dropWebhooks: true });
  const injected = rig.platform.receive({ from: '+14155550304', text: 'did anyone hear me?' });
  await rig.stream.waitFor((e) => e.type === 'message.received' && e.data.messageExternalId === injected.messageExternalId, 10_000);
  const later = rig.platform.receive({ from: '+14155550304', text: 'hello?' });
  await rig.stream.waitFor((e) => e.type === 'message.received' && e.data.messageExternalId === later.messageExternalId, 10_000);
  expect(rig.stream.events.filter((e) => e.type === 'message.received' && e.data.messageExternalId === injected.messageExternalId)).toHaveLength(1);
});

test('an attachment Messages has not written yet is fetched once it is; one that never comes leaves its message without it, not the messages after held back', async () => {
  const photo = { fileName: 'photo.png', mimeType: 'image/png', bytes: Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]) };
  await rig.onlyHost({}, { attachmentMisses: 2 });
  const late = rig.platform.receive({ from: '+14155550305', text: 'a photo', attachments: [photo] });
  const got = await rig.stream.waitFor((e) => e.type === 'message.received' && e.data.messageExternalId === late.messageExternalId, 15_000);
  expect(got.data.attachments).toEqual([expect.objectContaining({ fileName: 'photo.png', byteSize: photo.bytes.length })]);

  await rig.onlyHost({}, { attachmentMisses: Infinity });
  const never = rig.platform.receive({ from: '+14155550305', text: 'another photo', attachments: [photo] });
  const without = await rig.stream.waitFor((e) => e.type === 'message.received' && e.data.messageExternalId === never.messageExternalId, 15_000);
  expect(without.data).toMatchObject({ text: 'another photo', attachments: [] });
  const after = rig.platform.receive({ from: '+14155550305', text: 'did it arrive?' });
  await rig.stream.waitFor((e) => e.type === 'message.received' && e.data.messageExternalId === after.messageExternalId, 15_000);
});
