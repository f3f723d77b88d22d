import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';

export type BodyResult = { ok: true; bytes: Buffer } | { ok: false; reason: 'too_large' | 'aborted' };

/**
 * Reads the request body, counting bytes as they stream in, and stops at `limit`: a large
 * upload is cut off as soon as it passes the limit, so memory stays flat whatever is sent.
 */
export async function readBody(request: FastifyRequest, limit: number): Promise<BodyResult> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return { ok: false, reason: 'too_large' };
  const stream = request.body as Readable | undefined;
  if (!stream) return { ok: true, bytes: Buffer.alloc(0) };
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      size += (chunk as Buffer).length;
      if (size > limit) return { ok: false, reason: 'too_large' };
      chunks.push(chunk as Buffer);
    }
  } catch {
    return { ok: false, reason: 'aborted' };
  }
  return { ok: true, bytes: Buffer.concat(chunks, size) };
}

/**
 * After answering before the body was read to its end: `Connection: close` makes Node end the
 * socket once the answer is sent, so the client stops uploading into a socket nobody reads.
 */
export function closeAfterReply(reply: FastifyReply): void {
  reply.header('connection', 'close');
}
