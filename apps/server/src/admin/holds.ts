import type { AdminComponents } from '@switchboard/contracts';
import { ApiError } from '../errors.ts';
import { isUuid } from '../ids.ts';
import { iso } from '../clock.ts';
import { err, ok, type Result } from '../result.ts';
import type { CommandRecord, HoldRefusal, HoldStore } from '../store/types.ts';
import { quietState } from '../store/rules/policies.ts';
import { settledData } from '../commands/settle.ts';
import type { Metrics } from '../metrics.ts';
import type { DispatchWaiters } from '../leases/dispatch-waiters.ts';
import { findAccountById } from './accounts.ts';
import { audited, type Admin, type AdminDeps } from './audit.ts';
import { getCommandDetail } from './commands.ts';

type Schemas = AdminComponents['schemas'];

/** Where a server runs: what a release or rejection wakes and counts (absent for the CLI on the store). */
export interface HoldDeps {
  waiters?: Pick<DispatchWaiters, 'wake'> | undefined;
  metrics?: Pick<Metrics, 'linePolicies'> | undefined;
}

function refused(refusal: HoldRefusal): ApiError {
  return refusal === 'not_found'
    ? new ApiError('command_not_found', 'no such command (or retention dropped it)')
    : new ApiError('command_not_held', 'the command is not held: a line policy never held it, or it was released or rejected already');
}

/** Ends a hold through the store, then wakes, counts and answers the command with its timeline. */
async function endHold(
  admin: Admin & HoldDeps,
  action: 'command.release' | 'command.reject',
  commandId: string,
  change: (id: string) => Promise<Result<CommandRecord, HoldRefusal>>,
  heldBy: (before: CommandRecord) => string,
): Promise<Result<Schemas['CommandDetail'], ApiError>> {
  let before: CommandRecord | null = null;
  return audited(admin, action, async () => {
    before = isUuid(commandId) ? await admin.store.findCommand(commandId.toLowerCase()) : null;
    if (!before) return err(refused('not_found'));
    const result = await change(before.id);
    if (!result.ok) return err(refused(result.error));
    const after = result.value;
    admin.hub?.notify(after.accountId);
    if (after.status === 'queued') admin.waiters?.wake(after.accountId);
    const outcome = action === 'command.reject' ? 'rejected' : after.status === 'queued' ? 'released' : 'held';
    admin.metrics?.linePolicies.inc({ policy: outcome === 'held' ? 'quietHours' : heldBy(before), outcome });
    return getCommandDetail(admin, after.id);
  }, (detail) => ({ accountId: detail.command.accountId, subject: detail.command.commandId, detail: { heldBy: before?.heldBy ?? null, status: detail.command.status } }));
}

/** An operator's release of a held command (specs: adminReleaseCommand). */
export function releaseCommand(admin: Admin & HoldDeps, commandId: string): Promise<Result<Schemas['CommandDetail'], ApiError>> {
  return endHold(admin, 'command.release', commandId, (id) => admin.store.releaseHeld(id, admin.clock.now()), (c) => c.heldBy!);
}

/** An operator's rejection of a held command (specs: adminRejectCommand): it settles `failed`. */
export function rejectCommand(admin: Admin & HoldDeps, commandId: string, reason: string | null): Promise<Result<Schemas['CommandDetail'], ApiError>> {
  const message = reason?.trim() ? `rejected by an operator: ${reason.trim()}` : 'rejected by an operator';
  return endHold(admin, 'command.reject', commandId, (id) => admin.store.rejectHeld(id, message, admin.clock.now(), settledData), (c) => c.heldBy!);
}

/** Where the account stands against its policies (specs: adminGetPolicyUsage). */
export async function policyUsage(deps: Pick<AdminDeps, 'store' | 'clock'> & { store: HoldStore }, accountId: string, conversationId: string | null): Promise<Result<Schemas['PolicyUsage'], ApiError>> {
  const found = await findAccountById(deps, accountId);
  if (!found.ok) return found;
  const now = deps.clock.now();
  const [policies, counts] = await Promise.all([
    deps.store.getPolicies(found.value.id),
    deps.store.policyCounts(found.value.id, conversationId === null ? null : conversationId.toLowerCase(), now),
  ]);
  const quiet = policies.quietHours ? quietState(policies.quietHours, policies.quietHours.timeZone, now) : { quiet: false, opensAt: null };
  return ok({
    newContacts: { lastHour: counts.firstContactsLastHour, lastDay: counts.firstContactsLastDay },
    quietHours: { quiet: quiet.quiet, opensAt: quiet.opensAt === null ? null : iso(quiet.opensAt) },
    held: counts.held,
    ...(counts.conversation && conversationId !== null ? { conversation: { conversationId: conversationId.toLowerCase(), ...counts.conversation } } : {}),
  });
}
