/**
 * When a failed request may be sent again. The rule: retry only where a retry cannot duplicate
 * work.
 *
 * - `read` (GET): no side effects, so any network failure, 429 or 5xx.
 * - `agent-turn` (message.send to a conversation, reaction.tapback, reaction.apply,
 *   name_photo.share): every attempt carries the same Idempotency-Key, and the service adopts a
 *   repeat instead of doing the work again, so any network failure, 429 or 5xx.
 * - `admin` (message.send to a recipient, group.create, group.update, group.leave): the service
 *   ignores Idempotency-Key there, so a retry after the service may have acted creates a second
 *   group or sends a second message. Retried only when the service provably did nothing: the
 *   connection was refused before the request went out, a 429 (nothing is written: the rate limit
 *   is checked before the envelope and is not even counted, and a line policy refuses before the
 *   write), or a 503 whose body carries the catalog's
 *   `no_live_connector` / `outbound_paused` (checked before the command is written). Never after
 *   a timeout, a dropped connection, a 500 (the service's catch-all answers `internal` too, even
 *   when the failure came after the write) or a 5xx that is not the service's own (a proxy's).
 */
import type { ErrorCode } from '@switchboard/contracts';

export type RetryPath = 'read' | 'agent-turn' | 'admin';

export type Failure =
  | { kind: 'network'; sent: 'no' | 'maybe' }
  | { kind: 'response'; status: number; code: ErrorCode | undefined };

export interface RetryOptions {
  /** Retries after the first attempt. Default 2; 0 turns retries off. */
  maxRetries?: number | undefined;
  /** The first backoff step. Default 500 ms. */
  baseDelayMs?: number | undefined;
  /** No single wait is longer; a Retry-After beyond it is not waited for. Default 30 s. */
  maxDelayMs?: number | undefined;
}

export const defaultRetry: Required<RetryOptions> = { maxRetries: 2, baseDelayMs: 500, maxDelayMs: 30_000 };

const NOTHING_WRITTEN: ReadonlySet<ErrorCode> = new Set(['no_live_connector', 'outbound_paused']);

export function isRetryable(path: RetryPath, failure: Failure): boolean {
  if (failure.kind === 'network') return path !== 'admin' || failure.sent === 'no';
  const { status, code } = failure;
  if (status === 429) return true;
  if (path === 'admin') return status === 503 && code !== undefined && NOTHING_WRITTEN.has(code);
  return status >= 500 && status <= 599;
}

/**
 * The wait before retry number `retry` (0-based): `Retry-After` when the service sent one, plus
 * a little jitter so clients told the same second do not return in step; otherwise exponential
 * backoff with full jitter. `undefined` when the service asks for longer than `maxDelayMs`.
 */
export function retryDelay(retry: number, retryAfterMs: number | undefined, options: Required<RetryOptions>, random: () => number): number | undefined {
  if (retryAfterMs !== undefined) {
    if (retryAfterMs > options.maxDelayMs) return undefined;
    return retryAfterMs + Math.floor(random() * Math.min(options.baseDelayMs, options.maxDelayMs - retryAfterMs));
  }
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** retry);
  return Math.floor(random() * ceiling);
}

/** `Retry-After` in ms: delay-seconds or an HTTP-date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

// Error codes of runtimes whose fetch reports why a connection failed (undici in Node, Bun).
// Each means no connection was made, so the request never left the client.
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT', 'ConnectionRefused']);

function codesOf(error: unknown, depth = 0): string[] {
  if (typeof error !== 'object' || error === null || depth > 4) return [];
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  const own = typeof code === 'string' ? [code] : [];
  const nested = Array.isArray(errors) ? errors.flatMap((e) => codesOf(e, depth + 1)) : [];
  return [...own, ...nested, ...codesOf(cause, depth + 1)];
}

/**
 * Whether a fetch failure proves the request was never sent. Browsers say nothing about why
 * fetch failed, so there the answer is always "maybe sent".
 */
export function wasNotSent(error: unknown): boolean {
  const codes = codesOf(error);
  return codes.length > 0 && codes.every((c) => NOT_SENT.has(c));
}
