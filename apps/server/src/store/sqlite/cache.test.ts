import { describe, expect, it } from 'vitest';
import type { LeaseRecord } from '../types.ts';
import { ReadCache } from './cache.ts';

const lease = (expiresAt: number): LeaseRecord => ({ accountId: 'a1', hostId: 'h1', epoch: 1, osMajorVersion: 15, capabilities: [], acquiredAt: 0, expiresAt });

describe('ReadCache: an entry a write changed', () => {
  const cache = () => new ReadCache(() => 1);

  it('holds what the write made once its group commits, and is read again if the group rolls back', () => {
    const committed = cache();
    committed.forgetEntry(committed.leases, 'a1', lease(2));
    committed.groupEnded(true);
    expect(committed.leases.get('a1')).toEqual(lease(2));
    const lost = cache();
    lost.leases.set('a1', lease(1));
    lost.forgetEntry(lost.leases, 'a1', lease(2));
    expect(lost.leases.has('a1')).toBe(false);
    lost.groupEnded(false);
    expect(lost.leases.has('a1')).toBe(false);
  });

  it('is read again when the write\'s savepoint rolled back, though its group commits', () => {
    const c = cache();
    c.forgetEntry(c.leases, 'a0', lease(5));
    const savepoint = c.savepoint();
    c.forgetEntry(c.leases, 'a1', lease(2));
    c.rolledBackTo(savepoint);
    c.groupEnded(true);
    expect(c.leases.has('a1')).toBe(false);
    expect(c.leases.get('a0')).toEqual(lease(5));
  });
});
