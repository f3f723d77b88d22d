import { describe, expect, it } from 'vitest';
import { isRetryable, parseRetryAfter, retryDelay, wasNotSent, defaultRetry, type RetryPath } from './retry.ts';
import { connectionRefused, connectionReset } from '../test/support/fetch.ts';

const paths: RetryPath[] = ['read', 'agent-turn', 'admin'];

describe('isRetryable: retry only where a retry cannot duplicate work', () => {
  it('retries a 429 on every path: the service did nothing and did not count it', () => {
    for (const path of paths) expect(isRetryable(path, { kind: 'response', status: 429, code: 'rate_limited' })).toBe(true);
  });

  it('retries a connection refused before sending on every path', () => {
    for (const path of paths) expect(isRetryable(path, { kind: 'network', sent: 'no' })).toBe(true);
  });

  it('retries a failure after sending on agent-turn and reads, never on admin', () => {
    expect(isRetryable('agent-turn', { kind: 'network', sent: 'maybe' })).toBe(true);
    expect(isRetryable('read', { kind: 'network', sent: 'maybe' })).toBe(true);
    expect(isRetryable('admin', { kind: 'network', sent: 'maybe' })).toBe(false);
  });

  it('retries a catalog 503 on admin (checked before the write) but not a 500 or a proxy 5xx', () => {
    expect(isRetryable('admin', { kind: 'response', status: 503, code: 'no_live_connector' })).toBe(true);
    expect(isRetryable('admin', { kind: 'response', status: 503, code: 'outbound_paused' })).toBe(true);
    expect(isRetryable('admin', { kind: 'response', status: 503, code: undefined })).toBe(false);
    expect(isRetryable('admin', { kind: 'response', status: 500, code: 'internal' })).toBe(false);
    expect(isRetryable('admin', { kind: 'response', status: 502, code: undefined })).toBe(false);
  });

  it('retries any 5xx on agent-turn: the Idempotency-Key makes a repeat adopted', () => {
    for (const status of [500, 502, 503, 504]) expect(isRetryable('agent-turn', { kind: 'response', status, code: undefined })).toBe(true);
  });

  it('never retries a 4xx other than 429', () => {
    for (const path of paths) {
      for (const [status, code] of [[400, 'body_not_object'], [401, 'unauthenticated'], [404, 'conversation_not_found'], [422, 'invalid_recipient_address']] as const) {
        expect(isRetryable(path, { kind: 'response', status, code })).toBe(false);
      }
    }
  });
});

describe('retryDelay', () => {
  it('backs off exponentially with full jitter, capped at maxDelayMs', () => {
    const options = { ...defaultRetry, baseDelayMs: 100, maxDelayMs: 1_000 };
    expect([0, 1, 2, 3, 4].map((n) => retryDelay(n, undefined, options, () => 0.999_999))).toEqual([99, 199, 399, 799, 999]);
    expect(retryDelay(3, undefined, options, () => 0)).toBe(0);
  });

  it('waits at least Retry-After, plus jitter of at most one base step', () => {
    const options = { ...defaultRetry, baseDelayMs: 500 };
    expect(retryDelay(0, 2_000, options, () => 0)).toBe(2_000);
    expect(retryDelay(0, 2_000, options, () => 0.5)).toBe(2_250);
  });

  it('gives up when Retry-After is longer than maxDelayMs', () => {
    expect(retryDelay(0, 31_000, defaultRetry, () => 0)).toBeUndefined();
  });
});

describe('parseRetryAfter', () => {
  it('reads delay-seconds and HTTP-dates', () => {
    expect(parseRetryAfter('5', 0)).toBe(5_000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:07 GMT', now)).toBe(7_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(null, 0)).toBeUndefined();
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
  });
});

describe('wasNotSent', () => {
  it('is true only for errors that prove no connection was made', () => {
    expect(wasNotSent(connectionRefused())).toBe(true);
    const happyEyeballs = new TypeError('fetch failed', {
      cause: Object.assign(new AggregateError([Object.assign(new Error('a'), { code: 'ECONNREFUSED' }), Object.assign(new Error('b'), { code: 'ECONNREFUSED' })]), { code: 'ECONNREFUSED' }),
    });
    expect(wasNotSent(happyEyeballs)).toBe(true);
    expect(wasNotSent(connectionReset())).toBe(false);
    // A browser's fetch says nothing about why it failed.
    expect(wasNotSent(new TypeError('Failed to fetch'))).toBe(false);
  });
});
