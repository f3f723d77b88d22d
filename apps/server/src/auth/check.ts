import type { Socket } from 'node:net';
import type { Services } from '../services.ts';
import type { CredentialKind, CredentialRecord, OperatorKeyRecord } from '../store/types.ts';
import { ApiError } from '../errors.ts';
import { rateLimited, rateLimitHeaders } from '../ratelimit/headers.ts';
import type { RateLimiter } from '../ratelimit/limiter.ts';
import { keyHash } from './keys.ts';
import { err, ok, type Result } from '../result.ts';

export type CredentialCheck = Result<CredentialRecord, ApiError>;
type Deps = Pick<Services, 'store' | 'clock' | 'authFailures'>;

/**
 * `Authorization: Bearer <key>` checked against the live credentials of `kind` (account keys open
 * the public API only, connector keys the connector protocol only), with the spec's limit on
 * failed authentication per client address: an address over it is refused before the key is
 * looked up, so a guess teaches nothing. No credential at all is never counted: always 401.
 */
export function checkCredential(services: Deps, header: string | undefined, kind: CredentialKind, connection: Socket): Promise<CredentialCheck> {
  // The connector protocol is exempt (specs/openapi/connector.yaml): a host must never be locked out.
  const authFailures = kind === 'account' ? services.authFailures : null;
  return checkKey(services, authFailures, header, connection, 'API_KEY', async (hash) => {
    const credential = await services.store.findCredentialByHash(hash);
    return credential && credential.kind === kind ? credential : null;
  });
}

/**
 * A live operator key, checked as an account key is (the same limit per address: an operator key
 * opens every account). Account and connector keys are not operator keys: 401 like any other.
 */
export function checkOperatorKey(services: Deps, header: string | undefined, connection: Socket): Promise<Result<OperatorKeyRecord, ApiError>> {
  return checkKey(services, services.authFailures, header, connection, 'OPERATOR_KEY', (hash) => services.store.findOperatorKeyByHash(hash));
}

async function checkKey<T>(
  services: Deps,
  authFailures: RateLimiter | null,
  header: string | undefined,
  connection: Socket,
  placeholder: string,
  find: (hash: Buffer) => Promise<T | null>,
): Promise<Result<T, ApiError>> {
  const hash = keyHash(header, connection);
  if (!hash) return err(new ApiError('unauthenticated', `send Authorization: Bearer <${placeholder}>`));
  const now = services.clock.now();
  const address = connection.remoteAddress ?? '';
  if (authFailures) {
    const waitMs = await authFailures.waitMs(address, now);
    if (waitMs > 0) {
      const headers = rateLimitHeaders('auth', authFailures, { remaining: 0, resetMs: waitMs });
      return err(rateLimited(waitMs, headers, 'too many failed authentications from this address'));
    }
  }
  const found = await find(hash);
  if (found) return ok(found);
  await authFailures?.take(address, now);
  return err(new ApiError('unauthenticated', 'the credential is not known'));
}
