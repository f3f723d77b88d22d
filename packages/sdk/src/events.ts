import { isEventId } from '@switchboard/contracts/catalog';
import { linkedController, type Clock } from './clock.ts';
import { SwitchboardError, UnexpectedResponseError } from './errors.ts';
import { responseFailure, type Context } from './http.ts';
import { retryDelay } from './retry.ts';
import { SseParser, type SseMessage } from './sse.ts';
import type { OptInEvent, OptInEventType, StreamEvent, StreamEventType, StreamItem, StreamReset } from './types.ts';

export interface EventsOptions<I extends OptInEventType = never> {
  /**
   * Start after this event id. `'0'` (the default) is the start of the retained log; `'now'` is
   * the stream's head when the iteration starts: only events from then on arrive.
   */
  after?: string | undefined;
  /** Aborting ends the iteration (no error) and closes the connection. */
  signal?: AbortSignal | undefined;
  /**
   * Reconnect when nothing, not even a heartbeat, arrived for this long. The service sends a
   * heartbeat every 10 s; the default of 45 s tolerates three lost ones.
   */
  idleTimeoutMs?: number | undefined;
  /**
   * Opt-in event types to yield as well, e.g. `['poll.voted']`; the yielded type grows
   * by exactly these. Without it they are skipped like any type this SDK does not know.
   */
  include?: readonly I[] | undefined;
}

// The event types this SDK knows, checked against the contracts at compile time. A newer service
// may add types; they are skipped (the cursor still moves past them) so an exhaustive `switch`
// in the caller's code stays exhaustive.
const known = {
  'command.settled': true,
  'conversation.appeared': true,
  'message.received': true,
  'message.sent': true,
  'group.renamed': true,
  'group.participants_changed': true,
} satisfies Record<StreamEventType, true>;

/** Statuses that reconnecting cannot fix: the request itself is wrong or unauthorised. */
function isFatal(status: number): boolean {
  return status >= 400 && status < 500 && status !== 408 && status !== 429;
}

function isAfter(id: string, cursor: string): boolean {
  return BigInt(id) > BigInt(cursor);
}

const IDLE = Symbol('idle');

async function readWithin(reader: ReadableStreamDefaultReader<Uint8Array>, ms: number, clock: Clock): Promise<Uint8Array | undefined> {
  const timer = new AbortController();
  try {
    const result = await Promise.race([reader.read(), clock.sleep(ms, timer.signal).then((): typeof IDLE => IDLE, (): typeof IDLE => IDLE)]);
    if (result === IDLE || result.done) return undefined;
    return result.value;
  } finally {
    timer.abort();
  }
}

/** An event id as the stream must carry it; anything else is not the service's stream. */
function eventId(value: unknown, message: SseMessage): string {
  if (typeof value === 'string' && isEventId(value)) return value;
  throw new UnexpectedResponseError(200, `event ${message.event} has no valid id: ${JSON.stringify(value)}`);
}

function parseJson(message: SseMessage): unknown {
  try {
    return JSON.parse(message.data);
  } catch {
    throw new UnexpectedResponseError(200, `event ${message.id || message.event} has data that is not JSON: ${message.data}`);
  }
}

/** The stream's current head as a cursor, or how asking for it failed. */
async function headCursor(ctx: Context, signal: AbortSignal): Promise<{ ok: true; cursor: string } | { ok: false; status: number; error: Error; retryAfterMs: number | undefined }> {
  const { data, error, response } = await ctx.api.GET('/v1/events', { params: { query: { after: 'now', limit: 1 } }, headers: { accept: 'application/json' }, parseAs: 'json', signal });
  if (response.ok && typeof data === 'object') return { ok: true, cursor: data.nextAfter };
  const failed = responseFailure(response, error, ctx.clock.now());
  return { ok: false, status: response.status, error: failed.error, retryAfterMs: failed.retryAfterMs };
}

/**
 * The response stream as an async iterator. Reconnects after any drop with `Last-Event-ID` set to
 * the last event it yielded, so each event arrives once, in order; a half-received event is
 * discarded with its connection and arrives whole after the reconnect. Heartbeats keep the idle
 * timer alive and are not yielded. Throws only what reconnecting cannot fix (a 4xx such as
 * `unauthenticated`) or a malformed event.
 */
export async function* streamEvents<I extends OptInEventType = never>(ctx: Context, options: EventsOptions<I> = {}): AsyncGenerator<StreamItem | OptInEvent<I>, void, undefined> {
  const { signal } = options;
  // The type allows only OptInEventType: the opted-in types are exactly those this SDK types.
  const included = new Set<string>(options.include);
  let cursor = options.after ?? '0';
  if (cursor !== 'now' && !isEventId(cursor)) throw new TypeError(`after must be an event id (decimal digits) or "now", got "${cursor}"`);
  const idleMs = options.idleTimeoutMs ?? 45_000;
  let failures = 0;
  let serverRetryMs: number | undefined;

  while (!signal?.aborted) {
    const connection = linkedController(signal);
    let healthy = false;
    let retryAfterMs: number | undefined;
    try {
      // "now" becomes the head's cursor once, so a reconnect resumes from it and loses nothing.
      const head = cursor === 'now' ? await headCursor(ctx, connection.signal) : undefined;
      if (head && !head.ok) {
        if (isFatal(head.status)) throw head.error;
        retryAfterMs = head.retryAfterMs;
      } else {
        if (head) cursor = head.cursor;
        const { data: body, error, response } = await ctx.api.GET('/v1/events', {
          parseAs: 'stream',
          params: { header: { 'Last-Event-ID': cursor } },
          headers: { accept: 'text/event-stream' },
          signal: connection.signal,
        });
        if (!response.ok || !body) {
          const failed = responseFailure(response, error, ctx.clock.now());
          if (isFatal(response.status)) throw failed.error;
          retryAfterMs = failed.retryAfterMs;
        } else if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
          // Something between here and the service answered in its own way; reconnecting would
          // get the same answer.
          throw new UnexpectedResponseError(response.status, `expected text/event-stream, got ${response.headers.get('content-type')}`);
        } else {
          const reader = body.getReader();
          const decoder = new TextDecoder();
          const parser = new SseParser();
          try {
            for (;;) {
              const chunk = await readWithin(reader, idleMs, ctx.clock);
              // An abort ends the stream even when the body goes on delivering what was under way.
              if (chunk === undefined || signal?.aborted) break;
              healthy = true;
              for (const message of parser.feed(decoder.decode(chunk, { stream: true }))) {
                if (message.event === 'reset') {
                  const reset = parseJson(message) as StreamReset;
                  // The service continues from the oldest retained event; resuming from just before
                  // it keeps a reconnect from announcing the same reset again.
                  cursor = (BigInt(eventId(reset.oldestId, message)) - 1n).toString();
                  yield { type: 'reset', data: reset };
                  continue;
                }
                const event = parseJson(message) as StreamEvent;
                const id = eventId(message.id || event.id, message);
                // Exactly once even if a proxy replays part of the stream.
                if (!isAfter(id, cursor)) continue;
                cursor = id;
                if (Object.hasOwn(known, event.type) || included.has(event.type)) yield event as StreamEvent | OptInEvent<I>;
              }
              if (parser.retry !== undefined) serverRetryMs = parser.retry;
            }
          } finally {
            reader.cancel().catch(() => undefined);
          }
        }
      }
    } catch (error) {
      if (signal?.aborted) return;
      // The SDK's own errors here are fatal (a 4xx, a malformed event); anything else is the
      // connection failing, and the answer to that is to reconnect.
      if (error instanceof SwitchboardError || error instanceof UnexpectedResponseError) throw error;
    } finally {
      connection.abort();
    }

    // After a connection that worked, come back at once (within the service's `retry:` hint);
    // after failures, back off exponentially (or as Retry-After says) so a down service is not
    // hammered.
    failures = healthy ? 0 : failures + 1;
    const delay = healthy
      ? Math.floor(ctx.random() * (serverRetryMs ?? ctx.retry.baseDelayMs))
      : (retryDelay(failures - 1, retryAfterMs, ctx.retry, ctx.random) ?? ctx.retry.maxDelayMs);
    try {
      await ctx.clock.sleep(delay, signal);
    } catch {
      return;
    }
  }
}
