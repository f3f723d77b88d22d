import type { Socket } from 'node:net';
import type { Services } from '../services.ts';
import type { CredentialKind, CredentialRecord } from '../store/types.ts';
import { ApiError } from '../errors.ts';
import { rateLimited, rateLimitHeaders } from '../ratelimit/headers.ts';
import { keyHash } from './keys.ts';
import { err, ok, type Result } from '../result.ts';

export type CredentialCheck = Result<CredentialRecord, ApiError>;

/**
 * `Authorization: Bearer <key>` checked against the live credentials of `kind` (account keys open
 * the public API only, connector keys the connector protocol only), with the spec's limit on
 * failed authentication per client address: an address over it is refused before the key is
 * looked up, so a guess teaches nothing. No credential at all is never counted: always 401.
 */
export async function checkCredential(
  services: Pick<Services, 'store' | 'clock' | 'authFailures'>,
  header: string | undefined,
  kind: CredentialKind,
  connection: Socket,
): Promise<CredentialCheck> {
  const hash = keyHash(header, connection);
  if (!hash) return err(new ApiError('unauthenticated', 'send Authorization: Bearer <API_KEY>'));
  // The connector protocol is exempt (specs/openapi/connector.yaml): a host must never be locked out.
  const authFailures = kind === 'account' ? services.authFailures : null;
  const now = services.clock.now();
  const key = connection.remoteAddress ?? '';
  if (authFailures) {
    const waitMs = await authFailures.waitMs(key, now);
    if (waitMs > 0) {
      const headers = rateLimitHeaders('auth', authFailures, { remaining: 0, resetMs: waitMs });
      return err(rateLimited(waitMs, headers, 'too many failed authentications from this address'));
    }
  }
  const credential = await services.store.findCredentialByHash(hash);
  if (credential && credential.kind === kind) return ok(credential);
  await authFailures?.take(key, now);
  return err(new ApiError('unauthenticated', 'the credential is not known'));
}
