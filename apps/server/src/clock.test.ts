import { describe, expect, it } from 'vitest';
import { newId } from './clock.ts';

describe('newId', () => {
  it('is a UUIDv7 carrying the time, ordered by it', () => {
    const id = newId(Date.UTC(2030, 10, 22));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(Date.UTC(2030, 10, 22));
    const ids = Array.from({ length: 1000 }, (_, i) => newId(1_800_000_000_000 + i));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(1000);
  });

  it('orders ids made in the same millisecond by when they were made', () => {
    const ids = Array.from({ length: 5000 }, () => newId(1_900_000_000_000));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(5000);
  });
});
