import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services.ts';
import type { CredentialKind, CredentialRecord } from '../store/types.ts';
import { bearerToken, hashSecret } from '../auth/keys.ts';
import { rateLimitHeaders, retryAfterSeconds } from '../ratelimit/headers.ts';
import { sendError } from './errors.ts';

export type CredentialCheck =
  | { ok: true; credential: CredentialRecord }
  | { ok: false; status: 401; message: string }
  | { ok: false; status: 429; retryAfter: number; headers: [string, string] };

/**
 * `Authorization: Bearer <key>` checked against the live credentials of `kind` (account keys open
 * the public API only, connector keys the connector protocol only), with the spec's limit on
 * failed authentication per client address: an address over it is refused before the key is
 * looked up, so a guess teaches nothing. No credential at all is never counted: always 401.
 */
export async function checkCredential(services: Services, header: string | undefined, kind: CredentialKind, address: string | undefined): Promise<CredentialCheck> {
  const token = bearerToken(header);
  if (!token) return { ok: false, status: 401, message: 'send Authorization: Bearer <API_KEY>' };
  // The connector protocol is exempt (specs/openapi/connector.yaml): a host must never be locked out.
  const authFailures = kind === 'account' ? services.authFailures : null;
  const { clock } = services;
  const now = clock.now();
  const key = address ?? '';
  if (authFailures) {
    const waitMs = await authFailures.waitMs(key, now);
    if (waitMs > 0) return { ok: false, status: 429, retryAfter: retryAfterSeconds(waitMs), headers: rateLimitHeaders('auth', authFailures, { remaining: 0, resetMs: waitMs }) };
  }
  const credential = await services.store.findCredentialByHash(hashSecret(token));
  if (credential && credential.kind === kind) return { ok: true, credential };
  await authFailures?.take(key, now);
  return { ok: false, status: 401, message: 'the credential is not known' };
}

/** Resolves the request's credential to an account, or answers 401 (or 429) and returns null. */
export async function authenticate(
  services: Services,
  request: FastifyRequest,
  reply: FastifyReply,
  kind: CredentialKind,
): Promise<string | null> {
  const check = await checkCredential(services, request.headers.authorization, kind, request.raw.socket.remoteAddress);
  if (!check.ok) {
    if (check.status === 401) sendError(reply, 401, 'unauthenticated', check.message);
    else sendLimited(reply, check.retryAfter, check.headers, 'too many failed authentications from this address');
    return null;
  }
  request.accountId = check.credential.accountId;
  request.credentialId = check.credential.id;
  return check.credential.accountId;
}

/**
 * A public-API read: authentication, then the read limit per credential. Every answer past the
 * limit check carries its RateLimit headers; a 429 is not counted.
 */
export async function authenticateRead(services: Services, request: FastifyRequest, reply: FastifyReply): Promise<string | null> {
  const accountId = await authenticate(services, request, reply, 'account');
  if (!accountId || !services.readLimiter) return accountId;
  const limiter = services.readLimiter;
  const decision = await limiter.take(request.credentialId!, services.clock.now());
  const headers = rateLimitHeaders('read', limiter, decision);
  reply.header('ratelimit-policy', headers[0]).header('ratelimit', headers[1]);
  if (decision.allowed) return accountId;
  sendLimited(reply, retryAfterSeconds(decision.resetMs), headers, `more than ${limiter.limit} reads in ${limiter.windowMs / 1000} seconds on this credential`);
  return null;
}

function sendLimited(reply: FastifyReply, retryAfter: number, headers: [string, string], message: string): void {
  reply.header('retry-after', String(retryAfter)).header('ratelimit-policy', headers[0]).header('ratelimit', headers[1]);
  sendError(reply, 429, 'rate_limited', message, { retryAfterSeconds: retryAfter });
}
