/**
 * Send tools that wait for the message to be delivered or read, against the real server and the
 * simulated connector host, whose messages are all delivered 300 ms after their echo and, in
 * direct conversations, read 1.5-2 s after that.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startWorld, stdioAgent, type Agent, type World } from '../support/world.ts';

let world: World;
let agent: Agent;
let dm: string;

beforeAll(async () => {
  world = await startWorld({}, { SWITCHBOARD_SIM_P_DELIVERED: '1', SWITCHBOARD_SIM_DELIVERY_LATENCY_MS: '300', SWITCHBOARD_SIM_P_READ: '1', SWITCHBOARD_SIM_READ_LATENCY_MS: '1500-2000' });
  ({ agent } = await stdioAgent(world.env));
  // A direct conversation, made by someone writing to the account.
  const head = (await agent.ok('wait_for_message', { timeoutMs: 1_000 })).cursor as string;
  const waiting = agent.ok('wait_for_message', { after: head, timeoutMs: 20_000 });
  await world.inject(['--from', '+14155550161', '--text', 'hello?']);
  dm = (await waiting).message.conversationId;
});
afterAll(async () => {
  await agent?.close();
  await world?.stop();
});

describe('wait: "delivered" and "read"', () => {
  it('message_send waits until its message is read, and says so', async () => {
    const text = `Your table is ready (${randomUUID()})`;
    const answer = await agent.ok('message_send', { conversationId: dm, payload: { text }, wait: 'read', timeoutMs: 20_000 });
    expect(answer).toMatchObject({ status: 'succeeded', settled: true, waitedFor: 'read', messageState: 'read', reached: true, message: { conversationId: dm, direction: 'outbound', text, failedAt: null } });
    expect(answer.message.deliveredAt).toEqual(expect.any(String));
    expect(answer.message.readAt).toEqual(expect.any(String));
    expect(answer.note).toBeUndefined();

    // The same state, read back: the command's message, and the conversation's messages.
    expect((await agent.ok('command_status', { commandId: answer.commandId })).message).toMatchObject({ messageExternalId: answer.message.messageExternalId, readAt: answer.message.readAt });
    const page = await agent.ok('list_messages', { conversationId: dm, limit: 5 });
    expect(page.messages[0]).toMatchObject({ messageExternalId: answer.message.messageExternalId, commandId: answer.commandId, readAt: answer.message.readAt });
    expect(page.messages.find((m: { direction: string; text: string }) => m.direction === 'inbound' && m.text === 'hello?')).toBeDefined();
  });

  it('message_send waits until its message is delivered', async () => {
    const answer = await agent.ok('message_send', { conversationId: dm, payload: { text: `On its way (${randomUUID()})` }, wait: 'delivered', timeoutMs: 20_000 });
    expect(answer).toMatchObject({ status: 'succeeded', waitedFor: 'delivered', reached: true });
    // Read a moment after the delivery, so either may be what the wait saw last.
    expect(['delivered', 'read']).toContain(answer.messageState);
  });

  it("in a group there are no read receipts: wait 'read' answers at delivered, and says why", async () => {
    const answer = await agent.ok('group_create', { participantExternalIds: ['+14155550162', '+14155550163'], payload: { text: `Kickoff (${randomUUID()})` }, wait: 'read', timeoutMs: 20_000 });
    expect(answer).toMatchObject({ status: 'succeeded', waitedFor: 'read', messageState: 'delivered', reached: false, note: 'delivered; a group has no read receipts, so it will not be marked read' });
  });

  it('a wait that runs out answers the state reached and says not to send again', async () => {
    const answer = await agent.ok('message_send', { conversationId: dm, payload: { text: `Quick (${randomUUID()})` }, wait: 'read', timeoutMs: 1_000 });
    expect(answer).toMatchObject({ status: 'succeeded', waitedFor: 'read', reached: false });
    expect(['sent', 'delivered']).toContain(answer.messageState);
    expect(answer.note).toMatch(/do not send it again/);
  });
});
