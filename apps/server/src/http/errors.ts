import type { FastifyReply } from 'fastify';
import type { ErrorCode } from '@switchboard/contracts';

/** Every HTTP error leaves through here: one body shape, `{ error, message, requestId, ...extra }`. */
export function sendError(
  reply: FastifyReply,
  status: number,
  error: ErrorCode | string,
  message: string,
  extra: Record<string, unknown> = {},
): FastifyReply {
  reply.errorCode = error;
  // Framework errors skip the onRequest hook that sets it.
  reply.header('x-request-id', reply.request.id);
  // RFC 9110 §15.5.2: a 401 names the scheme that would work.
  if (status === 401) reply.header('www-authenticate', 'Bearer');
  return reply.code(status).type('application/json').send({ error, message, ...extra, requestId: reply.request.id });
}

/**
 * An error thrown inside Fastify (a framework error, or a bug), as the catalog's status and code:
 * the client's mistakes keep their 4xx, and only what is left is 500.
 */
export function caughtError(error: { statusCode?: number; code?: string }): { status: number; error: ErrorCode; message: string } {
  const status = error.statusCode ?? 500;
  if (status === 415) return { status, error: 'unsupported_media_type', message: 'the Content-Type is not one this route reads' };
  if (status === 408) return { status, error: 'request_timeout', message: 'the request was not received in time' };
  if (status === 431) return { status, error: 'headers_too_large', message: 'the request line and headers are over 16 KiB' };
  if (status >= 400 && status < 500) return { status: 400, error: 'bad_request', message: `the request is malformed (${error.code ?? status})` };
  return { status: 500, error: 'internal', message: 'an unexpected error; read the resource back before retrying' };
}

declare module 'fastify' {
  interface FastifyReply {
    /** The error code sent, for the request log line and the metrics. */
    errorCode: string | undefined;
  }
  interface FastifyRequest {
    accountId: string | undefined;
    credentialId: string | undefined;
    commandId: string | undefined;
  }
}
