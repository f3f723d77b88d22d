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
 * A dispatch poll renews the live lease when it expires before this: once a tenth of its TTL has
 * passed since its last renewal. A poll's arrival, right after the previous answer renewed it,
 * writes nothing; a later read does, so back-to-back polls of half the TTL renew it before a third
 * of it is left, when their host would renew it itself (connector.yaml, "Leases and fencing").
 */
export function pollRenewsBefore(now: number, ttlMs: number): number {
  return now + ttlMs - Math.floor(ttlMs / 10);
}
