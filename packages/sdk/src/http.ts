import type { Client } from 'openapi-fetch';
import type { paths } from '@switchboard/contracts';
import { linkedController, type Clock } from './clock.ts';
import { isErrorBody, SwitchboardError, SwitchboardNetworkError, UnexpectedResponseError } from './errors.ts';
import { isRetryable, parseRetryAfter, retryDelay, wasNotSent, type Failure, type RetryOptions, type RetryPath } from './retry.ts';

export type Api = Client<paths>;

/** What every request needs: the typed API client and the injectable time and randomness. */
export interface Context {
  api: Api;
  clock: Clock;
  random: () => number;
  retry: Required<RetryOptions>;
  timeoutMs: number;
}

type ApiResult<T> = { data?: T; error?: unknown; response: Response };
type Attempt<T> = { ok: true; data: T; response: Response } | { ok: false; error: Error; failure: Failure; retryAfterMs?: number | undefined };

/** Turns a non-2xx response into the error to throw and the facts the retry policy needs. */
export function responseFailure(response: Response, body: unknown, now: number): { error: Error; failure: Failure; retryAfterMs: number | undefined } {
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), now);
  if (isErrorBody(body)) {
    const error = new SwitchboardError(response.status, body, response.headers.get('x-request-id') ?? undefined, retryAfterMs);
    return { error, failure: { kind: 'response', status: response.status, code: body.error }, retryAfterMs };
  }
  return { error: new UnexpectedResponseError(response.status, body), failure: { kind: 'response', status: response.status, code: undefined }, retryAfterMs };
}

async function attempt<T>(ctx: Context, run: (signal: AbortSignal) => Promise<ApiResult<T>>, signal: AbortSignal | undefined): Promise<Attempt<T>> {
  const controller = linkedController(signal);
  let timedOut = false;
  void ctx.clock.sleep(ctx.timeoutMs, controller.signal).then(
    () => {
      timedOut = true;
      controller.abort(new SwitchboardNetworkError('timeout', undefined));
    },
    () => undefined,
  );
  try {
    const { data, error, response } = await run(controller.signal);
    if (response.ok) {
      // Every operation of the spec answers 2xx with a body; an empty one is not the service's.
      if (data === undefined) return { ok: false, error: new UnexpectedResponseError(response.status, undefined), failure: { kind: 'response', status: response.status, code: undefined } };
      return { ok: true, data, response };
    }
    return { ok: false, ...responseFailure(response, error, ctx.clock.now()) };
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (timedOut) return { ok: false, error: new SwitchboardNetworkError('timeout', error), failure: { kind: 'network', sent: 'maybe' } };
    const notSent = wasNotSent(error);
    return { ok: false, error: new SwitchboardNetworkError(notSent ? 'refused' : 'failed', error), failure: { kind: 'network', sent: notSent ? 'no' : 'maybe' } };
  } finally {
    controller.abort();
  }
}

/**
 * Runs one API call, retrying it as the routing path allows (see retry.ts), or as `path` decides
 * when it is a function. `run` is called again for each attempt, so each one sends a fresh
 * request with the same headers, including the same Idempotency-Key.
 */
export async function call<T>(ctx: Context, path: RetryPath | ((failure: Failure) => boolean), run: (signal: AbortSignal) => Promise<ApiResult<T>>, signal?: AbortSignal): Promise<{ data: T; response: Response }> {
  for (let retry = 0; ; retry++) {
    const outcome = await attempt(ctx, run, signal);
    if (outcome.ok) return outcome;
    if (retry >= ctx.retry.maxRetries || !(typeof path === 'function' ? path(outcome.failure) : isRetryable(path, outcome.failure))) throw outcome.error;
    const delay = retryDelay(retry, outcome.retryAfterMs, ctx.retry, ctx.random);
    if (delay === undefined) throw outcome.error;
    await ctx.clock.sleep(delay, signal);
  }
}
