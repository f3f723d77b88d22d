import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { commandTypes, type CommandType } from '@switchboard/contracts';
import type { Services } from '../services.ts';
import { intake } from '../commands/intake.ts';
import { MAX_BODY_BYTES } from '../commands/envelope.ts';
import { closeAfterReply, readBody } from './body.ts';
import { sendError } from './errors.ts';
import { authenticate } from './auth.ts';
import { sendCommand } from './read.ts';

const TYPES: ReadonlySet<string> = new Set(commandTypes);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

function isJson(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const mediaType = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return mediaType === 'application/json';
}

function setRateHeaders(reply: FastifyReply, limit: number, remaining: number, resetMs: number, windowMs: number): void {
  reply.header('ratelimit-policy', `"default";q=${limit};w=${Math.ceil(windowMs / 1000)}`);
  reply.header('ratelimit', `"default";r=${remaining};t=${Math.ceil(resetMs / 1000)}`);
}

/**
 * POST /v1/commands/{type}, in the order specs/openapi/switchboard.yaml gives: authentication,
 * method, type, rate limit, content type, then the envelope and everything after it. GET with a
 * commandId reads a command back; every other method is 405.
 */
export function registerCommandRoutes(app: FastifyInstance, services: Services): void {
  app.route({
    method: [...METHODS],
    url: '/v1/commands/:type',
    handler: async (request: FastifyRequest<{ Params: { type: string } }>, reply) => {
      const account = await authenticate(services, request, reply, 'account');
      if (!account) return reply;
      const { type } = request.params;

      if (request.method === 'GET' && UUID.test(type)) return sendCommand(services, account, type.toLowerCase(), reply);
      if (request.method !== 'POST') {
        reply.header('allow', 'POST');
        return sendError(reply, 405, 'method_not_allowed', 'the command endpoint accepts POST only');
      }
      if (!TYPES.has(type)) {
        return sendError(reply, 404, 'unknown_command', `"${type}" is not a command type`, { command: type });
      }

      const { limiter } = services;
      if (limiter) {
        const decision = limiter.take(request.credentialId!, services.clock.now());
        setRateHeaders(reply, decision.limit, decision.remaining, decision.resetMs, limiter.windowMs);
        if (!decision.allowed) {
          const retryAfter = Math.max(1, Math.ceil(decision.resetMs / 1000));
          reply.header('retry-after', String(retryAfter));
          return sendError(reply, 429, 'rate_limited', `more than ${decision.limit} requests in ${limiter.windowMs / 1000} seconds on this credential`, {
            retryAfterSeconds: retryAfter,
          });
        }
      }

      if (!isJson(request.headers['content-type'])) {
        return sendError(reply, 415, 'unsupported_media_type', 'send the body as Content-Type: application/json');
      }
      const body = await readBody(request, MAX_BODY_BYTES);
      if (!body.ok) {
        closeAfterReply(reply);
        if (body.reason === 'aborted') return reply;
        return sendError(reply, 400, 'body_too_large', `the body is over ${MAX_BODY_BYTES} bytes`);
      }

      const header = request.headers['idempotency-key'];
      const result = await intake(services, account, type as CommandType, body.bytes.toString('utf8'), Array.isArray(header) ? header.join(', ') : header);
      if (!result.ok) {
        const { status, error, message, ...extra } = result.rejection;
        if ('retryAfter' in extra && extra.retryAfter !== undefined) reply.header('retry-after', String(extra.retryAfter));
        const { retryAfter: _ignored, ...bodyExtra } = extra as { retryAfter?: number };
        return sendError(reply, status, error, message, bodyExtra);
      }
      request.commandId = result.command.id;
      request.routingPath = result.command.routingPath;
      services.metrics.commands.inc({ type, routing_path: result.command.routingPath, disposition: result.acknowledgement.disposition });
      return reply.code(202).send(result.acknowledgement);
    },
  });
}
