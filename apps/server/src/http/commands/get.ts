import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { commandTypes } from '@switchboard/contracts';
import type { Services } from '../../services.ts';
import { isUuid } from '../../ids.ts';
import { sendError } from '../errors.ts';
import { authenticate, authenticateRead } from '../auth.ts';
import { commandBody } from '../../bodies.ts';

const TYPES: ReadonlySet<string> = new Set(commandTypes);

async function sendCommand(services: Services, accountId: string, commandId: string, reply: FastifyReply): Promise<FastifyReply> {
  const command = await services.store.getCommand(accountId, commandId);
  if (!command) return sendError(reply, 'command_not_found', 'no such command');
  const [history, message] = await Promise.all([services.store.commandHistory(command.id), services.store.getMessageOfCommand(accountId, command.id)]);
  return reply.send(commandBody(command, history, message));
}

/**
 * GET /v1/commands/{commandId}, after authentication. GET of a command type is 405 like every
 * method but POST there; any other segment that is not a UUID names no command, so it is 404
 * like an unknown one. Every other method is served by ./post.ts.
 */
export function registerCommandRoutes(app: FastifyInstance, services: Services): void {
  app.route({
    method: 'GET',
    url: '/v1/commands/*',
    exposeHeadRoute: false,
    handler: async (request: FastifyRequest<{ Params: { '*': string } }>, reply) => {
      const id = request.params['*'];
      // A command type's path takes POST only (the seed's 405, after 401; not a read, so not read-limited).
      if (TYPES.has(id)) {
        if (!(await authenticate(services, request, reply, 'account'))) return reply;
        return sendError(reply.header('allow', 'POST'), 'method_not_allowed', 'the command endpoint accepts POST only');
      }
      const account = await authenticateRead(services, request, reply);
      if (!account) return reply;
      // Any other segment that is not a UUID names no command.
      if (!isUuid(id)) return sendError(reply, 'command_not_found', 'no such command');
      return sendCommand(services, account, id.toLowerCase(), reply);
    },
  });
}
