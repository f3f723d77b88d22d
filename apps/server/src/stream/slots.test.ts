import { describe, expect, it } from 'vitest';
import { StreamSlots } from './slots.ts';

describe('StreamSlots', () => {
  it('holds at most max open streams per key, and a release frees one', () => {
    const slots = new StreamSlots(2);
    expect(slots.take('a')).toBe(true);
    expect(slots.take('a')).toBe(true);
    expect(slots.take('a')).toBe(false);
    expect(slots.take('b')).toBe(true);
    slots.release('a');
    expect(slots.take('a')).toBe(true);
    expect(slots.take('a')).toBe(false);
  });
});
