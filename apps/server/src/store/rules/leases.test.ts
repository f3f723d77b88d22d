import { describe, expect, it } from 'vitest';
import type { LeaseRecord } from '../types.ts';
import { acquisition, emptyReadRenewsBefore, isLiveEpoch, openPollRenewsBefore, openPollSweepMs, pollRenewsBefore } from './leases.ts';

const held: LeaseRecord = { accountId: 'a1', hostId: 'h1', epoch: 2, osMajorVersion: 15, capabilities: [], acquiredAt: 0, expiresAt: 1_000 };
const asking = { accountId: 'a1', hostId: 'h2', osMajorVersion: 15, capabilities: [] };

describe('isLiveEpoch', () => {
  it('is the held epoch before it expires, nothing else', () => {
    expect(isLiveEpoch(held, 2, 999)).toBe(true);
    expect(isLiveEpoch(held, 2, 1_000)).toBe(false);
    expect(isLiveEpoch(held, 1, 999)).toBe(false);
    expect(isLiveEpoch(held, 3, 999)).toBe(false);
    expect(isLiveEpoch(null, 1, 0)).toBe(false);
  });
});

describe('acquisition', () => {
  it('the first holder gets epoch 1', () => {
    expect(acquisition(null, asking, 5, 100)).toEqual({ ok: true, value: { ...asking, epoch: 1, acquiredAt: 5, expiresAt: 105 } });
  });

  it('another host is refused while the lease is live, and told who holds it', () => {
    expect(acquisition(held, asking, 999, 100)).toEqual({ ok: false, error: { holder: held } });
  });

  it('an expired lease goes to the next epoch; the same host acquiring again also starts a new one', () => {
    expect(acquisition(held, asking, 1_000, 100)).toEqual({ ok: true, value: { ...asking, epoch: 3, acquiredAt: 1_000, expiresAt: 1_100 } });
    expect(acquisition(held, { ...asking, hostId: 'h1' }, 500, 100)).toEqual({ ok: true, value: { ...asking, hostId: 'h1', epoch: 3, acquiredAt: 500, expiresAt: 600 } });
  });
});

describe('pollRenewsBefore', () => {
  it('renews a lease once a tenth of its TTL has passed since its last renewal', () => {
    expect(pollRenewsBefore(1_000, 15_000)).toBe(14_500);
    expect(pollRenewsBefore(0, 105)).toBe(95);
  });
});

describe('open polls', () => {
  it('renew a lease once less than half its TTL is left, looking every sixth of it, so at least a third is always left', () => {
    expect(openPollRenewsBefore(1_000, 15_000)).toBe(8_500);
    expect(openPollSweepMs(15_000)).toBe(2_500);
    expect(openPollSweepMs(3)).toBe(1);
    // The worst case: just over half left at one look, renewed at the next.
    const ttl = 15_000;
    const expiresAt = openPollRenewsBefore(0, ttl) + 1;
    expect(expiresAt - openPollSweepMs(ttl)).toBeGreaterThanOrEqual(ttl / 3);
  });
});

describe('emptyReadRenewsBefore', () => {
  it('a poll holding nothing renews as the sweep; one holding commands as any read', () => {
    expect(emptyReadRenewsBefore(1_000, 15_000, true)).toBe(openPollRenewsBefore(1_000, 15_000));
    expect(emptyReadRenewsBefore(1_000, 15_000, false)).toBe(pollRenewsBefore(1_000, 15_000));
  });
});
