import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { readBody } from './body.ts';
import type { Code } from '../errors.ts';
import { sendError } from './errors.ts';
import { err, ok, type Result } from '../result.ts';

/** Whether a string in `value` (a key or a value, at any depth) holds U+0000. */
export function hasNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (value === null || typeof value !== 'object') return false;
  for (const key in value) if (key.includes('\0') || hasNul((value as Record<string, unknown>)[key])) return true;
  return false;
}

/** A JSON body checked against `schema`, or why it does not fit (the message of a 400). */
export function parseJson<T extends z.ZodType>(body: Buffer, schema: T): Result<z.infer<T>, string> {
  let json: unknown;
  const text = body.toString('utf8');
  try {
    json = JSON.parse(text);
  } catch {
    return err('the body is not valid JSON');
  }
  // JSON can carry U+0000 only escaped: look deeper only when the escape is in the text.
  if (text.includes('\\u0000') && hasNul(json)) return err('a string holds U+0000 (NUL), which is not stored');
  const result = schema.safeParse(json);
  if (!result.success) return err(result.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '));
  return ok(result.data);
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
  const parsed = parseJson(body.value, schema);
  if (parsed.ok) return parsed.value;
  sendError(reply, code, parsed.error);
  return null;
}
