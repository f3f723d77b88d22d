import type { FastifyInstance, FastifyRequest } from 'fastify';
import { connectorSchemas, type components } from '@switchboard/contracts';
import type { Services } from '../services.ts';
import type { PollWithVotes } from '../store/types.ts';
import { parseMessageCursor } from '../store/rules/messages.ts';
import { authenticateRead } from './auth.ts';
import { sendError } from './errors.ts';
import { iso } from '../clock.ts';
import { isUuid } from '../ids.ts';
import { NO_LIVE_CONNECTOR } from '../leases/leases.ts';
import { conversationBody, messageBody } from '../bodies.ts';

/** A poll with each option's tally and each voter's standing choice. */
export function pollBody(p: PollWithVotes): components['schemas']['Poll'] {
  const tallies = p.options.map(() => 0);
  for (const vote of p.votes) tallies[vote.optionIndex] = (tallies[vote.optionIndex] ?? 0) + 1;
  return {
    pollId: p.id,
    conversationId: p.conversationId,
    messageExternalId: p.messageExternalId,
    question: p.question,
    options: p.options.map((text, index) => ({ index, text, votes: tallies[index]! })),
    voters: p.votes.map((v) => ({ voterExternalId: v.voterExternalId, optionIndex: v.optionIndex, votedAt: iso(v.votedAt) })),
    sentAt: iso(p.sentAt),
  };
}

export function queryInt(value: unknown, fallback: number, min: number, max: number): number | null {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !/^\d{1,9}$/.test(value)) return null;
  const n = Number(value);
  return n >= min && n <= max ? n : null;
}

/** The account-scoped reads: conversations, capabilities, attachments, polls. */
export function registerReadRoutes(app: FastifyInstance, services: Services): void {
  app.get('/v1/conversations', async (request: FastifyRequest<{ Querystring: Record<string, string> }>, reply) => {
    const accountId = await authenticateRead(services, request, reply);
    if (!accountId) return reply;
    const limit = queryInt(request.query.limit, 50, 1, 200);
    if (limit === null) return sendError(reply, 'invalid_query', 'limit must be an integer from 1 to 200');
    const cursor = request.query.cursor ?? null;
    if (cursor !== null && !isUuid(cursor)) return sendError(reply, 'invalid_query', 'cursor must be the nextCursor of a previous page');
    const page = await services.store.listConversations(accountId, limit, cursor);
    return reply.send({ conversations: page.items.map(conversationBody), nextCursor: page.nextCursor });
  });

  app.get('/v1/conversations/:conversationId', async (request: FastifyRequest<{ Params: { conversationId: string } }>, reply) => {
    const accountId = await authenticateRead(services, request, reply);
    if (!accountId) return reply;
    const { conversationId } = request.params;
    if (!isUuid(conversationId)) return sendError(reply, 'invalid_conversationId', 'conversationId must be a UUID');
    const conversation = await services.store.getConversation(accountId, conversationId.toLowerCase());
    if (!conversation) return sendError(reply, 'conversation_not_found', 'no such conversation');
    return reply.send(conversationBody(conversation));
  });

  app.get('/v1/conversations/:conversationId/messages', async (request: FastifyRequest<{ Params: { conversationId: string }; Querystring: Record<string, string> }>, reply) => {
    const accountId = await authenticateRead(services, request, reply);
    if (!accountId) return reply;
    const { conversationId } = request.params;
    const limit = queryInt(request.query.limit, 50, 1, 200);
    if (limit === null) return sendError(reply, 'invalid_query', 'limit must be an integer from 1 to 200');
    const cursor = request.query.cursor ?? null;
    if (cursor !== null && (!/^[A-Za-z0-9_-]{1,512}$/.test(cursor) || !parseMessageCursor(cursor))) {
      return sendError(reply, 'invalid_query', 'cursor must be the nextCursor of a previous page');
    }
    // Not a UUID, another account's, or unknown: the same 404 (the service specification's rule for conversations).
    const conversation = isUuid(conversationId) ? await services.store.getConversation(accountId, conversationId.toLowerCase()) : null;
    if (!conversation) return sendError(reply, 'conversation_not_found', 'no such conversation');
    const page = await services.store.listMessages(accountId, conversation.id, limit, cursor);
    return reply.send({ messages: page.items.map(messageBody), nextCursor: page.nextCursor });
  });

  app.get('/v1/polls/:pollId', async (request: FastifyRequest<{ Params: { pollId: string } }>, reply) => {
    const accountId = await authenticateRead(services, request, reply);
    if (!accountId) return reply;
    const { pollId } = request.params;
    // A segment that is not a UUID names no command, so no poll: 404 like an unknown id (specs: Polls).
    const found = isUuid(pollId) ? await services.store.getPoll(accountId, pollId.toLowerCase()) : null;
    if (!found) return sendError(reply, 'poll_not_found', 'no poll the account sent has this id');
    return reply.send(pollBody(found));
  });

  app.get('/v1/capabilities', async (request, reply) => {
    const accountId = await authenticateRead(services, request, reply);
    if (!accountId) return reply;
    const lease = await services.store.liveLease(accountId, services.clock.now());
    if (!lease) return sendError(reply, 'no_live_connector', NO_LIVE_CONNECTOR);
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
    // An id no upload could have (the connector spec's pattern) names no attachment.
    const id = connectorSchemas.zUploadAttachmentPath.safeParse(request.params);
    const attachment = id.success ? await services.store.getAttachment(accountId, id.data.attachmentId) : null;
    if (!attachment) return sendError(reply, 'attachment_not_found', 'no such attachment');
    const fileName = attachment.fileName.replace(/["\\\r\n]/g, '_');
    return reply
      .type(attachment.mimeType)
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .header('x-content-type-options', 'nosniff')
      .send(Buffer.from(attachment.bytes));
  });
}
