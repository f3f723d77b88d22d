import { startHost, type ServerProcess } from '@switchboard/testkit';
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'vitest';
import { commandEventsInLog, inbound, removeDataDir, startRig, startServer, toConversation, until, type Rig } from './helpers.ts';

/**
 * What only the bluebubbles driver has: capabilities read from server info, the flags of
 * `switchboard-connector run`, echo loops, lost webhooks, and the duplicate window after a
 * failover closed by looking the send up in BlueBubbles. The shared suites (settlement codes,
 * inbound) run against it too.
 */
const LEASE_TTL_MS = 1_000;
let server: ServerProcess;
let rig: Rig;

beforeAll(async () => {
  server = await startServer({ SWITCHBOARD_LEASE_TTL_MS: String(LEASE_TTL_MS) });
});

afterAll(async () => {
  await server?.stop();
  if (server) removeDataDir(server.dataDir);
});

beforeEach(async () => {
  rig = await startRig({}, server, 'bluebubbles');
});

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') console.error(rig.dump());
  await rig?.close();
});

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
    expect(standIn.webhooks).toEqual([expect.objectContaining({ events: ['new-message', 'group-name-change', 'participant-added', 'participant-removed', 'participant-left'] })]);
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

test('failover after BlueBubbles took the send: the next holder finds the message in BlueBubbles and settles it without sending again', async () => {
  const first = await rig.onlyHost({}, { answerDelayMs: 10_000 });
  const b = rig.host();
  const { conversationId } = await inbound(rig, '+14155550305', 'hi');
  const commandId = await rig.command('message.send', { target: toConversation(conversationId), payload: { text: 'exactly once through BlueBubbles' } });
  // Messages took it; BlueBubbles has not answered yet.
  await until(() => rig.actionMessages(commandId).length === 1, 10_000, 'the stand-in taking the send');
  await first.kill();
  rig.standIn!.options.answerDelayMs = 0;

  expect((await rig.settled(commandId)).data).toMatchObject({ status: 'succeeded', errorCode: null });
  expect(await b.logs.waitFor((r) => r.msg === 'command already executed on the platform' && r.commandId === commandId)).toBeTruthy();
  expect(rig.actionMessages(commandId)).toHaveLength(1);
  expect(rig.stream.events.filter((e) => e.type === 'message.sent' && e.data.commandId === commandId)).toHaveLength(1);
  expect((await commandEventsInLog(rig)).get(commandId)).toBe(1);
});

test('failover while BlueBubbles is still sending: the next holder\'s send meets the same tempGuid in its send cache, waits for that message and settles once', async () => {
  const first = await rig.onlyHost({}, { sendLatencyMs: 4_000 });
  const b = rig.host();
  const { conversationId } = await inbound(rig, '+14155550306', 'hi');
  const commandId = await rig.command('message.send', { target: toConversation(conversationId), payload: { text: 'in flight at the failover' } });
  await until(() => rig.standIn!.inFlight(`switchboard-${commandId}`), 10_000, 'the send reaching BlueBubbles');
  await first.kill();
  expect(rig.actionMessages(commandId)).toHaveLength(0);

  expect((await rig.settled(commandId, 20_000)).data).toMatchObject({ status: 'succeeded' });
  expect(await b.logs.waitFor((r) => r.commandId === commandId && r.msg === 'command settled')).toMatchObject({ detail: expect.stringMatching(/already in flight showed as/) });
  expect(rig.actionMessages(commandId)).toHaveLength(1);
  expect((await commandEventsInLog(rig)).get(commandId)).toBe(1);
});
