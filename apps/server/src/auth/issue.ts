import { createIdSource, type IdSource } from '../ids.ts';
import type { CredentialKind, CredentialRecord, Store } from '../store/types.ts';
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
