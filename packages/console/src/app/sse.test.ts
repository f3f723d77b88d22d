import { describe, expect, it } from 'vitest';
import { serverEvents } from './sse.ts';

/** A body that arrives in the given chunks, as a network would cut it. */
const body = (chunks: string[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });

const read = async (chunks: string[]) => {
  const events = [];
  for await (const event of serverEvents(body(chunks))) events.push(event);
  return events;
};

describe('serverEvents (text/event-stream over fetch)', () => {
  const stream = ': heartbeat\n\nid: 7\nevent: command.settled\ndata: {"a":1}\n\nid: 8\ndata: line one\ndata: line two\n\n';
  const expected = [
    { id: '7', event: 'command.settled', data: '{"a":1}' },
    { id: '8', event: 'message', data: 'line one\nline two' },
  ];

  it('reads ids, event names and multi-line data, and skips comments', async () => {
    expect(await read([stream])).toEqual(expected);
  });

  it('reads the same events however the body is cut, even inside a UTF-8 character or a CRLF', async () => {
    const crlf = stream.replaceAll('\n', '\r\n').replace('line one', 'línea €');
    const whole = await read([crlf]);
    const bytes = new TextEncoder().encode(crlf);
    for (let cut = 1; cut < bytes.length; cut++) {
      const chunks = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes.slice(0, cut));
          controller.enqueue(bytes.slice(cut));
          controller.close();
        },
      });
      const events = [];
      for await (const event of serverEvents(chunks)) events.push(event);
      expect(events).toEqual(whole);
    }
    expect(whole[1]!.data).toBe('línea €\nline two');
  });

  it('drops an event the stream ended in the middle of', async () => {
    expect(await read(['id: 9\ndata: half'])).toEqual([]);
  });
});
