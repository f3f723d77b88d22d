import { adminSchemas, type AdminComponents } from '@switchboard/contracts';
import { iso } from '../clock.ts';
import { ApiError } from '../errors.ts';
import { isUuid } from '../ids.ts';
import { err, ok, type Result } from '../result.ts';
import type { AccountRecord, LeaseRecord } from '../store/types.ts';
import { audited, type Admin, type AdminDeps } from './audit.ts';
import { hostBody } from './hosts.ts';

type Schemas = AdminComponents['schemas'];

export function accountBody(a: AccountRecord): Schemas['Account'] {
  return { id: a.id, name: a.name, outboundPaused: a.outboundPaused, createdAt: iso(a.createdAt) };
}

function summary(deps: Pick<AdminDeps, 'clock' | 'config'>, a: AccountRecord, lease: LeaseRecord | undefined): Schemas['AccountSummary'] {
  return { ...accountBody(a), host: lease ? hostBody(deps, lease) : null };
}

/** The account with this id; an id that is not a UUID names none (404 `account_not_found` either way). */
export async function findAccountById(deps: Pick<AdminDeps, 'store'>, id: string): Promise<Result<AccountRecord, ApiError>> {
  const account = isUuid(id) ? await deps.store.getAccount(id.toLowerCase()) : null;
  return account ? ok(account) : err(new ApiError('account_not_found', 'no such account'));
}

/** Every account, oldest first, each with its lease (live or expired) as `host`. */
export async function listAccounts(deps: AdminDeps): Promise<Schemas['AccountList']> {
  const [accounts, leases] = await Promise.all([deps.store.listAccounts(), deps.store.listLeases()]);
  const byAccount = new Map(leases.map((l) => [l.accountId, l]));
  return { accounts: accounts.map((a) => summary(deps, a, byAccount.get(a.id))) };
}

export async function getAccount(deps: AdminDeps, id: string): Promise<Result<Schemas['AccountDetail'], ApiError>> {
  const found = await findAccountById(deps, id);
  if (!found.ok) return found;
  const [leases, pausedByAll, policies] = await Promise.all([deps.store.listLeases(), deps.store.outboundPausedForAll(), deps.store.getPolicies(found.value.id)]);
  return ok({ ...summary(deps, found.value, leases.find((l) => l.accountId === found.value.id)), pausedByAll, policies });
}

/** A new account; its name follows the spec's rule and is unique (409 `account_exists`). */
export function createAccount(admin: Admin, name: string): Promise<Result<Schemas['Account'], ApiError>> {
  return audited(admin, 'account.create', async () => {
    const checked = adminSchemas.zAccountCreate.safeParse({ name });
    if (!checked.success) return err(new ApiError('invalid_body', 'name: letters, digits, ".", "_" and "-", starting with a letter or digit, at most 64', { field: 'name' }));
    const exists = async () => (await admin.store.findAccount(name))?.name === name;
    if (await exists()) return err(new ApiError('account_exists', `an account named "${name}" exists`));
    try {
      return ok(accountBody(await admin.store.createAccount({ id: admin.ids.next(), name, createdAt: admin.clock.now() })));
    } catch (error) {
      // Another request took the name between the check and the write.
      if (await exists()) return err(new ApiError('account_exists', `an account named "${name}" exists`));
      throw error;
    }
  }, (a) => ({ accountId: a.id, subject: null, detail: { name: a.name } }));
}

/** Pauses or resumes one account's outbound sending; doing it twice changes nothing. */
export function setAccountPaused(admin: Admin, accountId: string, paused: boolean): Promise<Result<Schemas['Account'], ApiError>> {
  return audited(admin, paused ? 'account.pause' : 'account.resume', async () => {
    const found = await findAccountById(admin, accountId);
    if (!found.ok) return found;
    await admin.store.setOutboundPaused(found.value.id, paused);
    return ok(accountBody({ ...found.value, outboundPaused: paused }));
  }, (a) => ({ accountId: a.id, subject: null }));
}

/** Pauses or resumes every account's outbound sending; accounts paused one by one stay paused. */
export function setAllPaused(admin: Admin, paused: boolean): Promise<Result<Schemas['Outbound'], ApiError>> {
  return audited(admin, paused ? 'outbound.pause' : 'outbound.resume', async () => {
    await admin.store.setOutboundPaused(null, paused);
    return ok({ paused });
  }, () => ({ accountId: null, subject: null }));
}
