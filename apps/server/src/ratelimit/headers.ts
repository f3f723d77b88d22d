import { ApiError } from '../errors.ts';
import type { RateDecision } from './sliding-window.ts';
import type { RateLimiter } from './limiter.ts';

/** The policy names of the spec's "Abuse limits": commands, reads, failed authentication. */
export type Policy = 'default' | 'read' | 'auth';

/** `RateLimit-Policy` and `RateLimit` (IETF RateLimit header fields draft) for one decision. */
export function rateLimitHeaders(policy: Policy, limiter: RateLimiter, decision: Pick<RateDecision, 'remaining' | 'resetMs'>): Record<string, string> {
  return {
    'ratelimit-policy': `"${policy}";q=${limiter.limit};w=${Math.ceil(limiter.windowMs / 1000)}`,
    ratelimit: `"${policy}";r=${decision.remaining};t=${Math.ceil(decision.resetMs / 1000)}`,
  };
}

/** Whole seconds to wait, at least 1: a 429's `Retry-After` and `retryAfterSeconds`. */
export function retryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** The 429 `rate_limited` of any limit: `Retry-After` and `retryAfterSeconds` beside the limit's RateLimit headers. */
export function rateLimited(waitMs: number, headers: Record<string, string>, message: string): ApiError {
  const retryAfter = retryAfterSeconds(waitMs);
  return new ApiError('rate_limited', message, { retryAfterSeconds: retryAfter }, { ...headers, 'retry-after': String(retryAfter) });
}

/**
 * Counts one request of a credential against a limit: the RateLimit headers every answer past
 * this point carries, and the 429 when it is over the limit (a 429 is not counted).
 */
export async function countRequest(policy: Policy, limiter: RateLimiter, credentialId: string, now: number, what: string): Promise<{ headers: Record<string, string>; refused: ApiError | null }> {
  const decision = await limiter.take(credentialId, now);
  const headers = rateLimitHeaders(policy, limiter, decision);
  if (decision.allowed) return { headers, refused: null };
  return { headers, refused: rateLimited(decision.resetMs, headers, `more than ${decision.limit} ${what} in ${limiter.windowMs / 1000} seconds on this credential`) };
}
