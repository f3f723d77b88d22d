import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../services.ts';
import { sendError } from './errors.ts';
import { authenticateRead } from './auth.ts';
import { sendCommand } from './read.ts';
import { isUuid } from '../clock.ts';


/**
 * GET /v1/commands/{commandId}, after authentication. A segment that is not a UUID names no
 * command, so it is 404 like an unknown one. Every other method is served by command-endpoint.ts.
 */
export function registerCommandRoutes(app: FastifyInstance, services: Services): void {
  app.route({
    method: 'GET',
    url: '/v1/commands/*',
    exposeHeadRoute: false,
    handler: async (request: FastifyRequest<{ Params: { '*': string } }>, reply) => {
      const account = await authenticateRead(services, request, reply);
      if (!account) return reply;
      const id = request.params['*'];
      if (!isUuid(id)) return sendError(reply, 404, 'command_not_found', 'no such command');
      return sendCommand(services, account, id.toLowerCase(), reply);
    },
  });
}
