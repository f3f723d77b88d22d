import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services.ts';
import type { CredentialKind } from '../store/types.ts';
import { checkCredential } from '../auth/check.ts';
import { countRequest } from '../ratelimit/headers.ts';
import { replyError } from './errors.ts';

/** Resolves the request's credential to an account, or answers 401 (or 429) and returns null. */
export async function authenticate(services: Services, request: FastifyRequest, reply: FastifyReply, kind: CredentialKind): Promise<string | null> {
  const check = await checkCredential(services, request.headers.authorization, kind, request.raw.socket);
  if (!check.ok) {
    replyError(reply, check.error);
    return null;
  }
  request.accountId = check.value.accountId;
  request.credentialId = check.value.id;
  return check.value.accountId;
}

/**
 * A public-API read: authentication, then the read limit per credential. Every answer past the
 * limit check carries its RateLimit headers; a 429 is not counted.
 */
export async function authenticateRead(services: Services, request: FastifyRequest, reply: FastifyReply): Promise<string | null> {
  const accountId = await authenticate(services, request, reply, 'account');
  if (!accountId || !services.readLimiter) return accountId;
  const { headers, refused } = await countRequest('read', services.readLimiter, request.credentialId!, services.clock.now(), 'reads');
  reply.headers(headers);
  if (!refused) return accountId;
  replyError(reply, refused);
  return null;
}
