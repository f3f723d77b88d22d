import { describe, expect, it } from 'vitest';
import { SwitchboardClient } from './client.ts';
import { SwitchboardError, UnexpectedResponseError } from './errors.ts';
import type { StreamItem } from './types.ts';
import { TestClock } from '../test/support/clock.ts';
import { connectionRefused, errorBody, frame, scriptedFetch, sse, type Step } from '../test/support/fetch.ts';

function setup(steps: Step[]) {
  const clock = new TestClock();
  const scripted = scriptedFetch(...steps);
  const client = new SwitchboardClient({ baseUrl: 'http://switchboard.test', apiKey: 'sk_test', fetch: scripted.fetch, clock, random: () => 0.5 });
  return { client, clock, requests: scripted.requests };
}

/** Reads `count` items from the stream, then stops it. */
async function take(clock: TestClock, iterator: AsyncGenerator<StreamItem>, count: number): Promise<StreamItem[]> {
  const items: StreamItem[] = [];
  const reading = (async () => {
    for await (const item of iterator) {
      items.push(item);
      if (items.length === count) break;
    }
    return items;
  })();
  return clock.run(reading);
}

const lastEventId = (request: Request | undefined) => request?.headers.get('last-event-id');
const ids = (items: StreamItem[]) => items.map((i) => ('id' in i ? i.id : i.type));

describe('events()', () => {
  it('yields typed events in order and asks for SSE from the start', async () => {
    const { client, clock, requests } = setup([(r) => sse([': connected\n\n', frame(1, 'message.received', { text: 'hi' }), frame(2, 'command.settled', { commandId: 'c1' })], 'hang', r)]);
    const items = await take(clock, client.events(), 2);
    expect(items.map((i) => i.type)).toEqual(['message.received', 'command.settled']);
    const first = items[0]!;
    if (first.type === 'message.received') expect(first.data.text).toBe('hi');
    expect(requests[0]!.headers.get('accept')).toBe('text/event-stream');
    expect(lastEventId(requests[0])).toBe('0');
  });

  it('resumes after a drop with Last-Event-ID = the last event yielded: no gap, no repeat', async () => {
    const { client, clock, requests } = setup([
      // The first connection drops halfway through event 3: that half is discarded.
      (r) => sse([frame(1, 'message.sent'), frame(2, 'message.sent'), frame(3, 'message.sent').slice(0, 20)], 'error', r),
      (r) => sse([frame(3, 'message.sent'), frame(4, 'message.sent')], 'hang', r),
    ]);
    const items = await take(clock, client.events(), 4);
    expect(ids(items)).toEqual(['1', '2', '3', '4']);
    expect(requests.map(lastEventId)).toEqual(['0', '2']);
  });

  it('resumes from `after`, and again after the service closes the stream', async () => {
    const { client, clock, requests } = setup([(r) => sse([frame(11, 'message.sent')], 'close', r), (r) => sse([frame(12, 'message.sent')], 'hang', r)]);
    expect(ids(await take(clock, client.events({ after: '10' }), 2))).toEqual(['11', '12']);
    expect(requests.map(lastEventId)).toEqual(['10', '11']);
  });

  it('does not yield an event twice if a connection replays it', async () => {
    const { client, clock } = setup([(r) => sse([frame(1, 'message.sent'), frame(2, 'message.sent')], 'close', r), (r) => sse([frame(2, 'message.sent'), frame(3, 'message.sent')], 'hang', r)]);
    expect(ids(await take(clock, client.events(), 3))).toEqual(['1', '2', '3']);
  });

  it('surfaces reset and resumes from the oldest retained event after it', async () => {
    const reset = { reason: 'cursor_expired', requestedAfter: '3', oldestId: '40' };
    const { client, clock, requests } = setup([
      (r) => sse([`event: reset\ndata: ${JSON.stringify(reset)}\n\n`], 'close', r),
      (r) => sse([frame(40, 'message.sent')], 'hang', r),
    ]);
    const items = await take(clock, client.events({ after: '3' }), 2);
    expect(items[0]).toEqual({ type: 'reset', data: reset });
    expect(ids(items.slice(1))).toEqual(['40']);
    // A reconnect right after the reset continues before the oldest event, not at the expired id.
    expect(requests.map(lastEventId)).toEqual(['3', '39']);
  });

  it('skips event types this SDK does not know, and moves past them', async () => {
    const { client, clock, requests } = setup([(r) => sse([frame(1, 'message.forwarded'), frame(2, 'message.sent')], 'close', r), (r) => sse([frame(3, 'message.sent')], 'hang', r)]);
    expect(ids(await take(clock, client.events(), 2))).toEqual(['2', '3']);
    expect(requests.map(lastEventId)).toEqual(['0', '2']);
  });

  it('skips poll.voted unless include names it; then yields it in order', async () => {
    const stream = [frame(1, 'poll.voted', { pollId: 'p1' }), frame(2, 'message.sent'), frame(3, 'webhook.endpoint_disabled'), frame(4, 'poll.voted', { pollId: 'p1' })];
    const plain = setup([(r) => sse(stream, 'hang', r)]);
    expect(ids(await take(plain.clock, plain.client.events(), 1))).toEqual(['2']);
    const opted = setup([(r) => sse([...stream, frame(5, 'message.sent')], 'hang', r)]);
    const items = await take(opted.clock, opted.client.events({ include: ['poll.voted'] }) as AsyncGenerator<StreamItem>, 3);
    expect(ids(items)).toEqual(['1', '2', '4']);
  });

  it("skips a message's later states and what others do to messages unless include names them; yields just those named", async () => {
    const stream = [
      frame(1, 'message.sent'),
      frame(2, 'message.delivered', { commandId: 'c1' }),
      frame(3, 'message.read', { commandId: 'c1' }),
      frame(4, 'message.failed', { commandId: 'c2' }),
      frame(5, 'message.reaction'),
      frame(6, 'message.edited'),
      frame(7, 'message.unsent'),
      frame(8, 'message.sent'),
    ];
    const plain = setup([(r) => sse(stream, 'hang', r)]);
    expect(ids(await take(plain.clock, plain.client.events(), 2))).toEqual(['1', '8']);
    const states = setup([(r) => sse(stream, 'hang', r)]);
    const items = await take(states.clock, states.client.events({ include: ['message.delivered', 'message.read', 'message.failed'] }) as AsyncGenerator<StreamItem>, 5);
    expect(items.map((i) => [i.type === 'reset' ? '' : i.id, i.type])).toEqual([['1', 'message.sent'], ['2', 'message.delivered'], ['3', 'message.read'], ['4', 'message.failed'], ['8', 'message.sent']]);
    const others = setup([(r) => sse(stream, 'hang', r)]);
    expect(ids(await take(others.clock, others.client.events({ include: ['message.reaction', 'message.edited', 'message.unsent'] }) as AsyncGenerator<StreamItem>, 5))).toEqual(['1', '5', '6', '7', '8']);
  });

  it('reconnects when nothing, not even a heartbeat, arrives within the idle timeout', async () => {
    const { client, clock, requests } = setup([(r) => sse([frame(1, 'message.sent')], 'hang', r), (r) => sse([frame(2, 'message.sent')], 'hang', r)]);
    expect(ids(await take(clock, client.events({ idleTimeoutMs: 45_000 }), 2))).toEqual(['1', '2']);
    expect(requests.map(lastEventId)).toEqual(['0', '1']);
    expect(clock.fired[0]).toBe(45_000);
  });

  it('backs off while the service is unreachable or answers 5xx, honouring Retry-After', async () => {
    const { client, clock } = setup([connectionRefused(), errorBody(503, 'internal', {}, { 'retry-after': '3' }), connectionRefused(), (r) => sse([frame(1, 'message.sent')], 'hang', r)]);
    expect(ids(await take(clock, client.events(), 1))).toEqual(['1']);
    // Full jitter at 0.5: 500 ms base, then Retry-After 3 s + 250, then 2 000 ms * 0.5.
    expect(clock.fired).toEqual([250, 3_250, 1_000]);
  });

  it('throws what reconnecting cannot fix: a 4xx such as unauthenticated', async () => {
    const { client, clock } = setup([errorBody(401, 'unauthenticated')]);
    const error = await take(clock, client.events(), 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SwitchboardError);
    expect((error as SwitchboardError).code).toBe('unauthenticated');
  });

  it('throws when the answer is not an event stream (a proxy that dropped the Accept header)', async () => {
    const { client, clock } = setup([new Response('{"events":[]}', { status: 200, headers: { 'content-type': 'application/json' } })]);
    await expect(take(clock, client.events(), 1)).rejects.toBeInstanceOf(UnexpectedResponseError);
  });

  it('throws on an event without a valid id', async () => {
    const { client, clock } = setup([(r) => sse(['id: abc\nevent: message.sent\ndata: {"id":"abc","type":"message.sent"}\n\n'], 'hang', r)]);
    await expect(take(clock, client.events(), 1)).rejects.toBeInstanceOf(UnexpectedResponseError);
  });

  it('throws on an event whose data is not JSON', async () => {
    const { client, clock } = setup([(r) => sse(['id: 1\nevent: message.sent\ndata: {oops\n\n'], 'hang', r)]);
    await expect(take(clock, client.events(), 1)).rejects.toBeInstanceOf(UnexpectedResponseError);
  });

  it('ends without an error when the signal aborts, and closes the connection', async () => {
    const controller = new AbortController();
    let connection: Request | undefined;
    const { client, clock } = setup([
      (r) => {
        connection = r;
        return sse([frame(1, 'message.sent')], 'hang', r);
      },
    ]);
    const items: StreamItem[] = [];
    await clock.run(
      (async () => {
        for await (const item of client.events({ signal: controller.signal, idleTimeoutMs: Infinity })) {
          items.push(item);
          controller.abort();
        }
      })(),
    );
    expect(ids(items)).toEqual(['1']);
    expect(connection!.signal.aborted).toBe(true);
  });

  it('ends when the signal aborts even if the response goes on delivering (heartbeats after the abort)', async () => {
    // A fetch may hand over what was already under way after its signal aborted.
    const controller = new AbortController();
    const encoder = new TextEncoder();
    let reads = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(stream) {
        await new Promise((resolve) => setImmediate(resolve));
        stream.enqueue(encoder.encode(reads++ === 0 ? frame(1, 'message.sent') : ': heartbeat\n\n'));
      },
    });
    const { client } = setup([new Response(body, { headers: { 'content-type': 'text/event-stream' } })]);
    const items: StreamItem[] = [];
    // Real time (the test clock would fire the idle timeout): without the check it reads forever.
    for await (const item of client.events({ signal: controller.signal, idleTimeoutMs: Infinity })) {
      items.push(item);
      controller.abort();
    }
    expect(ids(items)).toEqual(['1']);
    expect(reads).toBeLessThan(5);
  }, 5_000);

  it('closes the connection when the caller breaks out of the loop', async () => {
    let connection: Request | undefined;
    const { client, clock } = setup([
      (r) => {
        connection = r;
        return sse([frame(1, 'message.sent'), frame(2, 'message.sent')], 'hang', r);
      },
    ]);
    expect(ids(await take(clock, client.events(), 1))).toEqual(['1']);
    expect(connection!.signal.aborted).toBe(true);
  });

  it('rejects an `after` that is not an event id', async () => {
    const { client } = setup([]);
    await expect(client.events({ after: 'latest' }).next()).rejects.toThrow(TypeError);
  });
});
