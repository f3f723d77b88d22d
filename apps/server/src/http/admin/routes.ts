import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { adminSchemas } from '@switchboard/contracts';
import type { Services } from '../../services.ts';
import type { OperatorKeyRecord } from '../../store/types.ts';
import type { Result } from '../../result.ts';
import type { ApiError } from '../../errors.ts';
import { checkOperatorKey } from '../../auth/check.ts';
import * as admin from '../../admin/index.ts';
import type { Admin } from '../../admin/index.ts';
import { accountEvents } from '../events.ts';
import { parseJsonBody } from '../json-body.ts';
import { isJson } from '../protocol.ts';
import { replyError, sendError } from '../errors.ts';

const MAX_BODY_BYTES = 16 << 10;

type Query = Record<string, unknown>;
type Account = { Params: { accountId: string }; Querystring: Query };
type Endpoint = { Params: { accountId: string; endpointId: string }; Querystring: Query };
type Key = { Params: { keyId: string } };

/** A JSON body of the operation's schema; anything else is answered 415 or 400 `invalid_body` here. */
function body<T extends z.ZodType>(request: FastifyRequest, reply: FastifyReply, schema: T): Promise<z.infer<T> | null> {
  if (!isJson(request.headers['content-type'])) {
    sendError(reply, 'unsupported_media_type', 'send the body as Content-Type: application/json');
    return Promise.resolve(null);
  }
  return parseJsonBody(request, reply, schema, MAX_BODY_BYTES, 'invalid_body');
}

/** Whether the field of an object schema is a number once its optional and default wrappers are off. */
function isNumberField(schema: z.ZodObject, key: string): boolean {
  let field: unknown = schema.shape[key];
  while (field && typeof (field as { unwrap?: unknown }).unwrap === 'function') field = (field as { unwrap: () => unknown }).unwrap();
  return (field as { def?: { type?: string } } | undefined)?.def?.type === 'number';
}

/** The query, validated by the operation's generated schema (integers arrive as text); 400 `invalid_query` otherwise. */
function query<T extends z.ZodObject>(reply: FastifyReply, schema: T, raw: Query): z.infer<T> | null {
  const typed = Object.fromEntries(Object.entries(raw).map(([key, value]) =>
    [key, typeof value === 'string' && /^-?\d{1,15}$/.test(value) && isNumberField(schema, key) ? Number(value) : value]));
  const result = schema.safeParse(typed);
  if (result.success) return result.data;
  sendError(reply, 'invalid_query', result.error.issues.map((i) => `${i.path.join('.') || 'query'}: ${i.message}`).join('; '));
  return null;
}

/** A domain result as the answer: its value with `status`, or its error through the one error path. */
function answer<T>(reply: FastifyReply, result: Result<T, ApiError>, status = 200): FastifyReply {
  return result.ok ? reply.code(status).send(result.value) : replyError(reply, result.error);
}

/**
 * The admin API (specs/openapi/admin.yaml) as one Fastify plugin: its hook takes live operator
 * keys only (a read-only one for GETs only), and each route parses, calls the admin domain
 * (src/admin/) and answers.
 */
export function adminRoutes(services: Services): (app: FastifyInstance) => Promise<void> {
  return async (app) => {
    app.decorateRequest('operatorKey', undefined);
    app.addHook('preHandler', async (request, reply) => {
      const check = await checkOperatorKey(services, request.headers.authorization, request.raw.socket);
      if (!check.ok) return replyError(reply, check.error);
      if (check.value.role === 'read-only' && request.method !== 'GET' && request.method !== 'HEAD') {
        return sendError(reply, 'forbidden', 'this operator key is read-only; a change needs a full key');
      }
      request.operatorKey = check.value;
    });
    /** The operator making this request's change. */
    const by = (request: FastifyRequest): Admin => ({ ...services, operatorKeyId: request.operatorKey!.id });
    const events = accountEvents(app, services);

    app.get('/v1/admin/overview', async (request: FastifyRequest<{ Querystring: Query }>, reply) => {
      const q = query(reply, adminSchemas.zAdminOverviewQuery, request.query);
      return q ? reply.send(await admin.overview(services, q.minutes)) : reply;
    });

    // Accounts, their keys and the outbound pause.
    app.get('/v1/admin/accounts', async (_request, reply) => reply.send(await admin.listAccounts(services)));
    app.post('/v1/admin/accounts', async (request, reply) => {
      const b = await body(request, reply, adminSchemas.zAdminCreateAccountBody);
      return b ? answer(reply, await admin.createAccount(by(request), b.name), 201) : reply;
    });
    app.get('/v1/admin/accounts/:accountId', async (request: FastifyRequest<Account>, reply) =>
      answer(reply, await admin.getAccount(services, request.params.accountId)));
    app.post('/v1/admin/accounts/:accountId/pause', async (request: FastifyRequest<Account>, reply) =>
      answer(reply, await admin.setAccountPaused(by(request), request.params.accountId, true)));
    app.post('/v1/admin/accounts/:accountId/resume', async (request: FastifyRequest<Account>, reply) =>
      answer(reply, await admin.setAccountPaused(by(request), request.params.accountId, false)));
    app.get('/v1/admin/accounts/:accountId/policies', async (request: FastifyRequest<Account>, reply) =>
      answer(reply, await admin.getPolicies(services, request.params.accountId)));
    app.get('/v1/admin/accounts/:accountId/policies/usage', async (request: FastifyRequest<Account & { Querystring: Query }>, reply) => {
      const q = query(reply, adminSchemas.zAdminGetPolicyUsageQuery, request.query);
      return q ? answer(reply, await admin.policyUsage(services, request.params.accountId, q.conversationId ?? null)) : reply;
    });
    app.put('/v1/admin/accounts/:accountId/policies', async (request: FastifyRequest<Account>, reply) => {
      // Any JSON object here: the domain checks it against LinePolicies, so the CLI on the store is held to the same.
      const b = await body(request, reply, z.record(z.string(), z.unknown()));
      return b === null ? reply : answer(reply, await admin.setPolicies(by(request), request.params.accountId, b));
    });
    app.get('/v1/admin/accounts/:accountId/transfer-limits', async (request: FastifyRequest<Account>, reply) =>
      answer(reply, await admin.getTransferLimits(services, request.params.accountId)));
    app.put('/v1/admin/accounts/:accountId/transfer-limits', async (request: FastifyRequest<Account>, reply) => {
      // Any JSON object here: the domain checks it against TransferLimits, as it does the policies.
      const b = await body(request, reply, z.record(z.string(), z.unknown()));
      return b === null ? reply : answer(reply, await admin.setTransferLimits(by(request), request.params.accountId, b));
    });
    app.post('/v1/admin/outbound/pause', async (request, reply) => answer(reply, await admin.setAllPaused(by(request), true)));
    app.post('/v1/admin/outbound/resume', async (request, reply) => answer(reply, await admin.setAllPaused(by(request), false)));
    app.get('/v1/admin/accounts/:accountId/keys', async (request: FastifyRequest<Account>, reply) =>
      answer(reply, await admin.listKeys(services, request.params.accountId)));
    app.post('/v1/admin/accounts/:accountId/keys', async (request: FastifyRequest<Account>, reply) => {
      const b = await body(request, reply, adminSchemas.zAdminCreateKeyBody);
      return b ? answer(reply, await admin.createKey(by(request), request.params.accountId, b.kind, b.label), 201) : reply;
    });
    app.post('/v1/admin/keys/:keyId/revoke', async (request: FastifyRequest<Key>, reply) =>
      answer(reply, await admin.revokeKey(by(request), request.params.keyId)));
    app.get('/v1/admin/accounts/:accountId/conversations', async (request: FastifyRequest<Account>, reply) => {
      const q = query(reply, adminSchemas.zAdminListConversationsQuery, request.query);
      return q ? answer(reply, await admin.listConversations(services, request.params.accountId, q.limit, q.cursor ?? null)) : reply;
    });

    // Operator keys.
    app.get('/v1/admin/session', async (request, reply) => reply.send(admin.operatorKeyBody(request.operatorKey!)));
    app.get('/v1/admin/operator-keys', async (_request, reply) => reply.send(await admin.listOperatorKeys(services)));
    app.post('/v1/admin/operator-keys', async (request, reply) => {
      const b = await body(request, reply, adminSchemas.zAdminCreateOperatorKeyBody);
      return b ? answer(reply, await admin.createOperatorKey(by(request), b.role, b.label), 201) : reply;
    });
    app.post('/v1/admin/operator-keys/:keyId/revoke', async (request: FastifyRequest<Key>, reply) =>
      answer(reply, await admin.revokeOperatorKey(by(request), request.params.keyId)));

    app.get('/v1/admin/hosts', async (_request, reply) => reply.send(await admin.listHosts(services)));

    // Commands.
    app.get('/v1/admin/commands', async (request: FastifyRequest<{ Querystring: Query }>, reply) => {
      const q = query(reply, adminSchemas.zAdminListCommandsQuery, request.query);
      if (!q) return reply;
      const filter = {
        ...(q.accountId !== undefined ? { accountId: q.accountId.toLowerCase() } : {}),
        ...(q.status !== undefined ? { status: q.status } : {}),
        ...(q.errorCode != null ? { errorCode: q.errorCode } : {}),
        ...(q.type !== undefined ? { type: q.type } : {}),
        ...(q.createdAfter !== undefined ? { createdFrom: Date.parse(q.createdAfter) } : {}),
        ...(q.createdBefore !== undefined ? { createdBefore: Date.parse(q.createdBefore) } : {}),
      };
      return answer(reply, await admin.listCommands(services, filter, q.limit, q.cursor ?? null));
    });
    app.get('/v1/admin/commands/:commandId', async (request: FastifyRequest<{ Params: { commandId: string } }>, reply) =>
      answer(reply, await admin.getCommandDetail(services, request.params.commandId)));
    app.post('/v1/admin/commands/:commandId/release', async (request: FastifyRequest<{ Params: { commandId: string } }>, reply) =>
      answer(reply, await admin.releaseCommand(by(request), request.params.commandId)));
    app.post('/v1/admin/commands/:commandId/reject', async (request: FastifyRequest<{ Params: { commandId: string } }>, reply) => {
      // The body is optional: none at all is a rejection without a reason.
      const none = request.headers['content-type'] === undefined && !(Number(request.headers['content-length'] ?? 0) > 0) && request.headers['transfer-encoding'] === undefined;
      const b = none ? {} : await body(request, reply, adminSchemas.zRejection);
      return b ? answer(reply, await admin.rejectCommand(by(request), request.params.commandId, b.reason ?? null)) : reply;
    });

    // An account's response stream, served as GET /v1/events serves it.
    app.get('/v1/admin/accounts/:accountId/events', async (request: FastifyRequest<{ Params: { accountId: string }; Querystring: Record<string, string> }>, reply) => {
      const account = await admin.findAccountById(services, request.params.accountId);
      if (!account.ok) return replyError(reply, account.error);
      // An operator key's streams of one account count as one credential's.
      return events(request, reply, account.value.id, `${request.operatorKey!.id}/${account.value.id}`);
    });

    // Webhook endpoints.
    app.get('/v1/admin/webhook-endpoints', async (request: FastifyRequest<{ Querystring: Query }>, reply) => {
      const q = query(reply, adminSchemas.zAdminListAllWebhookEndpointsQuery, request.query);
      return q ? reply.send(await admin.listAllEndpoints(services, q.state)) : reply;
    });
    app.get('/v1/admin/accounts/:accountId/webhook-endpoints', async (request: FastifyRequest<Account>, reply) =>
      answer(reply, await admin.listEndpoints(services, request.params.accountId)));
    app.get('/v1/admin/accounts/:accountId/webhook-endpoints/:endpointId', async (request: FastifyRequest<Endpoint>, reply) =>
      answer(reply, await admin.getEndpoint(services, request.params.accountId, request.params.endpointId)));
    app.patch('/v1/admin/accounts/:accountId/webhook-endpoints/:endpointId', async (request: FastifyRequest<Endpoint>, reply) => {
      const b = await body(request, reply, adminSchemas.zAdminUpdateWebhookEndpointBody);
      const { accountId, endpointId } = request.params;
      return b ? answer(reply, await admin.setEndpointEnabled(by(request), accountId, endpointId, b.enabled)) : reply;
    });
    app.post('/v1/admin/accounts/:accountId/webhook-endpoints/:endpointId/rotate-secret', async (request: FastifyRequest<Endpoint>, reply) =>
      answer(reply, await admin.rotateSecret(by(request), request.params.accountId, request.params.endpointId)));
    app.get('/v1/admin/accounts/:accountId/webhook-endpoints/:endpointId/deliveries', async (request: FastifyRequest<Endpoint>, reply) => {
      const q = query(reply, adminSchemas.zAdminListWebhookDeliveriesQuery, request.query);
      const { accountId, endpointId } = request.params;
      return q ? answer(reply, await admin.listDeliveries(services, accountId, endpointId, q.limit, q.cursor === undefined ? null : Number(q.cursor))) : reply;
    });
    app.post('/v1/admin/accounts/:accountId/webhook-endpoints/:endpointId/resend', async (request: FastifyRequest<Endpoint>, reply) => {
      const b = await body(request, reply, adminSchemas.zAdminResendWebhookEventBody);
      const { accountId, endpointId } = request.params;
      return b ? answer(reply, await admin.resend(by(request), accountId, endpointId, Number(b.eventId))) : reply;
    });
    app.post('/v1/admin/accounts/:accountId/webhook-endpoints/:endpointId/replay', async (request: FastifyRequest<Endpoint>, reply) => {
      const b = await body(request, reply, adminSchemas.zAdminReplayWebhookEndpointBody);
      const { accountId, endpointId } = request.params;
      return b ? answer(reply, await admin.replay(by(request), accountId, endpointId, Number(b.after))) : reply;
    });
    app.post('/v1/admin/accounts/:accountId/webhook-endpoints/:endpointId/test', async (request: FastifyRequest<Endpoint>, reply) =>
      answer(reply, await admin.test(by(request), request.params.accountId, request.params.endpointId), 202));

    app.get('/v1/admin/audit', async (request: FastifyRequest<{ Querystring: Query }>, reply) => {
      const q = query(reply, adminSchemas.zAdminListAuditQuery, request.query);
      return q ? answer(reply, await admin.listAudit(services, q.limit, q.cursor ?? null)) : reply;
    });
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The live operator key making the request, once the hook checked it. */
    operatorKey: OperatorKeyRecord | undefined;
  }
}
