import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { schemas } from '@switchboard/contracts';
import type { Services } from '../services.ts';
import type { WebhookEndpointRecord, WebhookStore } from '../store/webhooks.ts';
import {
  createEndpoint, deleteEndpoint, deliveryBody, describeEndpoint, describeEndpoints, findEndpoint, listDeliveries, replayEndpoint, rotateEndpointSecret, testEndpoint, updateEndpoint,
} from '../webhooks/endpoints.ts';
import { authenticateRead } from './auth.ts';
import { parseJsonBody } from './json-body.ts';
import { replyError, sendError } from './errors.ts';
import { queryInt } from './read.ts';

type Params = { Params: { endpointId: string } };

const MAX_BODY_BYTES = 16 << 10;
const parse = <T extends Parameters<typeof parseJsonBody>[2]>(request: FastifyRequest, reply: FastifyReply, schema: T) => parseJsonBody(request, reply, schema, MAX_BODY_BYTES, 'invalid_body');

/** /v1/webhook-endpoints: an account's endpoints, their delivery log, replay and test (the rules: webhooks/endpoints.ts). */
export function registerWebhookRoutes(app: FastifyInstance, services: Services, webhooks: WebhookStore = services.store.webhooks): void {
  const send = async (reply: FastifyReply, endpoint: WebhookEndpointRecord, extra: { secret?: string } = {}, status = 200) =>
    reply.code(status).send({ ...(await describeEndpoint(services, endpoint)), ...extra });
  /** The caller's endpoint named in the path, or a 404 answered; another account's is unknown. */
  const owned = async (request: FastifyRequest<Params>, reply: FastifyReply): Promise<WebhookEndpointRecord | null> => {
    const accountId = await authenticateRead(services, request, reply);
    if (!accountId) return null;
    const found = await findEndpoint(services, accountId, request.params.endpointId);
    if (!found.ok) {
      replyError(reply, found.error);
      return null;
    }
    return found.value;
  };

  app.get('/v1/webhook-endpoints', async (request, reply) => {
    const accountId = await authenticateRead(services, request, reply);
    if (!accountId) return reply;
    const endpoints = await webhooks.listEndpoints(accountId);
    return reply.send({ endpoints: await describeEndpoints(services, accountId, endpoints) });
  });

  app.post('/v1/webhook-endpoints', async (request, reply) => {
    const accountId = await authenticateRead(services, request, reply);
    if (!accountId) return reply;
    const body = await parse(request, reply, schemas.zWebhookEndpointCreate);
    if (!body) return reply;
    const created = await createEndpoint(services, accountId, body);
    if (!created.ok) return replyError(reply, created.error);
    return send(reply, created.value.endpoint, { secret: created.value.secret }, 201);
  });

  app.get('/v1/webhook-endpoints/:endpointId', async (request: FastifyRequest<Params>, reply) => {
    const endpoint = await owned(request, reply);
    return endpoint ? send(reply, endpoint) : reply;
  });

  app.patch('/v1/webhook-endpoints/:endpointId', async (request: FastifyRequest<Params>, reply) => {
    const endpoint = await owned(request, reply);
    if (!endpoint) return reply;
    const body = await parse(request, reply, schemas.zWebhookEndpointUpdate);
    if (!body) return reply;
    const updated = await updateEndpoint(services, endpoint.accountId, endpoint.id, body);
    return updated.ok ? send(reply, updated.value) : replyError(reply, updated.error);
  });

  app.delete('/v1/webhook-endpoints/:endpointId', async (request: FastifyRequest<Params>, reply) => {
    const endpoint = await owned(request, reply);
    if (!endpoint) return reply;
    const deleted = await deleteEndpoint(services, endpoint.accountId, endpoint.id);
    return deleted.ok ? reply.code(204).send() : replyError(reply, deleted.error);
  });

  app.post('/v1/webhook-endpoints/:endpointId/rotate-secret', async (request: FastifyRequest<Params>, reply) => {
    const endpoint = await owned(request, reply);
    if (!endpoint) return reply;
    const rotated = await rotateEndpointSecret(services, endpoint.accountId, endpoint.id);
    return rotated.ok ? send(reply, rotated.value.endpoint, { secret: rotated.value.secret }) : replyError(reply, rotated.error);
  });

  app.get('/v1/webhook-endpoints/:endpointId/deliveries', async (request: FastifyRequest<Params & { Querystring: Record<string, string> }>, reply) => {
    const endpoint = await owned(request, reply);
    if (!endpoint) return reply;
    const limit = queryInt(request.query.limit, 50, 1, 200);
    if (limit === null) return sendError(reply, 'invalid_query', 'limit must be an integer from 1 to 200');
    const cursor = request.query.cursor;
    if (cursor !== undefined && !/^\d{1,15}$/.test(cursor)) return sendError(reply, 'invalid_query', 'cursor must be the nextCursor of a previous page');
    const page = await listDeliveries(services, endpoint.accountId, endpoint.id, limit, cursor === undefined ? null : Number(cursor));
    return reply.send({ deliveries: page.items.map(deliveryBody), nextCursor: page.nextCursor });
  });

  app.post('/v1/webhook-endpoints/:endpointId/replay', async (request: FastifyRequest<Params>, reply) => {
    const endpoint = await owned(request, reply);
    if (!endpoint) return reply;
    const body = await parse(request, reply, schemas.zWebhookReplay);
    if (!body) return reply;
    const replayed = await replayEndpoint(services, endpoint.accountId, endpoint.id, Number(body.after));
    return replayed.ok ? send(reply, replayed.value) : replyError(reply, replayed.error);
  });

  app.post('/v1/webhook-endpoints/:endpointId/test', async (request: FastifyRequest<Params>, reply) => {
    const endpoint = await owned(request, reply);
    if (!endpoint) return reply;
    const tested = await testEndpoint(services, endpoint.accountId, endpoint.id);
    return tested.ok ? reply.code(202).send(tested.value) : replyError(reply, tested.error);
  });
}
