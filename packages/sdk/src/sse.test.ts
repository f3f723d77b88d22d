import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SseParser, type SseMessage } from './sse.ts';

const parse = (...chunks: string[]): SseMessage[] => {
  const parser = new SseParser();
  return chunks.flatMap((chunk) => parser.feed(chunk));
};

describe('SseParser', () => {
  it('reads id, event and data, and dispatches on a blank line', () => {
    expect(parse('id: 7\nevent: command.settled\ndata: {"a":1}\n\n')).toEqual([{ id: '7', event: 'command.settled', data: '{"a":1}' }]);
  });

  it('ignores comments, such as the heartbeat', () => {
    expect(parse(': connected\n\n: heartbeat\n\nid: 1\ndata: x\n\n: heartbeat\n\n')).toEqual([{ id: '1', event: 'message', data: 'x' }]);
  });

  it('joins data lines with LF and strips one leading space only', () => {
    expect(parse('data:  a\ndata:b\ndata\n\n')).toEqual([{ id: '', event: 'message', data: ' a\nb\n' }]);
  });

  it('accepts CRLF, LF and CR line endings', () => {
    const expected = [{ id: '1', event: 'e', data: 'x' }];
    expect(parse('id: 1\r\nevent: e\r\ndata: x\r\n\r\n')).toEqual(expected);
    expect(parse('id: 1\revent: e\rdata: x\r\r')).toEqual(expected);
  });

  it('keeps the last id for an event without one (the reset event), and drops an event with no data', () => {
    expect(parse('id: 5\ndata: a\n\nevent: reset\ndata: r\n\nid: 6\nevent: x\n\n')).toEqual([
      { id: '5', event: 'message', data: 'a' },
      { id: '5', event: 'reset', data: 'r' },
    ]);
  });

  it('reads retry, ignoring values that are not digits, and an id containing NUL', () => {
    const parser = new SseParser();
    parser.feed('retry: 2500\n\nretry: soon\n\nid: 1\0\ndata: a\n\n');
    expect(parser.retry).toBe(2500);
    expect(parse('id: 3\ndata: a\n\nid: 4\0\ndata: b\n\n').map((m) => m.id)).toEqual(['3', '3']);
  });

  it('discards an event cut off before its blank line', () => {
    expect(parse('id: 1\ndata: a\n\nid: 2\ndata: b\n')).toEqual([{ id: '1', event: 'message', data: 'a' }]);
  });

  it('skips a byte order mark at the start of the stream', () => {
    expect(parse('\uFEFFdata: a\n\n')).toEqual([{ id: '', event: 'message', data: 'a' }]);
  });

  it('a CR at the end of a chunk followed by LF is one line ending', () => {
    expect(parse('data: a\r', '\n\r', '\n')).toEqual([{ id: '', event: 'message', data: 'a' }]);
  });

  it('gives the same messages however the stream is split into chunks (property)', () => {
    const line = fc.constantFrom('\n', '\r\n', '\r');
    const text = fc.string({ unit: fc.constantFrom('a', 'b', ' ', ':', '{', '}', '"', 'é', '😀') });
    const field = fc.oneof(
      fc.tuple(fc.constantFrom('id', 'event', 'data', 'retry', ''), text).map(([name, value]) => `${name}: ${value}`),
      text.map((t) => `:${t}`),
    );
    const stream = fc.array(fc.tuple(fc.array(field, { maxLength: 4 }), line), { maxLength: 12 }).map((events) =>
      events.map(([fields, eol]) => fields.map((f) => f + eol).join('') + eol).join(''),
    );
    fc.assert(
      fc.property(stream, fc.array(fc.nat(), { maxLength: 8 }), (input, cuts) => {
        const points = [...new Set(cuts.map((c) => c % (input.length + 1)))].sort((a, b) => a - b);
        const chunks: string[] = [];
        let from = 0;
        for (const point of points) {
          chunks.push(input.slice(from, point));
          from = point;
        }
        chunks.push(input.slice(from));
        expect(parse(...chunks)).toEqual(parse(input));
      }),
    );
  });
});
