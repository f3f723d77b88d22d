/**
 * What a send tool answers when it waits for the settlement, or for its message to be delivered
 * or read: against a scripted service and a clock that runs the wait at once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SwitchboardClient, type Acknowledgement } from '@switchboard/sdk';
import { outcomeOf } from '../src/tools/wait.ts';
import { listedTools } from './support/memory.ts';
import { json, scriptedAgent, scriptedFetch, TestClock, type Step } from './support/scripted.ts';

const commandId = '0190b7a4-0000-7000-8000-0000000000a1';
const conversationId = '0190b7a4-0000-7000-8000-0000000000c1';
const ack: Acknowledgement = { commandId, status: 'queued', disposition: 'queued' };

function message(state: Record<string, unknown> = {}) {
  return {
    messageExternalId: 'm-1', conversationId, direction: 'outbound', commandId, senderExternalId: null, text: 'hi', attachments: [],
    sentAt: '2026-01-01T00:00:01.000Z', deliveredAt: null, readAt: null, failedAt: null, failure: null, editedAt: null, unsentAt: null,
    ...state,
  };
}
const sent = message();
const delivered = message({ deliveredAt: '2026-01-01T00:00:02.000Z' });
const read = message({ deliveredAt: '2026-01-01T00:00:02.000Z', readAt: '2026-01-01T00:00:03.000Z' });
const failed = message({ failedAt: '2026-01-01T00:00:04.000Z', failure: { reason: 'not_delivered', platformMessage: 'Not Delivered' } });

function command(status: 'queued' | 'succeeded' | 'failed', msg: unknown = null, type = 'message.send') {
  return json(200, {
    commandId, type, status, routingPath: 'agent-turn', conversationId,
    errorCode: status === 'failed' ? 'stale_target' : null, errorMessage: status === 'failed' ? 'the membership changed' : null, errorPath: null,
    message: msg,
  });
}
const conversation = (kind: 'direct' | 'group') => json(200, { conversationId, kind, name: null, participants: [], createdAt: '2026-01-01T00:00:00.000Z' });

function outcome(steps: Step[], wait: Parameters<typeof outcomeOf>[2], waitMs?: number) {
  const clock = new TestClock();
  const scripted = scriptedFetch(...steps);
  const client = new SwitchboardClient({ baseUrl: 'http://switchboard.test', apiKey: 'k', fetch: scripted.fetch, clock, random: () => 0 });
  return { answer: clock.run(outcomeOf(client, ack, wait, waitMs)), clock, scripted };
}

describe('outcomeOf: the wait a send tool does', () => {
  it('wait "delivered": succeeded, and the message delivered', async () => {
    const { answer } = outcome([command('queued'), command('succeeded', sent), command('succeeded', delivered)], 'delivered');
    expect(await answer).toEqual({ status: 'succeeded', settled: true, waitedFor: 'delivered', messageState: 'delivered', reached: true, message: delivered });
  });

  it('wait "read": the message read', async () => {
    const { answer } = outcome([command('succeeded', delivered), conversation('direct'), command('succeeded', read)], 'read');
    expect(await answer).toEqual({ status: 'succeeded', settled: true, waitedFor: 'read', messageState: 'read', reached: true, message: read });
  });

  it('a message that failed after the command succeeded: says so, and how to send it anew', async () => {
    const { answer } = outcome([command('succeeded', sent), command('succeeded', failed)], 'delivered');
    const body = await answer;
    expect(body).toMatchObject({ status: 'succeeded', settled: true, messageState: 'failed', reached: false, message: failed });
    expect(body.note).toMatch(/never left the device \(not_delivered: Not Delivered\).*new idempotencyKey/);

    const unreachable = message({ failedAt: '2026-01-01T00:00:04.000Z', failure: { reason: 'recipient_unreachable', platformMessage: null } });
    const { answer: again } = outcome([command('succeeded', unreachable)], 'read');
    expect((await again).note).toMatch(/never left the device \(recipient_unreachable\).*sending again fails the same way/);
  });

  it('time running out answers the state reached, and says not to send again', async () => {
    const { answer } = outcome([command('succeeded', delivered), conversation('direct'), ...Array.from({ length: 10 }, () => command('succeeded', delivered))], 'read', 3_000);
    const body = await answer;
    expect(body).toMatchObject({ status: 'succeeded', settled: true, waitedFor: 'read', messageState: 'delivered', reached: false });
    expect(body.note).toMatch(/^delivered, not read yet after 3000 ms; it may still be read: do not send it again/);

    const notSent = outcome(Array.from({ length: 10 }, () => command('queued')), 'delivered', 2_000);
    const queued = await notSent.answer;
    expect(queued).toMatchObject({ status: 'queued', settled: false, messageState: 'queued', reached: false, message: null });
    expect(queued.note).toMatch(/^not sent yet after 2000 ms; .*do not send it again/);
  });

  it('a state reached before the wait is answered at once', async () => {
    const { answer, scripted, clock } = outcome([command('succeeded', read)], 'delivered');
    expect(await answer).toMatchObject({ messageState: 'read', reached: true });
    expect(scripted.requests).toHaveLength(1);
    expect(clock.fired).toEqual([]);
  });

  it('in a group, "read" answers at delivered and says why', async () => {
    const { answer } = outcome([command('succeeded', delivered), conversation('group')], 'read');
    expect(await answer).toMatchObject({ messageState: 'delivered', reached: false, note: 'delivered; a group has no read receipts, so it will not be marked read' });
  });

  it('a command that settled failed answers its settlement code, messageState not_sent', async () => {
    const { answer } = outcome([command('failed')], 'delivered');
    expect(await answer).toMatchObject({ status: 'failed', settled: true, errorCode: 'stale_target', errorMessage: 'the membership changed', errorPath: null, messageState: 'not_sent', reached: false });
  });

  it('wait "settled" and wait true answer the settlement alone, as before', async () => {
    for (const wait of ['settled', true] as const) {
      const { answer } = outcome([command('queued'), command('succeeded', sent)], wait);
      expect(await answer).toEqual({ status: 'succeeded', settled: true });
    }
    const { answer, scripted } = outcome([], false);
    expect(await answer).toEqual({ status: 'queued', settled: false });
    expect(scripted.requests).toHaveLength(0);
  });

  it('a wait that cannot read the message answers the accepted command, not to be sent again', async () => {
    const { answer } = outcome([json(404, { error: 'command_not_found', message: 'no such command' })], 'read');
    expect(await answer).toMatchObject({ status: 'queued', settled: false, note: expect.stringMatching(/do not send it again/) });
  });
});

describe('send tools', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('offer wait "delivered" and "read" on the tools that send a message, "settled" on the others', async () => {
    const tools = await listedTools();
    const waits = Object.fromEntries(tools.filter((t) => t.inputSchema.properties?.wait).map((t) => [t.name, JSON.stringify(t.inputSchema.properties!.wait)]));
    for (const name of ['message_send', 'message_send_to_new_contact', 'group_create', 'send_rich_to_new_contact']) {
      expect(waits[name], name).toContain('"delivered"');
      expect(waits[name], name).toContain('"read"');
    }
    for (const name of ['reaction_tapback', 'reaction_apply', 'name_photo_share', 'group_update', 'group_leave']) {
      expect(waits[name], name).toContain('"settled"');
      expect(waits[name], name).not.toContain('"delivered"');
    }
  });

  it('message_send with wait "read" answers the command and how far its message got', async () => {
    const scripted = scriptedFetch(json(202, ack), command('succeeded', read));
    const agent = await scriptedAgent(scripted.fetch);
    close = agent.close;
    const answer = await agent.call('message_send', { conversationId, payload: { text: 'hi' }, wait: 'read' });
    expect(answer.isError).toBe(false);
    expect(answer.body).toMatchObject({ commandId, disposition: 'queued', routingPath: 'agent-turn', idempotent: true, status: 'succeeded', settled: true, waitedFor: 'read', messageState: 'read', reached: true, message: read });
    expect(scripted.paths()).toEqual(['POST /v1/commands/message.send', `GET /v1/commands/${commandId}`]);
  });

  it('message_send with wait "delivered" that runs out answers sent, on a clock of its own', async () => {
    const clock = new TestClock();
    const scripted = scriptedFetch(json(202, ack), ...Array.from({ length: 10 }, () => command('succeeded', sent)));
    const agent = await scriptedAgent(scripted.fetch, clock);
    close = agent.close;
    const answer = await clock.run(agent.call('message_send', { conversationId, payload: { text: 'hi' }, wait: 'delivered', timeoutMs: 1_000 }));
    expect(answer.body).toMatchObject({ commandId, status: 'succeeded', messageState: 'sent', reached: false, note: expect.stringMatching(/^sent, not delivered yet after 1000 ms; .*do not send it again/) });
  });

  it('a tool that sends no message refuses wait "read"', async () => {
    const agent = await scriptedAgent(scriptedFetch().fetch);
    close = agent.close;
    const answer = await agent.call('reaction_tapback', { conversationId, payload: { messageExternalId: 'm-1', tapback: 'love' }, wait: 'read' });
    expect(answer.isError).toBe(true);
    expect(answer.body.text).toMatch(/Input validation error/);
  });

  it("list_messages reads a page of the conversation's messages with their state", async () => {
    const page = { messages: [failed, read], nextCursor: 'next-1' };
    const scripted = scriptedFetch(json(200, page));
    const agent = await scriptedAgent(scripted.fetch);
    close = agent.close;
    expect((await agent.call('list_messages', { conversationId, limit: 2, cursor: 'c-1' })).body).toEqual(page);
    const url = new URL(scripted.requests[0]!.url);
    expect([url.pathname, url.searchParams.get('limit'), url.searchParams.get('cursor')]).toEqual([`/v1/conversations/${conversationId}/messages`, '2', 'c-1']);
  });
});
