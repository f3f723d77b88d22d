import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../services.ts';
import { sendError } from './errors.ts';
import { authenticate } from './auth.ts';
import { sendCommand } from './read.ts';
import { isUuid } from '../clock.ts';


/**
 * Every method but POST on /v1/commands/{type}: after authentication, GET with a commandId reads
 * the command back and everything else is 405. POST is served by command-endpoint.ts.
 */
export function registerCommandRoutes(app: FastifyInstance, services: Services): void {
  app.route({
    method: ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'],
    url: '/v1/commands/*',
    handler: async (request: FastifyRequest<{ Params: { '*': string } }>, reply) => {
      const account = await authenticate(services, request, reply, 'account');
      if (!account) return reply;
      const type = request.params['*'];
      if (request.method === 'GET' && isUuid(type)) return sendCommand(services, account, type.toLowerCase(), reply);
      reply.header('allow', 'POST');
      return sendError(reply, 405, 'method_not_allowed', 'the command endpoint accepts POST only');
    },
  });
}
