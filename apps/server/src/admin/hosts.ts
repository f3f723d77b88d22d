import type { AdminComponents } from '@switchboard/contracts';
import { iso } from '../clock.ts';
import type { LeaseRecord } from '../store/types.ts';
import type { AdminDeps } from './audit.ts';

/**
 * A lease as the admin API shows it. The store keeps no renewal time: every renewal sets the
 * expiry one TTL ahead, so the last one was a TTL before it (never before the lease was taken).
 */
export function hostBody(deps: Pick<AdminDeps, 'clock' | 'config'>, lease: LeaseRecord): AdminComponents['schemas']['Host'] {
  return {
    accountId: lease.accountId,
    hostId: lease.hostId,
    epoch: lease.epoch,
    osMajorVersion: lease.osMajorVersion,
    capabilities: lease.capabilities,
    acquiredAt: iso(lease.acquiredAt),
    renewedAt: iso(Math.max(lease.acquiredAt, lease.expiresAt - deps.config.leaseTtlMs)),
    expiresAt: iso(lease.expiresAt),
    live: lease.expiresAt > deps.clock.now(),
  };
}

/** Every account's lease, and the host that holds or held it. */
export async function listHosts(deps: AdminDeps): Promise<AdminComponents['schemas']['HostList']> {
  return { hosts: (await deps.store.listLeases()).map((lease) => hostBody(deps, lease)) };
}
