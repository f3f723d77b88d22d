import { describe, expect, it } from 'vitest';
import { createIdSource } from './ids.ts';

describe('createIdSource', () => {
  it('is a UUIDv7 carrying the time, ordered by it', () => {
    let now = Date.UTC(2030, 10, 22);
    const ids = createIdSource(() => now);
    const id = ids.next();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(Date.UTC(2030, 10, 22));
    const many = Array.from({ length: 1000 }, (_, i) => ((now = 1_800_000_000_000 + i), ids.next()));
    expect([...many].sort()).toEqual(many);
    expect(new Set(many).size).toBe(1000);
  });

  it('orders ids made in the same millisecond by when they were made', () => {
    const ids = createIdSource(() => 1_900_000_000_000);
    const many = Array.from({ length: 5000 }, () => ids.next());
    expect([...many].sort()).toEqual(many);
    expect(new Set(many).size).toBe(5000);
  });
});
