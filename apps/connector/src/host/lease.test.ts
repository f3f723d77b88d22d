import pino from 'pino';
import { describe, expect, test } from 'vitest';
import { NetworkError, type Answer, type ConnectorClient } from '@switchboard/connector-client';
import { heldRetryDelay, LeaseKeeper, LeaseTakenOver } from './lease.ts';

describe('heldRetryDelay: when to ask again while another host holds the lease', () => {
  test('right after the holder\'s lease would expire, when that is soon', () => {
    expect(heldRetryDelay(150, 5, 2_000, () => 0)).toBe(150);
  });

  test('no later than the backoff, which grows with each attempt up to the maximum', () => {
    expect([0, 1, 2, 3, 10].map((attempt) => heldRetryDelay(15_000, attempt, 2_000, () => 0))).toEqual([100, 200, 400, 800, 2_000]);
  });

  test('never at once, even when the expiry already passed', () => {
    expect(heldRetryDelay(-500, 0, 2_000, () => 0)).toBe(5);
  });

  test('jittered by up to 25 ms so waiting hosts spread out', () => {
    expect(heldRetryDelay(150, 5, 2_000, () => 0.999)).toBe(175);
  });
});

/** A server played in memory for one LeaseKeeper: every acquisition is granted, each renewal answered by `renew`. */
function keeperAgainst(renew: (epoch: number) => Promise<Answer>, ttlMs = 300, kept: { waitingOnPoll?: (epoch: number) => boolean } = {}) {
  let epoch = 0;
  const acquired: number[] = [];
  const client = {
    acquireLease: async () => {
      acquired.push(++epoch);
      const body = { accountId: 'a', hostId: 'mac-mini-1', epoch, ttlMs, expiresAt: new Date(Date.now() + ttlMs).toISOString() };
      return { status: 200, body: kept.waitingOnPoll ? { ...body, keptWhilePolling: true } : body };
    },
    renewLease: (e: number) => renew(e),
    releaseLease: async () => ({ status: 204, body: null }),
  } as unknown as ConnectorClient;
  const keeper = new LeaseKeeper({ client, log: pino({ level: 'silent' }), request: { hostId: 'mac-mini-1', osMajorVersion: 15, capabilities: [] }, maxRetryMs: 50, ...kept });
  return { keeper, acquired };
}

const leaseLost: Answer = { status: 409, body: { error: 'lease_lost', message: 'this epoch is not the live lease; acquire the lease again' } };

describe('LeaseKeeper: another process with the same host id', () => {
  test('a live lease answered lease_lost was taken over by a process with this host id: the keeper stops, naming the id, rather than take it back', { timeout: 5_000 }, async () => {
    const { keeper, acquired } = keeperAgainst(async () => leaseLost);
    await expect(keeper.run(() => undefined)).rejects.toThrow(LeaseTakenOver);
    await expect(keeper.run(() => undefined)).rejects.toThrow(/another connector host with host id "mac-mini-1" took this account's lease over.*SWITCHBOARD_HOST_ID/);
    // Asking again would take it back from the other process, which would take it back in turn: no end.
    expect(acquired).toEqual([1]);
  });

  test('so does a lease_lost from dispatch or a settlement (markLost) while the lease is live', { timeout: 5_000 }, async () => {
    const { keeper, acquired } = keeperAgainst(async (epoch) => ({ status: 200, body: { accountId: 'a', hostId: 'mac-mini-1', epoch, ttlMs: 300, expiresAt: new Date().toISOString() } }));
    await expect(keeper.run((lease) => setTimeout(() => keeper.markLost(lease.epoch), 20))).rejects.toThrow(LeaseTakenOver);
    expect(acquired).toEqual([1]);
  });

  test('a lease it could not renew before it expired is lost, not taken: the keeper asks again', { timeout: 5_000 }, async () => {
    let renewals = 0;
    const { keeper, acquired } = keeperAgainst(async () => {
      // The server unreachable past the lease's expiry, then the server's answer for the old epoch.
      if (++renewals < 100) throw new NetworkError('unreachable');
      return leaseLost;
    }, 150);
    const second = new Promise<void>((resolve) => {
      void keeper.run(() => {
        if (acquired.length === 2) resolve();
      });
    });
    await second;
    await keeper.stop();
    expect(acquired).toEqual([1, 2]);
  });

  test('stopping while the lease is taken over is a stop, not a failure', { timeout: 5_000 }, async () => {
    let answer: (value: Answer) => void = () => undefined;
    const { keeper } = keeperAgainst(() => new Promise((resolve) => (answer = resolve)));
    const running = keeper.run(() => undefined);
    await new Promise((r) => setTimeout(r, 150));
    const stopped = keeper.stop();
    answer(leaseLost);
    await stopped;
    await expect(running).resolves.toBeUndefined();
  });
});

describe('LeaseKeeper: polls that renew the lease', () => {
  const renewed = (epoch: number): Answer => ({ status: 200, body: { accountId: 'a', hostId: 'mac-mini-1', epoch, ttlMs: 300, expiresAt: new Date().toISOString() } });

  test('a host whose polls renew its lease sends no renewal of its own; once they stop, it renews before a third of the TTL is left', { timeout: 5_000 }, async () => {
    const renewals: number[] = [];
    const { keeper } = keeperAgainst(async (epoch) => {
      renewals.push(Date.now());
      return renewed(epoch);
    });
    let polling: NodeJS.Timeout | undefined;
    void keeper.run((lease) => {
      // A poll answered every 100 ms (a third of the TTL), renewed just before its answer.
      polling = setInterval(() => keeper.renewedByPoll(lease.epoch, keeper.now() - 100, 100), 100);
    });
    await new Promise((r) => setTimeout(r, 900));
    expect(renewals).toEqual([]);
    clearInterval(polling);
    const stopped = Date.now();
    await new Promise((r) => setTimeout(r, 400));
    await keeper.stop();
    expect(renewals.length).toBeGreaterThan(0);
    // The last poll's renewal lives 300 ms: the keeper renews when 100 ms of it are left.
    expect(renewals[0]! - stopped).toBeLessThan(250);
  });

  test('a poll of an earlier epoch renews nothing', { timeout: 5_000 }, async () => {
    const renewals: number[] = [];
    const { keeper } = keeperAgainst(async (epoch) => {
      renewals.push(Date.now());
      return renewed(epoch);
    });
    let polling: NodeJS.Timeout | undefined;
    const started = Date.now();
    void keeper.run((lease) => {
      polling = setInterval(() => keeper.renewedByPoll(lease.epoch - 1, keeper.now(), 0), 20);
    });
    await new Promise((r) => setTimeout(r, 500));
    clearInterval(polling);
    await keeper.stop();
    // Renewed on its own, two thirds of the TTL after the lease: the earlier epoch's polls did not count.
    expect(renewals[0]! - started).toBeLessThan(300);
  });
});

describe('LeaseKeeper: a server that keeps the lease while a poll waits', () => {
  const renewed = (epoch: number): Answer => ({ status: 200, body: { accountId: 'a', hostId: 'mac-mini-1', epoch, ttlMs: 300, expiresAt: new Date().toISOString(), keptWhilePolling: true } });

  test('idle on a waiting poll, the host sends no renewal and does not count the lease lost past its TTL; busy, it renews as before', { timeout: 5_000 }, async () => {
    const renewals: number[] = [];
    let waiting = true;
    const acquisitions: number[] = [];
    const { keeper } = keeperAgainst(async (epoch) => {
      renewals.push(Date.now());
      return renewed(epoch);
    }, 300, { waitingOnPoll: () => waiting });
    void keeper.run((lease) => acquisitions.push(lease.epoch));
    // Three TTLs on one poll, nothing in hand.
    await new Promise((r) => setTimeout(r, 900));
    expect(renewals).toEqual([]);
    expect(acquisitions).toEqual([1]);
    // The poll answers (renewed as it did) and the host holds a command: the count is its own again.
    keeper.renewedByPoll(1, keeper.now(), 0);
    waiting = false;
    const busy = Date.now();
    await new Promise((r) => setTimeout(r, 400));
    await keeper.stop();
    expect(renewals.length).toBeGreaterThan(0);
    expect(renewals[0]! - busy).toBeLessThan(300);
    expect(acquisitions).toEqual([1]);
  });

  test('a poll that keeps the lease going out just after the lease: no renewal of its own at all', { timeout: 5_000 }, async () => {
    const renewals: number[] = [];
    let waiting = false;
    const { keeper } = keeperAgainst(async (epoch) => {
      renewals.push(Date.now());
      return renewed(epoch);
    }, 300, { waitingOnPoll: () => waiting });
    void keeper.run(() => setTimeout(() => (waiting = true), 20));
    await new Promise((r) => setTimeout(r, 900));
    await keeper.stop();
    expect(renewals).toEqual([]);
  });

  test('an answer wakes the keeper at once: a lease with little left by the answer is renewed, not lost', { timeout: 10_000 }, async () => {
    const ttl = 3_000;
    const renewals: number[] = [];
    let waiting = true;
    const { keeper, acquired } = keeperAgainst(async (epoch) => {
      renewals.push(Date.now());
      return { status: 200, body: { accountId: 'a', hostId: 'mac-mini-1', epoch, ttlMs: ttl, expiresAt: new Date().toISOString(), keptWhilePolling: true } };
    }, ttl, { waitingOnPoll: () => waiting });
    void keeper.run(() => undefined);
    // Past the lease's TTL on one poll (the keeper looks every third of it: at 1, 2 and 3 s, then 4 s).
    await new Promise((r) => setTimeout(r, 3_150));
    expect(renewals).toEqual([]);
    // The answer came late and leaves 200 ms by the host's count, with commands in hand.
    waiting = false;
    keeper.renewedByPoll(1, keeper.now() - ttl + 200, 0);
    expect(keeper.liveNow(1)).toBe(true);
    await new Promise((r) => setTimeout(r, 400));
    expect(renewals.length).toBeGreaterThan(0);
    expect(keeper.liveNow(1)).toBe(true);
    await keeper.stop();
    expect(acquired).toEqual([1]);
  });

  test('a kept poll that fails after the count ran out: one renewal asks the server, which still holds the lease, so no new epoch', { timeout: 5_000 }, async () => {
    const renewals: number[] = [];
    let waiting = true;
    const { keeper, acquired } = keeperAgainst(async (epoch) => {
      renewals.push(epoch);
      return renewed(epoch);
    }, 300, { waitingOnPoll: () => waiting });
    void keeper.run(() => undefined);
    // Three TTLs on one poll, then it fails (no answer, so no renewedByPoll) and the host backs off.
    await new Promise((r) => setTimeout(r, 900));
    waiting = false;
    await new Promise((r) => setTimeout(r, 400));
    expect(keeper.liveNow(1)).toBe(true);
    await keeper.stop();
    expect(renewals[0]).toBe(1);
    expect(acquired).toEqual([1]);
  });

  test('the same, when the server answers that renewal lease_lost: lost, asked again', { timeout: 5_000 }, async () => {
    let waiting = true;
    const { keeper, acquired } = keeperAgainst(async (epoch) => (epoch === 1 ? leaseLost : renewed(epoch)), 300, { waitingOnPoll: () => waiting });
    const second = new Promise<void>((resolve) => {
      void keeper.run((lease) => {
        if (lease.epoch === 2) resolve();
      });
    });
    await new Promise((r) => setTimeout(r, 900));
    waiting = false;
    await second;
    await keeper.stop();
    expect(acquired).toEqual([1, 2]);
  });

  test("a poll's lease_lost naming no holder, from a server that keeps leases, is a loss even while the count says live", { timeout: 5_000 }, async () => {
    const lost = keeperAgainst(async (epoch) => renewed(epoch), 300, { waitingOnPoll: () => false });
    const second = new Promise<void>((resolve) => {
      void lost.keeper.run((lease) => {
        if (lease.epoch === 1) setTimeout(() => lost.keeper.markLost(lease.epoch, null), 20);
        else resolve();
      });
    });
    await second;
    await lost.keeper.stop();
    expect(lost.acquired).toEqual([1, 2]);
  });

  test("a poll's lease_lost naming this host's id is a takeover, another id a loss: the clock no longer tells them apart", { timeout: 5_000 }, async () => {
    const taken = keeperAgainst(async (epoch) => renewed(epoch), 300, { waitingOnPoll: () => true });
    await expect(taken.keeper.run((lease) => setTimeout(() => taken.keeper.markLost(lease.epoch, 'mac-mini-1'), 600))).rejects.toThrow(LeaseTakenOver);
    expect(taken.acquired).toEqual([1]);

    const lost = keeperAgainst(async (epoch) => renewed(epoch), 300, { waitingOnPoll: () => true });
    const second = new Promise<void>((resolve) => {
      void lost.keeper.run((lease) => {
        // Live by the keeper's count (just acquired), yet another host holds it: lost, asked again.
        if (lease.epoch === 1) setTimeout(() => lost.keeper.markLost(lease.epoch, 'mac-mini-2'), 20);
        else resolve();
      });
    });
    await second;
    await lost.keeper.stop();
    expect(lost.acquired).toEqual([1, 2]);
  });
});
