import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isEventId } from '@switchboard/contracts';
import type { Services } from '../services.ts';
import { toEnvelope } from '../stream/envelope.ts';
import { authenticateRead } from './auth.ts';
import { sendError } from './errors.ts';
import { queryInt } from './read.ts';
import { oldestRetainedId } from '../webhooks/endpoints.ts';

const BATCH = 500;
/** Sent once per stream: how soon an EventSource reconnects after the stream drops. */
export const RECONNECT_MS = 3_000;

function wantsSse(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/event-stream');
}

/** Serves one account's stream to a caller already authenticated; `slotKey` is whose open streams it counts toward. */
export type AccountEvents = (request: FastifyRequest<{ Querystring: Record<string, string> }>, reply: FastifyReply, accountId: string, slotKey: string) => Promise<FastifyReply | void>;

/**
 * GET /v1/events: the account's response stream, as Server-Sent Events or as JSON pages. Both
 * read the durable log from a cursor, so a resumed client sees each event exactly once.
 */
export function registerEventRoutes(app: FastifyInstance, services: Services): void {
  const serve = accountEvents(app, services);
  app.get('/v1/events', async (request: FastifyRequest<{ Querystring: Record<string, string> }>, reply) => {
    const accountId = await authenticateRead(services, request, reply);
    if (!accountId) return reply;
    return serve(request, reply, accountId, request.credentialId!);
  });
}

/**
 * What GET /v1/events serves, for any route that has found the account (the admin API's stream
 * of an account serves the same). Streams opened through it end when `app` closes.
 */
export function accountEvents(app: FastifyInstance, services: Services): AccountEvents {
  // A stream never ends by itself: closing the server ends them, or close() would wait for every client.
  const open = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of open) end();
  });

  return async (request, reply, accountId, slotKey) => {
    const sse = wantsSse(request);
    const header = request.headers['last-event-id'];
    const lastEventId = typeof header === 'string' && header !== '' ? header : undefined;
    const raw = sse && lastEventId !== undefined ? lastEventId : (request.query.after ?? '0');
    const fromNow = raw === 'now';
    if ((!fromNow && !isEventId(raw)) || (lastEventId !== undefined && !isEventId(lastEventId))) {
      return sendError(reply, 'invalid_query', 'after must be an event id or now (and Last-Event-ID an event id)');
    }
    // Past 2^53 the number is inexact, but it is still past every id (they stay below 2^53).
    const after = fromNow ? await services.store.newestEventId(accountId) : Number(raw);
    const limit = queryInt(request.query.limit, 100, 1, 1000);
    if (limit === null) return sendError(reply, 'invalid_query', 'limit must be an integer from 1 to 1000');
    // 0 is "from the start": a new client reads whatever is retained, with no reset to report.
    const purgedThrough = after === 0 ? 0 : await services.store.eventsPurgedThrough(accountId);
    // Not in the log: dropped by retention, or past its newest id (a cursor from another database, or kept across a restore).
    const dropped = after !== 0 && after < purgedThrough;
    const pastHead = after !== 0 && !dropped && after > (await services.store.newestEventId(accountId));
    const lost = dropped || pastHead;

    if (!sse) {
      if (lost) {
        const oldestId = await oldestRetainedId(services, accountId, purgedThrough);
        const message = pastHead ? 'this cursor is past the head of the account\'s stream (after its newest event)' : 'events after this cursor were dropped by retention';
        return sendError(reply, 'cursor_expired', message, { oldestId });
      }
      const events = await services.store.readEvents(accountId, after, limit);
      const nextAfter = events.length > 0 ? String(events[events.length - 1]!.id) : String(after);
      return reply.send({ events: events.map(toEnvelope), nextAfter });
    }
    const slots = services.streamSlots;
    if (slots && !slots.take(slotKey)) {
      return sendError(reply, 'too_many_streams', `this credential already has ${slots.max} open streams; close one first`);
    }
    try {
      return await stream(services, accountId, lost ? null : after, raw, purgedThrough, fromNow, request, reply, open);
    } finally {
      slots?.release(slotKey);
    }
  };
}

/**
 * `after` is null when the cursor is not in the log: the stream starts with a reset. `fromNow`
 * announces the starting cursor as an id-only block, which an EventSource keeps for its reconnect.
 */
async function stream(services: Services, accountId: string, after: number | null, requested: string, purgedThrough: number, fromNow: boolean, request: FastifyRequest, reply: FastifyReply, open: Set<() => void>) {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    // The read limit's RateLimit headers, set before the reply was hijacked.
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-request-id': request.id,
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
  request.raw.on('close', end);
  open.add(end);

  const write = async (chunk: string) => {
    if (res.write(chunk)) return;
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
