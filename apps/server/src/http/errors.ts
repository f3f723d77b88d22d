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
  return reply.code(status).type('application/json').send({ error, message, ...extra, requestId: reply.request.id });
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
