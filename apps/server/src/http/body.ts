import type { IncomingMessage, ServerResponse } from 'node:http';
import { err, ok, type Result } from '../result.ts';

export type BodyResult = Result<Buffer, 'too_large' | 'aborted'>;

const TOO_LARGE: BodyResult = Object.freeze(err('too_large'));
const ABORTED: BodyResult = Object.freeze(err('aborted'));
const EMPTY = Buffer.alloc(0);

/**
 * Reads a request body, counting bytes as they stream in, and stops at `limit`: a large upload
 * is cut off as soon as it passes the limit, so memory stays flat whatever is sent.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve(TOO_LARGE);
  return new Promise((resolve) => {
    // A command's body comes in one chunk: it is the body as it is, with no array and no copy.
    let first: Buffer | null = null;
    let chunks: Buffer[] | null = null;
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.pause();
        resolve(TOO_LARGE);
        return;
      }
      if (first === null) first = chunk;
      else (chunks ??= [first]).push(chunk);
    };
    req.on('data', onData);
    // `on` rather than `once` (whose wrapper is an allocation a request): a second call changes nothing.
    req.on('end', () => resolve(ok(chunks ? Buffer.concat(chunks, size) : (first ?? EMPTY))));
    req.on('error', () => resolve(ABORTED));
  });
}

/** How much of an unwanted body is read and dropped after answering, before closing anyway. */
export const DRAIN_BYTES = 16 << 20;
export const DRAIN_MS = 5_000;

/**
 * Ends a response sent with `Connection: close` while the request body may still be arriving
 * (RFC 9112 §9.6): the answer goes out first, the rest of the body is read and dropped for a
 * bounded time and byte count, and only then does the connection close. Closing with unread
 * data would reset it, and the client would lose the answer.
 */
export function endDraining(req: IncomingMessage, res: ServerResponse, text: string): void {
  res.write(text);
  // A HEAD answer has no body, so the write above sent nothing: send the head now.
  if (req.method === 'HEAD') res.flushHeaders();
  if (req.complete || req.destroyed) {
    res.end();
    return;
  }
  let seen = 0;
  const done = () => {
    clearTimeout(timer);
    req.off('data', onData);
    req.off('end', done);
    req.off('close', done);
    if (!res.writableEnded) res.end();
  };
  const onData = (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > DRAIN_BYTES) done();
  };
  const timer = setTimeout(done, DRAIN_MS);
  timer.unref();
  req.on('data', onData);
  req.once('end', done);
  req.once('close', done);
  req.resume();
}
