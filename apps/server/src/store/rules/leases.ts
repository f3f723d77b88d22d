import type { LeaseAcquireResult, LeaseRecord } from '../types.ts';
import { err, ok } from '../../result.ts';

/** Whether `held` is the lease of `epoch`, live at `now`: the fence on every dispatch and settlement. */
export function isLiveEpoch(held: Pick<LeaseRecord, 'epoch' | 'expiresAt'> | null, epoch: number, now: number): boolean {
  return held !== null && held.epoch === epoch && held.expiresAt > now;
}

/**
 * A host asking for the account's lease: refused while another host's is live; otherwise the
 * next epoch (the same host acquiring again, after a restart, also starts a new one).
 */
export function acquisition(held: LeaseRecord | null, input: Omit<LeaseRecord, 'epoch' | 'acquiredAt' | 'expiresAt'>, now: number, ttlMs: number): LeaseAcquireResult {
  if (held && held.expiresAt > now && held.hostId !== input.hostId) return err({ holder: held });
  return ok({ ...input, epoch: (held?.epoch ?? 0) + 1, acquiredAt: now, expiresAt: now + ttlMs });
}

/**
 * A dispatch read that hands out commands renews the live lease when it expires before this: once
 * a tenth of its TTL has passed since its last renewal, so the host executing them counts a fresh
 * lease from the answer. A read that hands out nothing: `emptyReadRenewsBefore`.
 */
export function pollRenewsBefore(now: number, ttlMs: number): number {
  return now + ttlMs - Math.floor(ttlMs / 10);
}

/**
 * When a dispatch read that hands out nothing renews the lease: as the open polls' sweep, for a
 * poll holding nothing (the server keeps its lease while it waits); as any read otherwise, since
 * a host holding commands may count on its polls alone (connector.yaml, "Leases and fencing").
 */
export function emptyReadRenewsBefore(now: number, ttlMs: number, holdingNothing: boolean): number {
  return holdingNothing ? openPollRenewsBefore(now, ttlMs) : pollRenewsBefore(now, ttlMs);
}

/**
 * While a dispatch poll waits, its server keeps the poll's lease live: every `openPollSweepMs` it
 * renews the leases of its open polls that have less than half their TTL left, so a waiting poll's
 * lease never has less than a third left (connector.yaml, "Leases and fencing").
 */
export function openPollRenewsBefore(now: number, ttlMs: number): number {
  return now + Math.floor(ttlMs / 2);
}

/** How often a server renews its open polls' leases: a sixth of the TTL. */
export function openPollSweepMs(ttlMs: number): number {
  return Math.max(1, Math.floor(ttlMs / 6));
}
