import type { RateDecision } from './sliding-window.ts';
import type { RateLimiter } from './limiter.ts';

/** The policy names of the spec's "Abuse limits": commands, reads, failed authentication. */
export type Policy = 'default' | 'read' | 'auth';

/** `RateLimit-Policy` and `RateLimit` (IETF RateLimit header fields draft) for one decision. */
export function rateLimitHeaders(policy: Policy, limiter: RateLimiter, decision: Pick<RateDecision, 'remaining' | 'resetMs'>): [string, string] {
  return [
    `"${policy}";q=${limiter.limit};w=${Math.ceil(limiter.windowMs / 1000)}`,
    `"${policy}";r=${decision.remaining};t=${Math.ceil(decision.resetMs / 1000)}`,
  ];
}

/** Whole seconds to wait, at least 1: a 429's `Retry-After` and `retryAfterSeconds`. */
export function retryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
