import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { readBody } from './body.ts';
import type { Code } from '../errors.ts';
import { sendError } from './errors.ts';

/** Whether a string in `value` (a key or a value, at any depth) holds U+0000. */
export function hasNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (value === null || typeof value !== 'object') return false;
  for (const key in value) if (key.includes('\0') || hasNul((value as Record<string, unknown>)[key])) return true;
  return false;
}

/**
 * Reads a JSON body of at most `limitBytes` and validates it against `schema`; when it does not
 * fit, answers 400 with `code` itself and returns null. A string with U+0000 does not fit: the
 * store keeps these bodies' strings as text, which PostgreSQL's cannot hold (specs: "Text").
 */
export async function parseJsonBody<T extends z.ZodType>(request: FastifyRequest, reply: FastifyReply, schema: T, limitBytes: number, code: Code): Promise<z.infer<T> | null> {
  const body = await readBody(request.raw, limitBytes);
  if (!body.ok) {
    sendError(reply, code, `the body is over ${limitBytes >= 1 << 20 ? `${limitBytes >> 20} MiB` : `${limitBytes >> 10} KiB`}`);
    return null;
  }
  let json: unknown;
  const text = body.value.toString('utf8');
  try {
    json = JSON.parse(text);
  } catch {
    sendError(reply, code, 'the body is not valid JSON');
    return null;
  }
  // JSON can carry U+0000 only escaped: look deeper only when the escape is in the text.
  if (text.includes('\\u0000') && hasNul(json)) {
    sendError(reply, code, 'a string holds U+0000 (NUL), which is not stored');
    return null;
  }
  const result = schema.safeParse(json);
  if (!result.success) {
    sendError(reply, code, result.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '));
    return null;
  }
  return result.data;
}
