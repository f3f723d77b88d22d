import type { AdminComponents } from '@switchboard/contracts';
import { issueCredential, issueOperatorKey } from '../auth/issue.ts';
import { iso } from '../clock.ts';
import { ApiError } from '../errors.ts';
import { isUuid } from '../ids.ts';
import { err, ok, type Result } from '../result.ts';
import type { CredentialKind, CredentialRecord, OperatorKeyRecord, OperatorRole } from '../store/types.ts';
import { findAccountById } from './accounts.ts';
import { audited, type Admin, type AdminDeps } from './audit.ts';

type Schemas = AdminComponents['schemas'];

const keyNotFound = () => new ApiError('key_not_found', 'no such key');

export function keyBody(c: CredentialRecord): Schemas['Key'] {
  return { id: c.id, accountId: c.accountId, kind: c.kind, prefix: c.prefix, label: c.label, createdAt: iso(c.createdAt), revokedAt: c.revokedAt === null ? null : iso(c.revokedAt) };
}

export function operatorKeyBody(k: OperatorKeyRecord): Schemas['OperatorKey'] {
  return { id: k.id, role: k.role, prefix: k.prefix, label: k.label, createdAt: iso(k.createdAt), revokedAt: k.revokedAt === null ? null : iso(k.revokedAt) };
}

/** The account's API and connector keys, revoked ones included, oldest first; never their secrets. */
export async function listKeys(deps: AdminDeps, accountId: string): Promise<Result<Schemas['KeyList'], ApiError>> {
  const found = await findAccountById(deps, accountId);
  if (!found.ok) return found;
  return ok({ keys: (await deps.store.listCredentials(found.value.id)).map(keyBody) });
}

/** A new API key (`account`) or connector key for the account, with its secret: the one time it is shown. */
export function createKey(admin: Admin, accountId: string, kind: CredentialKind, label = ''): Promise<Result<Schemas['KeyWithSecret'], ApiError>> {
  return audited(admin, 'key.create', async () => {
    const found = await findAccountById(admin, accountId);
    if (!found.ok) return found;
    const { secret, credential } = await issueCredential(admin.store, found.value.id, kind, label, admin.clock.now(), admin.ids);
    return ok({ ...keyBody(credential), secret });
  }, (k) => ({ accountId: k.accountId, subject: k.id, detail: { kind: k.kind, label: k.label, prefix: k.prefix } }));
}

/** Revokes an API or connector key at once; revoking a revoked key changes nothing. */
export function revokeKey(admin: Admin, keyId: string): Promise<Result<Schemas['Key'], ApiError>> {
  return audited(admin, 'key.revoke', async () => {
    const revoked = isUuid(keyId) ? await admin.store.revokeCredential(keyId.toLowerCase(), admin.clock.now()) : null;
    return revoked ? ok(keyBody(revoked)) : err(keyNotFound());
  }, (k) => ({ accountId: k.accountId, subject: k.id, detail: { kind: k.kind } }));
}

export async function listOperatorKeys(deps: AdminDeps): Promise<Schemas['OperatorKeyList']> {
  return { keys: (await deps.store.listOperatorKeys()).map(operatorKeyBody) };
}

/** A new operator key, with its secret: the one time it is shown. */
export function createOperatorKey(admin: Admin, role: OperatorRole = 'full', label = ''): Promise<Result<Schemas['OperatorKeyWithSecret'], ApiError>> {
  return audited(admin, 'operator_key.create', async () => {
    const { secret, key } = await issueOperatorKey(admin.store, role, label, admin.clock.now(), admin.ids);
    return ok({ ...operatorKeyBody(key), secret });
  }, (k) => ({ accountId: null, subject: k.id, detail: { role: k.role, label: k.label, prefix: k.prefix } }));
}

/** Revokes an operator key at once (a key may revoke itself). */
export function revokeOperatorKey(admin: Admin, keyId: string): Promise<Result<Schemas['OperatorKey'], ApiError>> {
  return audited(admin, 'operator_key.revoke', async () => {
    const revoked = isUuid(keyId) ? await admin.store.revokeOperatorKey(keyId.toLowerCase(), admin.clock.now()) : null;
    return revoked ? ok(operatorKeyBody(revoked)) : err(keyNotFound());
  }, (k) => ({ accountId: null, subject: k.id }));
}
