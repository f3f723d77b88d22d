import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isEventId } from '@switchboard/contracts';
import type { Services } from '../services.ts';
import { ApiError } from '../errors.ts';
import { err, ok, type Result } from '../result.ts';
import { checkCredential } from '../auth/check.ts';
import { countRequest } from '../ratelimit/headers.ts';
import { toEnvelope } from '../stream/envelope.ts';
import { authenticateRead } from './auth.ts';
import { caughtError, replyError, sendError } from './errors.ts';
import { routedPath } from './protocol.ts';
import { queryInt } from './read.ts';
import { heldAnswers, type HeldLine } from './respond.ts';
import { oldestRetainedId } from '../webhooks/endpoints.ts';

const PATH = '/v1/events';
const BATCH = 500;
/** Sent once per stream: how soon an EventSource reconnects after the stream drops. */
export const RECONNECT_MS = 3_000;

function wantsSse(accept: string | undefined): boolean {
  return (accept ?? '').includes('text/event-stream');
}

/** Where a read of the account's stream starts, its cursor checked against the log. */
interface Start {
  /** The cursor; null when it is not in the log: the stream starts with a reset. */
  after: number | null;
  /** Why the cursor is not in the log: past its newest id rather than dropped by retention. */
  pastHead: boolean;
  /** The cursor as asked for. */
  requested: string;
  purgedThrough: number;
  /** `after=now`: the stream announces its starting cursor. */
  fromNow: boolean;
  limit: number;
}

/** The query and `Last-Event-ID` of a read of the account's stream, checked, or its 400. */
async function startOf(services: Services, accountId: string, query: Record<string, unknown>, header: unknown, sse: boolean): Promise<Result<Start, ApiError>> {
  const lastEventId = typeof header === 'string' && header !== '' ? header : undefined;
  const requested = sse && lastEventId !== undefined ? lastEventId : (query.after ?? '0');
  const fromNow = requested === 'now';
  if (typeof requested !== 'string' || (!fromNow && !isEventId(requested)) || (lastEventId !== undefined && !isEventId(lastEventId))) {
    return err(new ApiError('invalid_query', 'after must be an event id or now (and Last-Event-ID an event id)'));
  }
  // Past 2^53 the number is inexact, but it is still past every id (they stay below 2^53).
  const after = fromNow ? await services.store.newestEventId(accountId) : Number(requested);
  const limit = queryInt(query.limit, 100, 1, 1000);
  if (limit === null) return err(new ApiError('invalid_query', 'limit must be an integer from 1 to 1000'));
  // 0 is "from the start": a new client reads whatever is retained, with no reset to report.
  const purgedThrough = after === 0 ? 0 : await services.store.eventsPurgedThrough(accountId);
  // Not in the log: dropped by retention, or past its newest id (a cursor from another database, or kept across a restore).
  const dropped = after !== 0 && after < purgedThrough;
  const pastHead = after !== 0 && !dropped && !fromNow && after > (await services.store.newestEventId(accountId));
  return ok({ after: dropped || pastHead ? null : after, pastHead, requested, purgedThrough, fromNow, limit });
}

/** The streams open through one endpoint: closing the server ends them, or close() would wait for every client. */
class OpenStreams {
  private readonly ends = new Set<() => void>();
  /** The server is closing: every stream has ended, and a new one ends at once. */
  closing = false;

  /** `end` ends a stream; it is called at once when the server is already closing. */
  add(end: () => void): void {
    this.ends.add(end);
    if (this.closing) end();
  }

  delete(end: () => void): void {
    this.ends.delete(end);
  }

  close(): void {
    this.closing = true;
    for (const end of this.ends) end();
  }
}

/** Serves one account's stream to a caller already authenticated; `slotKey` is whose open streams it counts toward. */
export type AccountEvents = (request: FastifyRequest<{ Querystring: Record<string, string> }>, reply: FastifyReply, accountId: string, slotKey: string) => Promise<FastifyReply | void>;

/**
 * GET /v1/events: the account's response stream, as Server-Sent Events or as JSON pages. Both
 * read the durable log from a cursor, so a resumed client sees each event exactly once. The
 * router serves the pages; a stream goes to `streamEndpoint` first.
 */
export function registerEventRoutes(app: FastifyInstance, services: Services): void {
  const serve = accountEvents(app, services);
  app.get(PATH, async (request: FastifyRequest<{ Querystring: Record<string, string> }>, reply) => {
    const accountId = await authenticateRead(services, request, reply);
    if (!accountId) return reply;
    return serve(request, reply, accountId, request.credentialId!);
  });
}

/**
 * What GET /v1/events serves through the router, for any route that has found the account (the
 * admin API's stream of an account serves the same). Streams opened through it end when `app` closes.
 */
export function accountEvents(app: FastifyInstance, services: Services): AccountEvents {
  const open = new OpenStreams();
  app.addHook('preClose', async () => open.close());

  return async (request, reply, accountId, slotKey) => {
    const sse = wantsSse(request.headers.accept);
    const start = await startOf(services, accountId, request.query, request.headers['last-event-id'], sse);
    if (!start.ok) return replyError(reply, start.error);
    const { after, pastHead, purgedThrough, limit } = start.value;
    if (!sse) {
      if (after === null) {
        const oldestId = await oldestRetainedId(services, accountId, purgedThrough);
        const message = pastHead ? 'this cursor is past the head of the account\'s stream (after its newest event)' : 'events after this cursor were dropped by retention';
        return sendError(reply, 'cursor_expired', message, { oldestId });
      }
      const events = await services.store.readEvents(accountId, after, limit);
      const nextAfter = events.length > 0 ? String(events[events.length - 1]!.id) : String(after);
      return reply.send({ events: events.map(toEnvelope), nextAfter });
    }
    const slots = services.streamSlots;
    if (slots && !slots.take(slotKey)) return replyError(reply, tooManyStreams(slots.max));
    try {
      reply.hijack();
      // The read limit's RateLimit headers, set before the reply was hijacked.
      const head = { ...(reply.getHeaders() as Record<string, string>), 'x-request-id': request.id };
      await stream(services, accountId, start.value, request.raw, reply.raw, head, open);
    } finally {
      slots?.release(slotKey);
    }
  };
}

function tooManyStreams(max: number): ApiError {
  return new ApiError('too_many_streams', `this credential already has ${max} open streams; close one first`);
}

export interface StreamEndpoint {
  /** Takes GET /v1/events asking for Server-Sent Events and serves the stream; false for every other request. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /** Ends the open streams, and every later one at once; from then on the router answers (503). */
  close(): void;
}

/**
 * GET /v1/events as a stream, served by node:http directly rather than through the router, as the
 * dispatch poll is: a stream stays open for as long as its client follows the account, and the
 * router's request and reply objects and child logger were kept for all that time. Same answers,
 * in the same order of checks: authentication, the read limit, the cursor, the open-stream limit.
 */
export function streamEndpoint(services: Services): StreamEndpoint {
  const { ids, log, metrics } = services;
  const open = new OpenStreams();
  const { fail, record } = heldAnswers(log, metrics, PATH, () => open.closing);

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const line: HeldLine = { reqId: ids.next(), method: 'GET', url: req.url, status: 0 };
    // Every answer past the limit check carries its RateLimit headers; a 429 is not counted.
    let head: Record<string, string> = {};
    const refuse = (error: ApiError) => {
      for (const name in head) res.setHeader(name, head[name]!);
      fail(req, res, line, error, started);
    };
    try {
      const check = await checkCredential(services, req.headers.authorization, 'account', req.socket);
      if (!check.ok) return fail(req, res, line, check.error, started);
      const { accountId, id: credentialId } = check.value;
      line.accountId = accountId;
      if (services.readLimiter) {
        const { headers, refused } = await countRequest('read', services.readLimiter, credentialId, services.clock.now(), 'reads');
        head = headers;
        if (refused) return refuse(refused);
      }
      const url = req.url!;
      const mark = url.indexOf('?');
      // Every key, as the router's parser takes them (node:querystring stops at 1,000 by default).
      const query = mark === -1 ? {} : parseQuery(url.slice(mark + 1), '&', '=', { maxKeys: 0 });
      const start = await startOf(services, accountId, query, req.headers['last-event-id'], true);
      if (!start.ok) return refuse(start.error);
      const slots = services.streamSlots;
      if (slots && !slots.take(credentialId)) return refuse(tooManyStreams(slots.max));
      try {
        head['x-request-id'] = line.reqId;
        await stream(services, accountId, start.value, req, res, head, open);
      } finally {
        slots?.release(credentialId);
      }
      record(line, 200, started);
    } catch (error) {
      const answered = caughtError(error);
      if (answered.status >= 500) log.error({ err: error, reqId: line.reqId }, 'unhandled error');
      // Thrown by the stream, which ended it: the stream stands, and is logged as any other.
      if (res.writableEnded) return record(line, 200, started);
      if (!res.headersSent) refuse(answered);
      else res.destroy();
    }
  }

  return {
    handle(req, res) {
      if (open.closing || req.method !== 'GET' || req.url === undefined || !wantsSse(req.headers.accept) || routedPath(req.url) !== PATH) return false;
      serve(req, res).catch((error: unknown) => {
        log.error({ err: error }, 'unhandled error');
        res.destroy();
      });
      return true;
    },
    close() {
      open.close();
    },
  };
}

/**
 * Streams the account's events from `start` on `res` until the client goes or the server closes.
 * `head`: the answer's headers beside the stream's own. `fromNow` announces the starting cursor
 * as an id-only block, which an EventSource keeps for its reconnect.
 */
async function stream(services: Services, accountId: string, start: Start, req: IncomingMessage, res: ServerResponse, head: Record<string, string>, open: OpenStreams) {
  const { after, requested, purgedThrough, fromNow } = start;
  res.writeHead(200, {
    ...head,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  let cursor = after ?? purgedThrough;
  let closed = false;
  let wake: (() => void) | null = null;
  let pending = true;
  let following = false;
  const unsubscribe = services.hub.subscribe(accountId, () => {
    pending = true;
    wake?.();
  });
  const heartbeat = setInterval(() => {
    if (!closed) res.write(': heartbeat\n\n');
  }, services.config.heartbeatMs);
  const end = () => {
    closed = true;
    wake?.();
  };
  req.on('close', end);
  // The client may have gone while the stream was being checked: its close has been and gone.
  if (req.socket.destroyed || res.destroyed) end();

  const write = async (chunk: string) => {
    if (closed || res.destroyed || res.write(chunk)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        res.off('drain', done);
        res.off('close', done);
        resolve();
      };
      res.on('drain', done);
      res.on('close', done);
    });
  };

  try {
    open.add(end);
    res.write(`: connected\nretry: ${RECONNECT_MS}\n\n`);
    if (fromNow) await write(`id: ${cursor}\n\n`);
    if (after === null) {
      const reset = { reason: 'cursor_expired', requestedAfter: requested, oldestId: await oldestRetainedId(services, accountId, purgedThrough) };
      await write(`event: reset\ndata: ${JSON.stringify(reset)}\n\n`);
    }
    while (!closed) {
      if (!pending) {
        await new Promise<void>((resolve) => { wake = resolve; });
        wake = null;
        continue;
      }
      pending = false;
      for (;;) {
        // The first read is of the log as retention left it; after it the stream follows each commit.
        const events = await (following ? services.store.followEvents(accountId, cursor, BATCH) : services.store.readEvents(accountId, cursor, BATCH));
        following = true;
        if (closed) return;
        if (events.length > 0) {
          // A page in one write: one syscall, not one per event.
          let page = '';
          for (const event of events) page += `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(toEnvelope(event))}\n\n`;
          await write(page);
          cursor = events.at(-1)!.id;
        }
        if (events.length < BATCH) break;
      }
    }
  } finally {
    open.delete(end);
    clearInterval(heartbeat);
    unsubscribe();
    if (!res.writableEnded) res.end();
  }
}
