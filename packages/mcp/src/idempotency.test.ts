import { describe, expect, it } from 'vitest';
import { canonicalJson, TurnKeys } from './idempotency.ts';

const WINDOW = 10 * 60_000;
const send = { target: { kind: 'conversation', conversationId: '0190b7a4-0000-7000-8000-000000000001' }, payload: { text: 'It ships today' } };

function keysAt(start: number) {
  let now = start;
  const keys = new TurnKeys(WINDOW, () => now);
  return { keys, advance: (ms: number) => (now += ms) };
}

describe('Idempotency-Keys derived from the tool call', () => {
  it('a repeated call within the window gets the same key, even across the fixed window boundary', () => {
    const { keys, advance } = keysAt(WINDOW - 1_000);
    const first = keys.keyOf('message_send', send);
    advance(5_000);
    expect(keys.keyOf('message_send', send)).toBe(first);
    expect(first).toMatch(/^mcp-[A-Za-z0-9_-]{43}$/);
  });

  it('the same call after the window is new work', () => {
    const { keys, advance } = keysAt(0);
    const first = keys.keyOf('message_send', send);
    advance(WINDOW);
    expect(keys.keyOf('message_send', send)).not.toBe(first);
  });

  it('another payload, target or tool is another key; the order of keys is not', () => {
    const { keys } = keysAt(0);
    const first = keys.keyOf('message_send', send);
    expect(keys.keyOf('message_send', { ...send, payload: { text: 'Something else' } })).not.toBe(first);
    expect(keys.keyOf('message_send', { ...send, target: { ...send.target, conversationId: '0190b7a4-0000-7000-8000-000000000002' } })).not.toBe(first);
    expect(keys.keyOf('reaction_apply', send)).not.toBe(first);
    expect(keys.keyOf('message_send', { payload: { text: 'It ships today' }, target: { conversationId: send.target.conversationId, kind: 'conversation' } })).toBe(first);
  });

  it('a restarted server derives the same key for a repeat in the same window', () => {
    const before = keysAt(3 * WINDOW + 1_000).keys.keyOf('message_send', send);
    expect(keysAt(3 * WINDOW + 60_000).keys.keyOf('message_send', send)).toBe(before);
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops undefined', () => {
    expect(canonicalJson({ b: [{ d: 1, c: 2 }], a: undefined, e: null })).toBe('{"b":[{"c":2,"d":1}],"e":null}');
  });
});
