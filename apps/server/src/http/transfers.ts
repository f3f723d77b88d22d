import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { schemas } from '@switchboard/contracts';
import type { Services } from '../services.ts';
import type { TransferLimits, TransferRecord } from '../store/types.ts';
import { ApiError } from '../errors.ts';
import { TRANSFER_CHUNK_BYTES, transferBody, typeAllowed } from '../store/rules/transfers.ts';
import { mediaTypeOf } from './media-type.ts';
import { authenticateRead } from './auth.ts';
import { caughtError, errorBody, errorHeaders } from './errors.ts';
import { writeJson } from './respond.ts';

/** What reading an upload's body came to. */
type Received = { ok: true; byteSize: number; sha256: string } | { ok: false; why: 'too_large' | 'incomplete' };

/**
 * An upload request, from its first hook: whether node:http found its body cut short (the client
 * half-closed before its Content-Length), and whom to tell. The route answers 400
 * `transfer_incomplete` itself, rather than the server's generic 400 for a request that is not
 * well-formed.
 */
interface Upload {
  cut: boolean;
  onCut: (() => void) | null;
}
const uploads = new WeakMap<IncomingMessage, Upload>();

/** node:http's error for a connection that ended inside a request's body. */
const CUT_SHORT = 'HPE_INVALID_EOF_STATE';

/** The server's `clientError` handler, letting an upload not yet answered answer its own cut-off body. */
export function answeringCutUploads<E extends Error & { code?: string }>(handler: (error: E, socket: Duplex) => void): (error: E, socket: Duplex) => void {
  return (error, socket) => {
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    const upload = error.code === CUT_SHORT && inFlight && !inFlight.headersSent ? uploads.get(inFlight.req) : undefined;
    if (!upload) return handler(error, socket);
    upload.cut = true;
    upload.onCut?.();
  };
}

/** A Content-Encoding the server would have to decode: it decodes none. */
function isEncoded(coding: string | undefined): boolean {
  const value = coding?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== 'identity';
}

/**
 * `Content-Disposition` for a file name: the name with what a header cannot carry replaced
 * (quotes, backslashes, controls, and anything not ASCII), and the exact name as RFC 6266's
 * `filename*` when they differ.
 */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  if (ascii === fileName) return `attachment; filename="${ascii}"`;
  // RFC 8187: UTF-8 bytes, every one outside attr-char percent-encoded.
  let encoded = '';
  for (const byte of Buffer.from(fileName, 'utf8')) {
    const c = String.fromCharCode(byte);
    encoded += /[A-Za-z0-9!#$&+\-.^_`|~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * Answers an error of the upload route through node:http's own response: when the body may
 * still be arriving, the answer goes first and the connection closes after a bounded drain
 * (http/body.ts, endDraining), so a large refused upload is neither read whole nor reset under
 * its answer. The headers Fastify holds (RateLimit, x-request-id) go with it.
 */
function refuse(request: FastifyRequest, reply: FastifyReply, error: ApiError): FastifyReply {
  reply.errorCode = error.code;
  const pending = !request.raw.complete;
  // A body cut short has nothing more to drain.
  const drain = pending && uploads.get(request.raw)?.cut !== true;
  const headers = { ...reply.getHeaders(), ...errorHeaders(error) };
  reply.hijack();
  const res = reply.raw;
  if (res.headersSent || res.destroyed) return reply;
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) res.setHeader(name, value as string);
  if (pending) res.setHeader('connection', 'close');
  writeJson(request.raw, res, error.status, errorBody(error, request.id), drain, request.id);
  return reply;
}

/**
 * Reads the body into the store as it arrives, hashing and counting it: each full chunk is
 * written with the body paused, so memory stays at about one chunk whatever the upload's size,
 * and each write is short (no transaction spans the network). Stops at `maxBytes`, or when the
 * body ends before it is complete.
 */
function receive(req: IncomingMessage, maxBytes: number, write: (seq: number, bytes: Buffer) => Promise<void>): Promise<Received> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    let parts: Buffer[] = [];
    let buffered = 0;
    let size = 0;
    let seq = 0;
    let writing: Promise<void> = Promise.resolve();
    let done = false;

    const upload = uploads.get(req) ?? { cut: false, onCut: null };
    const stop = () => {
      done = true;
      upload.onCut = null;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
      req.off('error', onClose);
    };
    /** Refused or cut off: resolves once the writes under way ended, so the caller drops all of it. */
    const fail = (why: 'too_large' | 'incomplete') => {
      if (done) return;
      stop();
      void writing.catch(() => undefined).then(() => resolve({ ok: false, why }));
    };
    /** Queues the buffered bytes as chunks: the full ones, and with `all` the rest too. */
    const flush = (all: boolean) => {
      while (buffered >= TRANSFER_CHUNK_BYTES || (all && buffered > 0)) {
        const joined = parts.length === 1 ? parts[0]! : Buffer.concat(parts, buffered);
        const length = Math.min(TRANSFER_CHUNK_BYTES, buffered);
        const chunk = joined.subarray(0, length);
        const n = seq++;
        writing = writing.then(() => write(n, chunk));
        const rest = joined.subarray(length);
        parts = rest.length > 0 ? [rest] : [];
        buffered = rest.length;
      }
    };
    const onData = (data: Buffer) => {
      size += data.length;
      if (size > maxBytes) return fail('too_large');
      hash.update(data);
      parts.push(data);
      buffered += data.length;
      if (buffered < TRANSFER_CHUNK_BYTES) return;
      flush(false);
      req.pause();
      writing.then(() => {
        if (!done) req.resume();
      }, (error: unknown) => {
        if (done) return;
        stop();
        reject(error);
      });
    };
    const onEnd = () => {
      if (done) return;
      flush(true);
      stop();
      writing.then(() => resolve({ ok: true, byteSize: size, sha256: hash.digest('hex') }), reject);
    };
    const onClose = () => {
      if (!req.complete) fail('incomplete');
    };
    if (upload.cut) return fail('incomplete');
    upload.onCut = () => fail('incomplete');
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
    req.on('error', onClose);
  });
}

/** POST /v1/transfers (specs/openapi/switchboard.yaml, "Transfers"): media streamed into the store. */
export function registerTransferRoutes(app: FastifyInstance, services: Services): void {
  const { store, clock, ids, config } = services;

  // Known from its first hook: a body cut short while the route authenticates is still the route's to answer.
  const onRequest = async (request: FastifyRequest) => {
    uploads.set(request.raw, { cut: false, onCut: null });
  };
  app.post('/v1/transfers', { onRequest }, async (request: FastifyRequest<{ Querystring: Record<string, unknown> }>, reply) => {
    const accountId = await authenticateRead(services, request, reply);
    if (!accountId) return reply;
    if (config.transfers !== 'enabled') {
      return refuse(request, reply, new ApiError('transfers_disabled', 'transfers are turned off on this server (SWITCHBOARD_TRANSFERS=enabled turns them on)'));
    }
    // The spec's pattern: no `/`, `\` or control character (U+0000 included), and not `.` or `..`.
    const query = schemas.zCreateTransferQuery.safeParse(request.query);
    if (!query.success) {
      return refuse(request, reply, new ApiError('invalid_query', 'fileName is required: 1 to 255 characters, not . or .., with no /, \\ or control characters'));
    }
    if (isEncoded(request.headers['content-encoding'])) {
      const error = new ApiError('transfer_type_invalid', 'a Content-Encoding is not decoded: send the media as it is', {}, { 'accept-encoding': 'identity' });
      return refuse(request, reply, error);
    }
    // A malformed Content-Type was taken away before routing (app.ts): it is absent here.
    const mimeType = mediaTypeOf(request.headers['content-type']);
    if (mimeType === null) return refuse(request, reply, new ApiError('transfer_type_invalid', 'send the media with its Content-Type (image/png, application/pdf, ...)'));
    // A store error from here on is answered as a refusal is: the body may be arriving, or paused mid-upload.
    const failed = (error: unknown, transferId?: string) => {
      request.log.error({ err: error, accountId, transferId }, 'upload failed in the store');
      return refuse(request, reply, caughtError(error));
    };
    let limits: TransferLimits;
    try {
      limits = await store.getTransferLimits(accountId);
    } catch (error) {
      return failed(error);
    }
    if (!typeAllowed(mimeType, limits.allowedTypes)) {
      return refuse(request, reply, new ApiError('transfer_type_not_allowed', `${mimeType} is not among the account's allowed types (${limits.allowedTypes.join(', ') || 'none'})`));
    }
    const tooLarge = () => new ApiError('transfer_too_large', `an upload is at most ${limits.maxBytes} bytes on this account`);
    const empty = () => new ApiError('transfer_empty', 'the upload has no bytes; nothing was stored');
    const declared = request.headers['content-length'];
    if (declared !== undefined && Number(declared) > limits.maxBytes) return refuse(request, reply, tooLarge());
    if (declared !== undefined && Number(declared) === 0) return refuse(request, reply, empty());

    const id = ids.next();
    const abandon = () => store.abandonTransfer(accountId, id).catch((error: unknown) => {
      // Retention drops it within the hour.
      request.log.warn({ err: error, accountId, transferId: id }, 'could not drop a refused upload');
    });
    let received: Received;
    let done: TransferRecord | null = null;
    try {
      await store.beginTransfer({ id, accountId, fileName: query.data.fileName, mimeType, createdAt: clock.now() });
      received = await receive(request.raw, limits.maxBytes, (seq, bytes) => store.appendTransferChunk(accountId, id, seq, bytes));
      if (received.ok && received.byteSize > 0) {
        done = await store.finishTransfer(accountId, id, { byteSize: received.byteSize, sha256: received.sha256, expiresAt: clock.now() + config.transferTtlMs });
        if (!done) throw new Error('the upload was dropped before it finished');
      }
    } catch (error) {
      await abandon();
      return failed(error, id);
    }
    if (!received.ok) {
      await abandon();
      if (received.why === 'too_large') return refuse(request, reply, tooLarge());
      const socket = request.raw.socket;
      if (!socket.writable) {
        // The client is gone: there is no one to answer.
        request.log.info({ reqId: request.id, accountId, transferId: id }, 'upload cut off by the client; nothing was stored');
        reply.hijack();
        reply.raw.destroy();
        return reply;
      }
      return refuse(request, reply, new ApiError('transfer_incomplete', 'the body ended before its Content-Length; nothing was stored'));
    }
    if (!done) {
      // A body with no bytes (chunked, or no Content-Length): nothing to send.
      await abandon();
      return refuse(request, reply, empty());
    }
    return reply.code(201).send(transferBody(done));
  });
}
