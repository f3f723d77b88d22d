import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services.ts';
import type { CredentialKind } from '../store/types.ts';
import { bearerToken, hashSecret } from '../auth/keys.ts';
import { sendError } from './errors.ts';

/**
 * Resolves `Authorization: Bearer <key>` to an account, or answers 401 and returns null. Account
 * keys open the public API only and connector keys the connector protocol only.
 */
/** The credential a `Bearer` header names, if it is a live one of `kind`; null otherwise. */
export async function credentialFor(services: Services, header: string | undefined, kind: CredentialKind) {
  const token = bearerToken(header);
  const credential = token ? await services.store.findCredentialByHash(hashSecret(token)) : null;
  return { token, credential: credential && credential.kind === kind ? credential : null };
}

export async function authenticate(
  services: Services,
  request: FastifyRequest,
  reply: FastifyReply,
  kind: CredentialKind,
): Promise<string | null> {
  const { token, credential } = await credentialFor(services, request.headers.authorization, kind);
  if (!credential) {
    const message = token ? 'the credential is not known' : 'send Authorization: Bearer <API_KEY>';
    sendError(reply, 401, 'unauthenticated', message);
    return null;
  }
  request.accountId = credential.accountId;
  request.credentialId = credential.id;
  return credential.accountId;
}
