import { describe, expect, it } from 'vitest';
import { SwitchboardClient } from './client.ts';
import { CommandFailedError } from './errors.ts';
import type { Message } from './types.ts';
import { TestClock } from '../test/support/clock.ts';
import { frame, json, scriptedFetch, sse, type Step } from '../test/support/fetch.ts';
// Loaded before the clock runs, as a client loads it on first use.
import './delivered.ts';

const commandId = '0190b7a4-0000-7000-8000-0000000000a1';
const conversationId = '0190b7a4-0000-7000-8000-0000000000c1';
const sentAt = '2026-01-01T00:00:01.000Z';
const deliveredAt = '2026-01-01T00:00:02.000Z';
const readAt = '2026-01-01T00:00:03.000Z';
const failedAt = '2026-01-01T00:00:04.000Z';

function message(state: Partial<Message> = {}): Message {
  return {
    messageExternalId: 'm-1',
    conversationId,
    direction: 'outbound',
    commandId,
    senderExternalId: null,
    text: 'hi',
    attachments: [],
    sentAt,
    deliveredAt: null,
    readAt: null,
    failedAt: null,
    failure: null,
    editedAt: null,
    unsentAt: null,
    ...state,
  };
}

const sent = message();
const delivered = message({ deliveredAt });
const read = message({ deliveredAt, readAt });
const failed = message({ failedAt, failure: { reason: 'not_delivered', platformMessage: 'Not Delivered' } });

function command(status: 'queued' | 'succeeded' | 'failed', msg: Message | null = null, type = 'message.send') {
  return json(200, {
    commandId,
    type,
    status,
    routingPath: 'agent-turn',
    conversationId,
    errorCode: status === 'failed' ? 'stale_target' : null,
    errorMessage: status === 'failed' ? 'the membership changed' : null,
    errorPath: null,
    message: msg,
  });
}

const conversation = (kind: 'direct' | 'group') => json(200, { conversationId, kind, name: null, participants: [], createdAt: sentAt });

function setup(steps: Step[]) {
  const clock = new TestClock();
  const scripted = scriptedFetch(...steps);
  const client = new SwitchboardClient({ baseUrl: 'http://switchboard.test', apiKey: 'k', fetch: scripted.fetch, clock, random: () => 0 });
  const paths = () => scripted.requests.map((r) => new URL(r.url).pathname);
  return { client, clock, requests: scripted.requests, paths };
}

const commandPath = `/v1/commands/${commandId}`;

describe('delivered(), polling the command', () => {
  it('answers delivered once the message is delivered', async () => {
    const { client, clock, paths } = setup([command('queued'), command('succeeded', sent), command('succeeded', delivered)]);
    expect(await clock.run(client.delivered(commandId))).toEqual({ commandId, state: 'delivered', reached: true, timedOut: false, message: delivered });
    expect(paths()).toEqual([commandPath, commandPath, commandPath]);
    expect(clock.fired).toEqual([100, 200]);
  });

  it('answers read once the message is read, in a direct conversation', async () => {
    const { client, clock, paths } = setup([command('succeeded', sent), command('succeeded', delivered), conversation('direct'), command('succeeded', delivered), command('succeeded', read)]);
    expect(await clock.run(client.delivered(commandId, { until: 'read' }))).toEqual({ commandId, state: 'read', reached: true, timedOut: false, message: read });
    // The conversation's kind is read once, when the message is first delivered.
    expect(paths()).toEqual([commandPath, commandPath, `/v1/conversations/${conversationId}`, commandPath, commandPath]);
  });

  it('a message read counts as delivered', async () => {
    const { client, clock } = setup([command('succeeded', read)]);
    expect(await clock.run(client.delivered(commandId))).toMatchObject({ state: 'read', reached: true, timedOut: false });
  });

  it('answers failed, with why, when the message failed after the command succeeded', async () => {
    const { client, clock } = setup([command('succeeded', sent), command('succeeded', failed)]);
    const delivery = await clock.run(client.delivered(commandId, { until: 'read' }));
    expect(delivery).toEqual({ commandId, state: 'failed', reached: false, timedOut: false, message: failed });
    if (delivery.state === 'failed') expect(delivery.message.failure.reason).toBe('not_delivered');
  });

  it('on timeout answers the state reached, without throwing: delivered while waiting for read', async () => {
    const { client, clock, requests } = setup([command('succeeded', delivered), conversation('direct'), ...Array.from({ length: 20 }, () => command('succeeded', delivered))]);
    expect(await clock.run(client.delivered(commandId, { until: 'read', timeoutMs: 3_000 }))).toEqual({ commandId, state: 'delivered', reached: false, timedOut: true, message: delivered });
    // Reads at 0, 100, 300, 700 and 1 500 ms (and the conversation once); the next would be at 3 100.
    expect(requests).toHaveLength(6);
  });

  it('on timeout answers sent, or queued when the command has not settled', async () => {
    const sentOnly = setup(Array.from({ length: 20 }, () => command('succeeded', sent)));
    expect(await sentOnly.clock.run(sentOnly.client.delivered(commandId, { timeoutMs: 2_000 }))).toEqual({ commandId, state: 'sent', reached: false, timedOut: true, message: sent });
    const queued = setup(Array.from({ length: 20 }, () => command('queued')));
    expect(await queued.clock.run(queued.client.delivered(commandId, { timeoutMs: 2_000 }))).toEqual({ commandId, state: 'queued', reached: false, timedOut: true, message: null });
  });

  it('answers at once a state reached before the wait began', async () => {
    const { client, clock, requests } = setup([command('succeeded', delivered)]);
    expect(await clock.run(client.delivered(commandId))).toMatchObject({ state: 'delivered', reached: true });
    expect(requests).toHaveLength(1);
    expect(clock.fired).toEqual([]);
  });

  it('in a group, a wait for read answers at delivered: there are no read receipts', async () => {
    const { client, clock, requests } = setup([command('succeeded', delivered), conversation('group')]);
    expect(await clock.run(client.delivered(commandId, { until: 'read' }))).toEqual({ commandId, state: 'delivered', reached: false, timedOut: false, message: delivered });
    expect(requests).toHaveLength(2);
  });

  it('rejects with CommandFailedError when the command settled failed: nothing was sent', async () => {
    const { client, clock } = setup([command('queued'), command('failed')]);
    const error = await clock.run(client.delivered(commandId)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CommandFailedError);
    expect(error).toMatchObject({ commandId, errorCode: 'stale_target', errorMessage: 'the membership changed', errorPath: null });
  });

  it('rejects with TypeError for a command that sends no message', async () => {
    const { client, clock } = setup([command('succeeded', null, 'reaction.tapback')]);
    await expect(clock.run(client.delivered(commandId))).rejects.toThrow(/reaction\.tapback, which sends no message/);
  });

  it('rejects with the reason when the signal aborts', async () => {
    const controller = new AbortController();
    const { client, clock } = setup([
      (r) => {
        queueMicrotask(() => controller.abort(new Error('caller gave up')));
        return command('succeeded', sent);
      },
      ...Array.from({ length: 5 }, () => command('succeeded', sent)),
    ]);
    await expect(clock.run(client.delivered(commandId, { signal: controller.signal }))).rejects.toThrow('caller gave up');
  });
});

describe('delivered() with `after`, on the stream', () => {
  it('reads the command first, then reads it again at its settlement, and takes the state events onto the message', async () => {
    let stream: Request | undefined;
    const { client, clock, paths } = setup([
      command('queued'),
      (r) => {
        stream = r;
        return sse(
          [
            frame(8, 'command.settled', { commandId: 'other', status: 'succeeded', errorCode: null }),
            frame(9, 'message.sent', { conversationId, messageExternalId: 'm-1', commandId }),
            frame(10, 'command.settled', { commandId, status: 'succeeded', errorCode: null, errorMessage: null, errorPath: null }),
            frame(11, 'message.delivered', { conversationId, messageExternalId: 'm-other', commandId: null, deliveredAt }),
            frame(12, 'message.delivered', { conversationId, messageExternalId: 'm-1', commandId, deliveredAt }),
            frame(13, 'message.read', { conversationId, messageExternalId: 'm-1', commandId, readAt }),
          ],
          'hang',
          r,
        );
      },
      command('succeeded', sent),
      conversation('direct'),
    ]);
    expect(await clock.run(client.delivered(commandId, { after: '7', until: 'read' }))).toEqual({ commandId, state: 'read', reached: true, timedOut: false, message: read });
    // Read at the echo; the settlement after it needs no read, nor do the states: they are taken onto the message read.
    expect(paths()).toEqual([commandPath, '/v1/events', commandPath, `/v1/conversations/${conversationId}`]);
    expect(stream!.headers.get('last-event-id')).toBe('7');
    expect(stream!.signal.aborted).toBe(true);
  });

  it("after: 'now' reads the head, then the command: a state reached before the wait is answered without the stream", async () => {
    const { client, clock, paths } = setup([json(200, { events: [], nextAfter: '42' }), command('succeeded', delivered)]);
    expect(await clock.run(client.delivered(commandId, { after: 'now' }))).toMatchObject({ state: 'delivered', reached: true, timedOut: false });
    expect(paths()).toEqual(['/v1/events', commandPath]);
  });

  it('answers failed from message.failed, and the state reached when time runs out', async () => {
    const failing = setup([
      command('succeeded', sent),
      (r) => sse([frame(5, 'message.failed', { conversationId, messageExternalId: 'm-1', commandId, reason: 'recipient_unreachable', platformMessage: null, failedAt })], 'hang', r),
    ]);
    expect(await failing.clock.run(failing.client.delivered(commandId, { after: '4' }))).toEqual({
      commandId,
      state: 'failed',
      reached: false,
      timedOut: false,
      message: message({ failedAt, failure: { reason: 'recipient_unreachable', platformMessage: null } }),
    });

    const waiting = setup([command('succeeded', sent), (r) => sse([frame(5, 'message.delivered', { conversationId, messageExternalId: 'm-1', commandId, deliveredAt })], 'hang', r), conversation('direct')]);
    expect(await waiting.clock.run(waiting.client.delivered(commandId, { after: '4', until: 'read', timeoutMs: 5_000 }))).toEqual({ commandId, state: 'delivered', reached: false, timedOut: true, message: delivered });
  });

  it('rejects with CommandFailedError when the settlement on the stream is failed', async () => {
    const { client, clock } = setup([
      command('queued'),
      (r) => sse([frame(3, 'command.settled', { commandId, status: 'failed', errorCode: 'stale_target', errorMessage: 'the membership changed', errorPath: null })], 'hang', r),
      command('failed'),
    ]);
    await expect(clock.run(client.delivered(commandId, { after: '2' }))).rejects.toBeInstanceOf(CommandFailedError);
  });
});
