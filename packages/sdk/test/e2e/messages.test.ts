/**
 * A message's life through the SDK, against the real server: the test's connector host reports
 * what the platform did to a message (delivered, read, failed after the echo; tapbacks, edits and
 * unsends by others), and the SDK reads it from the stream (opt-in), from the command, from the
 * conversation's messages, and waits for it with delivered().
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformEvent } from '@switchboard/contracts';
import { CommandFailedError, type Message } from '../../src/index.ts';
import { HostLoop, simulate } from '../support/host.ts';
import { readyAccount, startService, type ReadyAccount, type Service } from '../support/service.ts';

let service: Service;
let a: ReadyAccount;
let loop: HostLoop;

beforeAll(async () => {
  service = await startService();
  a = await readyAccount(service.server);
  // A send with `fail` in its text settles failed, as a platform refusing it would.
  loop = new HostLoop(a.host, (command) => ((command.payload as { text?: string }).text === 'fail' ? { status: 'failed', errorCode: 'gateway_rejected' } : simulate(command)));
});
afterAll(async () => {
  await loop?.stop();
  await service?.stop();
});

const iso = (offsetMs = 0) => new Date(Date.now() + offsetMs).toISOString();

/** Sends text into a conversation of the account and waits for its settlement; the test host echoes it as `sent-<commandId>`. */
async function send(conversationId: string, text: string): Promise<{ commandId: string; messageExternalId: string }> {
  const { commandId } = await a.client.sendMessage({ target: { kind: 'conversation', conversationId }, payload: { text } });
  expect(await a.client.settled(commandId, { timeoutMs: 15_000 })).toMatchObject({ status: 'succeeded' });
  return { commandId, messageExternalId: `sent-${commandId}` };
}

const delivered = (conversationExternalId: string, messageExternalId: string, at = iso()): PlatformEvent => ({ type: 'message.delivered', conversationExternalId, messageExternalId, deliveredAt: at });
const read = (conversationExternalId: string, messageExternalId: string, at = iso()): PlatformEvent => ({ type: 'message.read', conversationExternalId, messageExternalId, readAt: at });

async function first<T>(stream: AsyncGenerator<T>, count: number): Promise<T[]> {
  const items: T[] = [];
  for await (const item of stream) {
    items.push(item);
    if (items.length === count) break;
  }
  return items;
}

describe('delivered()', () => {
  it('answers delivered, then read, as the host reports them; a state reached before the call at once', async () => {
    const { commandId, messageExternalId } = await send(a.direct.conversationId, 'are you there?');
    const waiting = a.client.delivered(commandId, { until: 'read', timeoutMs: 15_000 });
    await a.host.report([delivered(a.direct.externalId, messageExternalId)]);
    await a.host.report([read(a.direct.externalId, messageExternalId)]);
    const delivery = await waiting;
    expect(delivery).toMatchObject({ commandId, state: 'read', reached: true, timedOut: false });
    expect(delivery.message).toMatchObject({ messageExternalId, conversationId: a.direct.conversationId, direction: 'outbound', commandId, text: 'are you there?', failedAt: null });
    expect(delivery.message!.deliveredAt).not.toBeNull();
    expect(delivery.message!.readAt).not.toBeNull();

    const again = a.client.delivered(commandId, { until: 'read', timeoutMs: 15_000, after: 'now' });
    expect(await again).toMatchObject({ state: 'read', reached: true, timedOut: false });
  });

  it('on the stream (after: now): answers delivered when the host reports it after the wait began', async () => {
    const { commandId, messageExternalId } = await send(a.direct.conversationId, 'on the stream');
    const waiting = a.client.delivered(commandId, { after: 'now', timeoutMs: 15_000 });
    // Until the wait holds the stream, the state would be found by its first read instead; both answer the same.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await a.host.report([delivered(a.direct.externalId, messageExternalId)]);
    expect(await waiting).toMatchObject({ commandId, state: 'delivered', reached: true, timedOut: false, message: { messageExternalId } });
  });

  it('answers failed when the message failed after the command succeeded, which stays succeeded', async () => {
    const { commandId, messageExternalId } = await send(a.direct.conversationId, 'into the void');
    await a.host.report([{ type: 'message.failed', conversationExternalId: a.direct.externalId, messageExternalId, reason: 'not_delivered', platformMessage: 'Not Delivered', failedAt: iso() }]);
    const delivery = await a.client.delivered(commandId, { timeoutMs: 15_000 });
    expect(delivery).toMatchObject({ state: 'failed', reached: false, timedOut: false, message: { failure: { reason: 'not_delivered', platformMessage: 'Not Delivered' } } });
    expect(await a.client.getCommand(commandId)).toMatchObject({ status: 'succeeded', errorCode: null, message: { messageExternalId, failure: { reason: 'not_delivered' } } });
  });

  it('on timeout answers the state reached, without throwing', async () => {
    const { commandId, messageExternalId } = await send(a.direct.conversationId, 'not read yet');
    expect(await a.client.delivered(commandId, { timeoutMs: 1_500 })).toMatchObject({ state: 'sent', reached: false, timedOut: true, message: { messageExternalId, deliveredAt: null } });
    await a.host.report([delivered(a.direct.externalId, messageExternalId)]);
    expect(await a.client.delivered(commandId, { until: 'read', timeoutMs: 1_500 })).toMatchObject({ state: 'delivered', reached: false, timedOut: true });
  });

  it('in a group, a wait for read answers at delivered', async () => {
    const { commandId, messageExternalId } = await send(a.group.conversationId, 'hello team');
    await a.host.report([delivered(a.group.externalId, messageExternalId)]);
    expect(await a.client.delivered(commandId, { until: 'read', timeoutMs: 15_000 })).toMatchObject({ state: 'delivered', reached: false, timedOut: false });
  });

  it('rejects with CommandFailedError when the command settled failed', async () => {
    const { commandId } = await a.client.sendMessage({ target: { kind: 'conversation', conversationId: a.direct.conversationId }, payload: { text: 'fail' } });
    const error = await a.client.delivered(commandId, { timeoutMs: 15_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CommandFailedError);
    expect(error).toMatchObject({ commandId, errorCode: 'gateway_rejected' });
  });
});

describe("a message's events and the messages read", () => {
  it('events() yields the message events only when include names them; listMessages reads each message with its state', async () => {
    const head = (await a.client.eventPage({ after: 'now' })).nextAfter;
    const { commandId, messageExternalId } = await send(a.direct.conversationId, 'the whole life');
    const inbound = `in-${commandId}`;
    await a.host.received(a.direct.externalId, 'first words', inbound);
    await a.host.report([
      delivered(a.direct.externalId, messageExternalId),
      // Reported twice, as a host's webhooks and its catch-up both would: one event.
      delivered(a.direct.externalId, messageExternalId),
      read(a.direct.externalId, messageExternalId),
      { type: 'message.reaction', conversationExternalId: a.direct.externalId, reactionExternalId: `r-${commandId}`, messageExternalId, senderExternalId: '+14155550123', reaction: 'love', action: 'added', reactedAt: iso() },
      { type: 'message.edited', conversationExternalId: a.direct.externalId, messageExternalId: inbound, senderExternalId: '+14155550123', text: 'better words', editedAt: iso() },
    ]);
    await a.host.received(a.direct.externalId, 'the end');

    const opted = await first(a.client.events({ after: head, include: ['message.delivered', 'message.read', 'message.reaction', 'message.edited'] }), 8);
    expect(opted.map((e) => e.type)).toEqual(['message.sent', 'command.settled', 'message.received', 'message.delivered', 'message.read', 'message.reaction', 'message.edited', 'message.received']);
    const plain = await first(a.client.events({ after: head }), 4);
    expect(plain.map((e) => e.type)).toEqual(['message.sent', 'command.settled', 'message.received', 'message.received']);

    const page = await a.client.listMessages(a.direct.conversationId, { limit: 3 });
    expect(page.messages.map((m: Message) => [m.direction, m.text])).toEqual([
      ['inbound', 'the end'],
      ['inbound', 'better words'],
      ['outbound', 'the whole life'],
    ]);
    expect(page.messages[1]!.editedAt).not.toBeNull();
    expect(page.messages[2]).toMatchObject({ messageExternalId, commandId, failedAt: null });
    expect(page.messages[2]!.readAt).not.toBeNull();
    expect(page.nextCursor).toEqual(expect.any(String));
    const next = await a.client.listMessages(a.direct.conversationId, { limit: 3, cursor: page.nextCursor! });
    expect(next.messages.map((m) => m.messageExternalId)).not.toContain(messageExternalId);
  });
});
