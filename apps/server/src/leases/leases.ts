import type { LeaseRequest } from '@switchboard/contracts';
import { ApiError } from '../errors.ts';
import type { Services } from '../services.ts';
import type { LeaseAcquireResult, LeaseRecord } from '../store/types.ts';

type Deps = Pick<Services, 'store' | 'clock' | 'config' | 'waiters'>;

/** Takes the account's lease for a host. Commands dispatched under an earlier epoch and never settled go to the new one. */
export async function acquireLease(services: Deps, accountId: string, request: LeaseRequest): Promise<LeaseAcquireResult> {
  const result = await services.store.acquireLease({ accountId, ...request }, services.clock.now(), services.config.leaseTtlMs);
  if (result.ok) services.waiters.wake(accountId);
  return result;
}

/** Extends the live lease by its TTL; null when `epoch` is not the live lease's. */
export function renewLease(services: Deps, accountId: string, epoch: number): Promise<LeaseRecord | null> {
  return services.store.renewLease(accountId, epoch, services.clock.now(), services.config.leaseTtlMs);
}

/** Ends the live lease; false when `epoch` is not the live lease's. An open dispatch poll answers at once. */
export async function releaseLease(services: Deps, accountId: string, epoch: number): Promise<boolean> {
  const released = await services.store.releaseLease(accountId, epoch, services.clock.now());
  if (released) services.waiters.wake(accountId);
  return released;
}

/** Whether `epoch` is the account's live lease: the fence on every write a host makes. */
export async function isLiveEpoch(services: Pick<Services, 'store' | 'clock'>, accountId: string, epoch: number): Promise<boolean> {
  const lease = await services.store.liveLease(accountId, services.clock.now());
  return lease !== null && lease.epoch === epoch;
}

/**
 * The 503 `no_live_connector` message. It says what to do, because a new account's first command
 * answers it: nothing executes commands until a connector host runs with the account's key.
 */
export const NO_LIVE_CONNECTOR = 'no connector host holds a live lease for this account; run one with a connector key of the account (an operator issues it: switchboard connector-keys create <account>)';

/** 409 `lease_lost`: the epoch is not the live lease's; `holderHostId` names the live lease's host, if one is known. */
export function leaseLost(holderHostId?: string): ApiError {
  return new ApiError('lease_lost', 'this epoch is not the live lease; acquire the lease again', holderHostId === undefined ? {} : { holderHostId });
}
