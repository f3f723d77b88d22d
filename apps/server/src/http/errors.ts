import type { FastifyReply } from 'fastify';
import { ApiError, type Code } from '../errors.ts';

/** The one error body, `{ error, message, ...details, requestId }`: Fastify and the raw paths both write this. */
export function errorBody(error: ApiError, requestId: string): Record<string, unknown> {
  return { error: error.code, message: error.message, ...error.details, requestId };
}

/** The error's own headers, and for a 401 the scheme that would work (RFC 9110 §15.5.2). */
export function errorHeaders(error: ApiError): Readonly<Record<string, string>> {
  return error.status === 401 ? { ...error.headers, 'www-authenticate': 'Bearer' } : error.headers;
}

/** Answers an error through Fastify, with the catalog's status for its code. */
export function replyError(reply: FastifyReply, error: ApiError): FastifyReply {
  reply.errorCode = error.code;
  // Framework errors skip the onRequest hook that sets it.
  reply.header('x-request-id', reply.request.id).headers(errorHeaders(error));
  return reply.code(error.status).type('application/json').send(errorBody(error, reply.request.id));
}

/** Every Fastify route's error leaves through here or replyError. */
export function sendError(reply: FastifyReply, code: Code, message: string, details: Record<string, unknown> = {}): FastifyReply {
  return replyError(reply, new ApiError(code, message, details));
}

/**
 * An error thrown inside Fastify (a framework error, or a bug), as a catalog code: the client's
 * mistakes (bad URL, content type, header size, timeout) keep their 4xx, and only what is left
 * is 500.
 */
export function caughtError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const { statusCode, code } = error as { statusCode?: number; code?: string };
  const status = statusCode ?? 500;
  if (status === 415) return new ApiError('unsupported_media_type', 'the Content-Type is not one this route reads');
  if (status === 408) return new ApiError('request_timeout', 'the request was not received in time');
  if (status === 431) return new ApiError('headers_too_large', 'the request line and headers are over 16 KiB');
  if (status >= 400 && status < 500) return new ApiError('bad_request', `the request is malformed (${code ?? status})`);
  return new ApiError('internal', 'an unexpected error; read the resource back before retrying');
}

declare module 'fastify' {
  interface FastifyReply {
    /** The error code sent, for the request log line and the metrics. */
    errorCode: Code | undefined;
  }
  interface FastifyRequest {
    accountId: string | undefined;
    credentialId: string | undefined;
    commandId: string | undefined;
  }
}
