import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { readBody } from './body.ts';
import type { Code } from '../errors.ts';
import { sendError } from './errors.ts';

/**
 * Reads a JSON body of at most `limitBytes` and validates it against `schema`; when it does not
 * fit, answers 400 with `code` itself and returns null.
 */
export async function parseJsonBody<T extends z.ZodType>(request: FastifyRequest, reply: FastifyReply, schema: T, limitBytes: number, code: Code): Promise<z.infer<T> | null> {
  const body = await readBody(request.raw, limitBytes);
  if (!body.ok) {
    sendError(reply, code, `the body is over ${limitBytes >= 1 << 20 ? `${limitBytes >> 20} MiB` : `${limitBytes >> 10} KiB`}`);
    return null;
  }
  let json: unknown;
  try {
    json = JSON.parse(body.bytes.toString('utf8'));
  } catch {
    sendError(reply, code, 'the body is not valid JSON');
    return null;
  }
  const result = schema.safeParse(json);
  if (!result.success) {
    sendError(reply, code, result.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '));
    return null;
  }
  return result.data;
}
