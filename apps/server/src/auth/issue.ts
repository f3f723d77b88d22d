import { createIdSource, type IdSource } from '../ids.ts';
import type { CredentialKind, CredentialRecord, OperatorKeyRecord, OperatorRole, Store } from '../store/types.ts';
import { newSecret } from './keys.ts';

/** Creates a credential and returns its secret: the only time the secret exists outside the caller. */
export async function issueCredential(
  store: Store,
  accountId: string,
  kind: CredentialKind,
  label: string,
  now: number,
  ids: IdSource = createIdSource(),
): Promise<{ secret: string; credential: CredentialRecord }> {
  const { secret, hash, prefix } = newSecret(kind);
  const credential = await store.createCredential({ id: ids.next(), accountId, kind, hash, prefix, label, createdAt: now });
  return { secret, credential };
}

/** Creates an operator key and returns its secret, as issueCredential does for an account's keys. */
export async function issueOperatorKey(
  store: Store,
  role: OperatorRole,
  label: string,
  now: number,
  ids: IdSource = createIdSource(),
): Promise<{ secret: string; key: OperatorKeyRecord }> {
  const { secret, hash, prefix } = newSecret('operator');
  const key = await store.createOperatorKey({ id: ids.next(), role, hash, prefix, label, createdAt: now });
  return { secret, key };
}
