import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { eventSchemas, schemas, type components } from '@switchboard/contracts';
import type { Services } from '../services.ts';
import type { WebhookEndpointRecord, WebhookStore } from '../store/webhooks.ts';
import { iso } from '../clock.ts';
import { isUuid } from '../ids.ts';
import { checkWebhookUrl } from '../webhooks/address.ts';
import { newSecret } from '../webhooks/signing.ts';
import { authenticateRead } from './auth.ts';
import { parseJsonBody } from './json-body.ts';
import { sendError } from './errors.ts';
import { oldestRetainedId } from './events.ts';
import { queryInt } from './read.ts';

type Endpoint = components['schemas']['WebhookEndpoint'];
type Params = { Params: { endpointId: string } };

const MAX_BODY_BYTES = 16 << 10;
const parse = <T extends Parameters<typeof parseJsonBody>[2]>(request: FastifyRequest, reply: FastifyReply, schema: T) => parseJsonBody(request, reply, schema, MAX_BODY_BYTES, 'invalid_body');
export const MAX_ENDPOINTS = 20;
const eventTypes: readonly string[] = eventSchemas.zEventType.options;

function endpointBody(e: WebhookEndpointRecord, backlog: number, now: number): Endpoint {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    eventTypes: e.eventTypes,
    enabled: e.enabled,
    disabledReason: e.disabledReason,
    disabledAt: e.disabledAt === null ? null : iso(e.disabledAt),
    cursor: String(e.cursor),
    backlog,
    createdAt: iso(e.createdAt),
    previousSecretExpiresAt: e.previousSecretExpiresAt !== null && e.previousSecretExpiresAt > now ? iso(e.previousSecretExpiresAt) : null,
  };
}

/** The url and event types a create or update asks for, checked; answers the error itself. */
function checkFields(services: Services, reply: FastifyReply, fields: { url?: string | undefined; eventTypes?: string[] | null | undefined }): boolean {
  const unknown = fields.eventTypes?.find((type) => !eventTypes.includes(type));
  if (unknown !== undefined) {
    sendError(reply, 'invalid_body', `eventTypes: "${unknown}" is not a stream event type (${eventTypes.join(', ')})`);
    return false;
  }
  if (fields.url !== undefined) {
    const check = checkWebhookUrl(fields.url, services.config.webhooks.allowHosts);
    if (!check.ok) {
      sendError(reply, 'webhook_url_refused', check.error);
      return false;
    }
  }
  return true;
}

/** /v1/webhook-endpoints: an account's endpoints, their delivery log, replay and test. */
export function registerWebhookRoutes(app: FastifyInstance, services: Services, webhooks: WebhookStore): void {
  const { clock } = services;
  const notFound = (reply: FastifyReply) => sendError(reply, 'webhook_endpoint_not_found', 'no such webhook endpoint');
  const send = async (reply: FastifyReply, endpoint: WebhookEndpointRecord, extra: { secret?: string } = {}, status = 200) => {
    const backlog = (await webhooks.backlogs(endpoint.accountId)).get(endpoint.id) ?? 0;
    return reply.code(status).send({ ...endpointBody(endpoint, backlog, clock.now()), ...extra });
  };
  /** The caller's endpoint named in the path, or a 404 answered; another account's is unknown. */
  const owned = async (request: FastifyRequest<Params>, reply: FastifyReply): Promise<{ accountId: string; id: string } | null> => {
    const accountId = await authenticateRead(services, request, reply);
    if (!accountId) return null;
    const id = request.params.endpointId.toLowerCase();
    if (!isUuid(id) || !(await webhooks.getEndpoint(accountId, id))) {
      notFound(reply);
      return null;
    }
    return { accountId, id };
  };

  app.get('/v1/webhook-endpoints', async (request, reply) => {
    const accountId = await authenticateRead(services, request, reply);
    if (!accountId) return reply;
    const [endpoints, backlogs] = await Promise.all([webhooks.listEndpoints(accountId), webhooks.backlogs(accountId)]);
    return reply.send({ endpoints: endpoints.map((e) => endpointBody(e, backlogs.get(e.id) ?? 0, clock.now())) });
  });

  app.post('/v1/webhook-endpoints', async (request, reply) => {
    const accountId = await authenticateRead(services, request, reply);
    if (!accountId) return reply;
    const body = await parse(request, reply, schemas.zWebhookEndpointCreate);
    if (!body || !checkFields(services, reply, body)) return reply;
    const secret = newSecret();
    const created = await webhooks.createEndpoint(
      { id: services.ids.next(), accountId, url: body.url, description: body.description ?? null, eventTypes: body.eventTypes ?? null, secret, createdAt: clock.now() },
      MAX_ENDPOINTS,
    );
    if (!created) return sendError(reply, 'webhook_endpoint_limit', `the account already has ${MAX_ENDPOINTS} webhook endpoints`);
    return send(reply, created, { secret }, 201);
  });

  app.get('/v1/webhook-endpoints/:endpointId', async (request: FastifyRequest<Params>, reply) => {
    const found = await owned(request, reply);
    if (!found) return reply;
    return send(reply, (await webhooks.getEndpoint(found.accountId, found.id))!);
  });

  app.patch('/v1/webhook-endpoints/:endpointId', async (request: FastifyRequest<Params>, reply) => {
    const found = await owned(request, reply);
    if (!found) return reply;
    const body = await parse(request, reply, schemas.zWebhookEndpointUpdate);
    if (!body) return reply;
    if (Object.keys(body).length === 0) return sendError(reply, 'invalid_body', 'name at least one of url, eventTypes, description, enabled');
    if (!checkFields(services, reply, body)) return reply;
    const change = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
    const updated = await webhooks.updateEndpoint(found.accountId, found.id, change, clock.now());
    if (!updated) return notFound(reply);
    if (body.enabled) services.hub.notify(found.accountId);
    return send(reply, updated);
  });

  app.delete('/v1/webhook-endpoints/:endpointId', async (request: FastifyRequest<Params>, reply) => {
    const found = await owned(request, reply);
    if (!found) return reply;
    if (!(await webhooks.deleteEndpoint(found.accountId, found.id))) return notFound(reply);
    return reply.code(204).send();
  });

  app.post('/v1/webhook-endpoints/:endpointId/rotate-secret', async (request: FastifyRequest<Params>, reply) => {
    const found = await owned(request, reply);
    if (!found) return reply;
    const secret = newSecret();
    const rotated = await webhooks.rotateSecret(found.accountId, found.id, secret, clock.now(), services.config.webhooks.rotationOverlapMs);
    if (!rotated) return notFound(reply);
    return send(reply, rotated, { secret });
  });

  app.get('/v1/webhook-endpoints/:endpointId/deliveries', async (request: FastifyRequest<Params & { Querystring: Record<string, string> }>, reply) => {
    const found = await owned(request, reply);
    if (!found) return reply;
    const limit = queryInt(request.query.limit, 50, 1, 200);
    if (limit === null) return sendError(reply, 'invalid_query', 'limit must be an integer from 1 to 200');
    const cursor = request.query.cursor;
    if (cursor !== undefined && !/^\d{1,15}$/.test(cursor)) return sendError(reply, 'invalid_query', 'cursor must be the nextCursor of a previous page');
    const page = await webhooks.listDeliveries(found.accountId, found.id, limit, cursor === undefined ? null : Number(cursor));
    return reply.send({
      deliveries: page.items.map((d) => ({ eventId: String(d.eventId), attempt: d.attempt, at: iso(d.at), status: d.status, error: d.error, latencyMs: d.latencyMs })),
      nextCursor: page.nextCursor,
    });
  });

  app.post('/v1/webhook-endpoints/:endpointId/replay', async (request: FastifyRequest<Params>, reply) => {
    const found = await owned(request, reply);
    if (!found) return reply;
    const body = await parse(request, reply, schemas.zWebhookReplay);
    if (!body) return reply;
    const after = Number(body.after);
    const purgedThrough = after === 0 ? 0 : await services.store.eventsPurgedThrough(found.accountId);
    if (after !== 0 && (after < purgedThrough || after > (await services.store.newestEventId(found.accountId)))) {
      const oldestId = await oldestRetainedId(services, found.accountId, purgedThrough);
      return sendError(reply, 'cursor_expired', 'this cursor is not in the account\'s log', { oldestId });
    }
    const replayed = await webhooks.replayEndpoint(found.accountId, found.id, after);
    if (!replayed) return notFound(reply);
    services.hub.notify(found.accountId);
    return send(reply, replayed);
  });

  app.post('/v1/webhook-endpoints/:endpointId/test', async (request: FastifyRequest<Params>, reply) => {
    const found = await owned(request, reply);
    if (!found) return reply;
    const [event] = await services.store.appendEvents(found.accountId, [{ type: 'webhook.test', time: clock.now(), data: { endpointId: found.id } }]);
    services.hub.notify(found.accountId);
    return reply.code(202).send({ eventId: String(event!.id) });
  });
}
