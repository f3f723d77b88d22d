import { expect, it } from 'vitest';
import { withoutNul } from './text.ts';

it('replaces U+0000 with U+FFFD in every string, key and value, and leaves the rest as it is', () => {
  const bytes = new Uint8Array([0, 1]);
  const event = { type: 'message.received', text: 'a\u0000b\u0000', attachments: [{ fileName: '\u0000.png', bytes }], n: 1, none: null, ['k\u0000']: true };
  expect(withoutNul(event)).toEqual({ type: 'message.received', text: 'a\uFFFDb\uFFFD', attachments: [{ fileName: '\uFFFD.png', bytes }], n: 1, none: null, ['k\uFFFD']: true });
  expect(withoutNul(event).attachments[0]!.bytes).toBe(bytes);
  expect(event.text).toBe('a\u0000b\u0000');
});
