import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Command, Conversation } from '@switchboard/contracts';
import type { Services } from '../services.ts';
import type { ConversationRecord } from '../store/types.ts';
import { authenticateRead } from './auth.ts';
import { sendError } from './errors.ts';
import { isUuid, iso } from '../clock.ts';


export function conversationBody(c: ConversationRecord): Conversation {
  return {
    conversationId: c.id,
    kind: c.kind,
    name: c.name,
    participants: c.participants.map((externalId) => ({ externalId })),
    createdAt: iso(c.createdAt),
  };
}

/** GET /v1/commands/{commandId}, reached through the command endpoint's route. */
export async function sendCommand(services: Services, accountId: string, commandId: string, reply: FastifyReply): Promise<FastifyReply> {
  const command = await services.store.getCommand(accountId, commandId);
  if (!command) return sendError(reply, 404, 'command_not_found', 'no such command');
  const history = await services.store.commandHistory(command.id);
  const body: Command = {
    commandId: command.id,
    type: command.type,
    routingPath: command.routingPath,
    status: command.status,
    target: command.target,
    payload: command.payload,
    logicalActionId: command.logicalActionId,
    idempotencyKey: command.idempotencyKey,
    conversationId: command.conversationId,
    errorCode: command.errorCode,
    createdAt: iso(command.createdAt),
    settledAt: command.settledAt === null ? null : iso(command.settledAt),
    history: history.map((h) => ({ status: h.status, at: iso(h.at) })),
  };
  return reply.send(body);
}

export function queryInt(value: unknown, fallback: number, min: number, max: number): number | null {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !/^\d{1,9}$/.test(value)) return null;
  const n = Number(value);
  return n >= min && n <= max ? n : null;
}

/** The account-scoped reads: conversations, capabilities, attachments. */
export function registerReadRoutes(app: FastifyInstance, services: Services): void {
  app.get('/v1/conversations', async (request: FastifyRequest<{ Querystring: Record<string, string> }>, reply) => {
    const accountId = await authenticateRead(services, request, reply);
    if (!accountId) return reply;
    const limit = queryInt(request.query.limit, 50, 1, 200);
    if (limit === null) return sendError(reply, 400, 'invalid_query', 'limit must be an integer from 1 to 200');
    const cursor = request.query.cursor ?? null;
    if (cursor !== null && !isUuid(cursor)) return sendError(reply, 400, 'invalid_query', 'cursor must be the nextCursor of a previous page');
    const page = await services.store.listConversations(accountId, limit, cursor);
    return reply.send({ conversations: page.items.map(conversationBody), nextCursor: page.nextCursor });
  });

  app.get('/v1/conversations/:conversationId', async (request: FastifyRequest<{ Params: { conversationId: string } }>, reply) => {
    const accountId = await authenticateRead(services, request, reply);
    if (!accountId) return reply;
    const { conversationId } = request.params;
    if (!isUuid(conversationId)) return sendError(reply, 400, 'invalid_conversationId', 'conversationId must be a UUID');
    const conversation = await services.store.getConversation(accountId, conversationId.toLowerCase());
    if (!conversation) return sendError(reply, 404, 'conversation_not_found', 'no such conversation');
    return reply.send(conversationBody(conversation));
  });

  app.get('/v1/capabilities', async (request, reply) => {
    const accountId = await authenticateRead(services, request, reply);
    if (!accountId) return reply;
    const lease = await services.store.liveLease(accountId, services.clock.now());
    if (!lease) return sendError(reply, 503, 'no_live_connector', 'no connector host holds a live lease for this account');
    return reply.send({
      hostId: lease.hostId,
      osMajorVersion: lease.osMajorVersion,
      capabilities: lease.capabilities,
      leaseExpiresAt: iso(lease.expiresAt),
    });
  });

  app.get('/v1/attachments/:attachmentId', async (request: FastifyRequest<{ Params: { attachmentId: string } }>, reply) => {
    const accountId = await authenticateRead(services, request, reply);
    if (!accountId) return reply;
    const attachment = await services.store.getAttachment(accountId, request.params.attachmentId);
    if (!attachment) return sendError(reply, 404, 'attachment_not_found', 'no such attachment');
    const fileName = attachment.fileName.replace(/["\\\r\n]/g, '_');
    return reply
      .type(attachment.mimeType)
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .header('x-content-type-options', 'nosniff')
      .send(Buffer.from(attachment.bytes));
  });
}
