import { describe, expect, test } from 'vitest';
import { inbound, rigPerTest, toConversation, type Rig } from './helpers.ts';
import type { StreamEnvelope } from './stream.ts';

/**
 * The life of a message on the simulated platform, end to end: a real server, a real host whose
 * simulator draws each message's life from its settings (every probability 0 or 1 here, short
 * latencies, a fixed seed), and the client's view over HTTP: the stream and the message's state.
 */
const QUIET = { SWITCHBOARD_SIM_MESSAGE_LIFE: 'off', SWITCHBOARD_SIM_SEED: '33' };
const SOON = '100-300';
const iso = (ms: number | null | undefined) => new Date(ms!).toISOString();

describe('a message\'s life on the simulated platform', () => {
  let rig: Rig;
  rigPerTest({}, 'simulator', (r) => (rig = r));

  const get = async (path: string) => {
    const response = await fetch(`${rig.server.url}${path}`, { headers: { authorization: `Bearer ${rig.apiKey}` } });
    expect(response.status, path).toBe(200);
    return (await response.json()) as any;
  };
  const ofMessage = (type: string, messageExternalId: string) => (e: StreamEnvelope) => e.type === type && e.data.messageExternalId === messageExternalId;
  const count = (type: string, messageExternalId: string) => rig.stream.events.filter(ofMessage(type, messageExternalId)).length;

  /** message.send, settled succeeded; its message.sent. */
  async function send(conversationId: string, text: string): Promise<{ commandId: string; sent: StreamEnvelope }> {
    const commandId = await rig.command('message.send', { target: toConversation(conversationId), payload: { text } });
    expect((await rig.settled(commandId)).data).toMatchObject({ status: 'succeeded', errorCode: null });
    const sent = await rig.stream.waitFor((e) => e.type === 'message.sent' && e.data.commandId === commandId);
    return { commandId, sent };
  }

  /** Someone writes once more and the stream shows it: whatever was reported before it had every chance to be reported twice. */
  async function later(conversationExternalId?: string): Promise<void> {
    await inbound(rig, '+14155550299', 'later', conversationExternalId);
  }

  test('a direct message is sent, then delivered, then read: each once, in that order, naming the command', async () => {
    await rig.onlyHost({ ...QUIET, SWITCHBOARD_SIM_P_DELIVERED: '1', SWITCHBOARD_SIM_DELIVERY_LATENCY_MS: SOON, SWITCHBOARD_SIM_P_READ: '1', SWITCHBOARD_SIM_READ_LATENCY_MS: SOON });
    const { conversationId } = await inbound(rig, '+14155550201', 'where is my order?');
    const { commandId, sent } = await send(conversationId, 'on its way');
    const messageExternalId = sent.data.messageExternalId as string;

    const read = await rig.stream.waitFor(ofMessage('message.read', messageExternalId), 15_000, 'message.read');
    const delivered = rig.stream.events.find(ofMessage('message.delivered', messageExternalId))!;
    const onPlatform = rig.platform.message(messageExternalId)!;
    expect(delivered.data).toEqual({ conversationId, messageExternalId, commandId, deliveredAt: iso(onPlatform.deliveredAt) });
    expect(read.data).toEqual({ conversationId, messageExternalId, commandId, readAt: iso(onPlatform.readAt) });
    expect(BigInt(sent.id)).toBeLessThan(BigInt(delivered.id));
    expect(BigInt(delivered.id)).toBeLessThan(BigInt(read.id));
    expect(onPlatform.readAt! - onPlatform.deliveredAt!).toBeGreaterThanOrEqual(100);

    await later();
    expect(['message.sent', 'message.delivered', 'message.read'].map((type) => count(type, messageExternalId))).toEqual([1, 1, 1]);
    // The client reads the message with its state.
    const { messages } = await get(`/v1/conversations/${conversationId}/messages`);
    expect(messages.find((m: { messageExternalId: string }) => m.messageExternalId === messageExternalId)).toMatchObject({
      direction: 'outbound', commandId, text: 'on its way', deliveredAt: delivered.data.deliveredAt, readAt: read.data.readAt, failedAt: null, failure: null,
    });
  });

  test('a group message is delivered once and never read: iMessage has no read receipts in groups', async () => {
    await rig.onlyHost({ ...QUIET, SWITCHBOARD_SIM_P_DELIVERED: '1', SWITCHBOARD_SIM_DELIVERY_LATENCY_MS: SOON, SWITCHBOARD_SIM_P_READ: '1', SWITCHBOARD_SIM_READ_LATENCY_MS: SOON });
    const chat = rig.platform.receive({ from: '+14155550211', group: { participants: ['+14155550211', '+14155550212'], name: 'Crew' }, text: 'hi all' });
    const received = await rig.stream.waitFor((e) => e.type === 'message.received' && e.data.messageExternalId === chat.messageExternalId);
    const { sent } = await send(received.data.conversationId, 'hello crew');
    const messageExternalId = sent.data.messageExternalId as string;
    await rig.stream.waitFor(ofMessage('message.delivered', messageExternalId), 15_000, 'the group message delivered');

    // Then a direct message, sent later, read: the group message's read would have been due by then.
    const { conversationId: dm } = await inbound(rig, '+14155550213', 'hey');
    const { sent: direct } = await send(dm, 'hey yourself');
    await rig.stream.waitFor(ofMessage('message.read', direct.data.messageExternalId), 15_000, 'the direct message read');
    expect(count('message.read', messageExternalId)).toBe(0);
    expect(count('message.delivered', messageExternalId)).toBe(1);
    expect(rig.platform.message(messageExternalId)).toMatchObject({ readAt: null, deliveredAt: expect.any(Number) });
    expect(rig.platform.pending().filter((p) => p.messageExternalId === messageExternalId)).toEqual([]);
  });

  test('a send that echoes, settles succeeded, then fails: message.failed names the command, whose settlement stays', async () => {
    await rig.onlyHost({ ...QUIET, SWITCHBOARD_SIM_P_FAILED: '1', SWITCHBOARD_SIM_FAIL_LATENCY_MS: SOON, SWITCHBOARD_SIM_P_DELIVERED: '1' });
    const { conversationId } = await inbound(rig, '+14155550221', 'hello?');
    const { commandId, sent } = await send(conversationId, 'this one will not leave the device');
    const messageExternalId = sent.data.messageExternalId as string;

    const failed = await rig.stream.waitFor(ofMessage('message.failed', messageExternalId), 15_000, 'message.failed');
    const onPlatform = rig.platform.message(messageExternalId)!;
    expect(failed.data).toEqual({ conversationId, messageExternalId, commandId, reason: 'not_delivered', platformMessage: 'Not Delivered', failedAt: iso(onPlatform.failedAt) });
    const settled = rig.stream.events.find((e) => e.type === 'command.settled' && e.data.commandId === commandId)!;
    expect(BigInt(settled.id)).toBeLessThan(BigInt(failed.id));

    await later();
    expect(count('message.failed', messageExternalId)).toBe(1);
    expect(count('message.delivered', messageExternalId)).toBe(0);
    const command = await get(`/v1/commands/${commandId}`);
    expect(command).toMatchObject({ status: 'succeeded', errorCode: null, message: { messageExternalId, failedAt: failed.data.failedAt, failure: { reason: 'not_delivered', platformMessage: 'Not Delivered' } } });
  });

  test('the other person reacts to the account\'s message with a tapback, then removes it', async () => {
    await rig.onlyHost({
      ...QUIET, SWITCHBOARD_SIM_P_DELIVERED: '1', SWITCHBOARD_SIM_DELIVERY_LATENCY_MS: SOON,
      SWITCHBOARD_SIM_P_REACTION: '1', SWITCHBOARD_SIM_REACTION_LATENCY_MS: SOON, SWITCHBOARD_SIM_P_REACTION_REMOVED: '1', SWITCHBOARD_SIM_REACTION_REMOVED_LATENCY_MS: SOON,
    });
    const { conversationId } = await inbound(rig, '+14155550231', 'send me the photo');
    const { sent } = await send(conversationId, 'here it is');
    const messageExternalId = sent.data.messageExternalId as string;

    const removed = await rig.stream.waitFor((e) => ofMessage('message.reaction', messageExternalId)(e) && e.data.action === 'removed', 15_000, 'the tapback removed');
    const reactions = rig.stream.events.filter(ofMessage('message.reaction', messageExternalId));
    expect(reactions.map((e) => e.data.action)).toEqual(['added', 'removed']);
    const [added] = reactions;
    expect(added!.data).toMatchObject({ conversationId, messageExternalId, senderExternalId: '+14155550231', reaction: expect.any(String) });
    expect(removed.data).toMatchObject({ conversationId, messageExternalId, senderExternalId: '+14155550231', reaction: added!.data.reaction });
    expect(removed.data.reactionExternalId).not.toBe(added!.data.reactionExternalId);
    expect(Date.parse(removed.data.reactedAt)).toBeGreaterThan(Date.parse(added!.data.reactedAt));
    // The platform keeps each as a tapback of its own.
    expect(rig.platform.message(removed.data.reactionExternalId)).toMatchObject({ kind: 'tapback', sender: '+14155550231', associatedMessage: messageExternalId, body: { remove: true } });
  });

  test('someone edits a message they sent; someone else unsends theirs', async () => {
    await rig.onlyHost({ ...QUIET, SWITCHBOARD_SIM_P_EDITED: '1', SWITCHBOARD_SIM_EDIT_LATENCY_MS: SOON });
    const typo = await inbound(rig, '+14155550241', 'meet at 5');
    const edited = await rig.stream.waitFor(ofMessage('message.edited', typo.messageExternalId), 15_000, 'message.edited');
    expect(edited.data).toEqual({ conversationId: typo.conversationId, messageExternalId: typo.messageExternalId, senderExternalId: '+14155550241', text: 'meet at 5 (edited)', editedAt: iso(rig.platform.message(typo.messageExternalId)!.editedAt) });

    await rig.onlyHost({ ...QUIET, SWITCHBOARD_SIM_P_UNSENT: '1', SWITCHBOARD_SIM_UNSEND_LATENCY_MS: SOON });
    const oops = await inbound(rig, '+14155550242', 'wrong chat, sorry');
    const unsent = await rig.stream.waitFor(ofMessage('message.unsent', oops.messageExternalId), 15_000, 'message.unsent');
    expect(unsent.data).toEqual({ conversationId: oops.conversationId, messageExternalId: oops.messageExternalId, senderExternalId: '+14155550242', unsentAt: iso(rig.platform.message(oops.messageExternalId)!.unsentAt) });

    await later();
    expect([count('message.edited', typo.messageExternalId), count('message.unsent', oops.messageExternalId)]).toEqual([1, 1]);
    const { messages } = await get(`/v1/conversations/${oops.conversationId}/messages`);
    expect(messages.find((m: { messageExternalId: string }) => m.messageExternalId === oops.messageExternalId)).toMatchObject({ direction: 'inbound', text: null, unsentAt: unsent.data.unsentAt });
    expect((await get(`/v1/conversations/${typo.conversationId}/messages`)).messages.find((m: { messageExternalId: string }) => m.messageExternalId === typo.messageExternalId)).toMatchObject({ text: 'meet at 5 (edited)', editedAt: edited.data.editedAt });
  });

  test('with the default settings a message is delivered 1-3 s after it was sent', async () => {
    // The defaults as `pnpm start` runs them, with a seed whose first message is delivered (3 in 100 are not).
    await rig.onlyHost({ SWITCHBOARD_SIM_SEED: '33' });
    const { conversationId } = await inbound(rig, '+14155550251', 'ping');
    const { sent } = await send(conversationId, 'pong');
    const messageExternalId = sent.data.messageExternalId as string;
    const delivered = await rig.stream.waitFor(ofMessage('message.delivered', messageExternalId), 10_000, 'delivery within a few seconds');
    const after = Date.parse(delivered.data.deliveredAt) - rig.platform.message(messageExternalId)!.at;
    expect(after).toBeGreaterThanOrEqual(1_000);
    expect(after).toBeLessThanOrEqual(3_000);
  });
});
