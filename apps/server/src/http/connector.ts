import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { connectorSchemas, type DispatchedCommand, type Lease } from '@switchboard/contracts';
import type { Services } from '../services.ts';
import type { CommandRecord, LeaseRecord } from '../store/types.ts';
import { recordPlatformEvents } from '../connector/platform-events.ts';
import { authenticate } from './auth.ts';
import { readBody } from './body.ts';
import { parseJsonBody } from './json-body.ts';
import { sendError } from './errors.ts';
import { iso } from '../clock.ts';

const MAX_JSON_BYTES = 1 << 20;
const MAX_ATTACHMENT_BYTES = 25 << 20;

function leaseBody(lease: LeaseRecord, ttlMs: number): Lease {
  return { accountId: lease.accountId, hostId: lease.hostId, epoch: lease.epoch, ttlMs, expiresAt: iso(lease.expiresAt) };
}

/** Reads and validates a JSON body against a connector protocol schema; answers 400 itself when it does not match. */
function parse<T extends z.ZodType>(request: FastifyRequest, reply: FastifyReply, schema: T): Promise<z.infer<T> | null> {
  return parseJsonBody(request, reply, schema, MAX_JSON_BYTES, 'invalid_request');
}

function leaseLost(reply: FastifyReply): FastifyReply {
  return sendError(reply, 409, 'lease_lost', 'this epoch is not the live lease; acquire the lease again');
}

async function resolve(services: Services, command: CommandRecord): Promise<DispatchedCommand> {
  let target: DispatchedCommand['target'];
  if (command.target.kind === 'conversation') {
    const conversation = (await services.store.getConversation(command.accountId, command.target.conversationId))!;
    target = {
      kind: 'conversation',
      conversationId: conversation.id,
      externalId: conversation.externalId,
      conversationKind: conversation.kind,
      participants: conversation.participants,
      membershipVersion: conversation.membershipVersion,
    };
  } else {
    target = command.target;
  }
  return {
    commandId: command.id,
    epoch: command.dispatchEpoch!,
    type: command.type,
    routingPath: command.routingPath,
    logicalActionId: command.logicalActionId,
    target,
    payload: command.payload,
    acceptedAt: iso(command.createdAt),
  };
}

/** The server side of specs/openapi/connector.yaml: leases, dispatch, settlements, platform events. */
export function registerConnectorRoutes(app: FastifyInstance, services: Services): void {
  const { store, clock, config } = services;
  // Shutting down answers open polls at once, empty, and waits for those answers to be sent, so
  // their connections are idle (and closed) when the server closes.
  const closing = new AbortController();
  const polls = new Set<Promise<unknown>>();
  app.addHook('preClose', async () => {
    closing.abort();
    await Promise.allSettled(polls);
  });

  app.post('/v1/connector/lease', async (request, reply) => {
    const accountId = await authenticate(services, request, reply, 'connector');
    if (!accountId) return reply;
    const body = await parse(request, reply, connectorSchemas.zLeaseRequest);
    if (!body) return reply;
    const result = await store.acquireLease({ accountId, ...body }, clock.now(), config.leaseTtlMs);
    if (!result.ok) {
      return sendError(reply, 409, 'lease_held', `host "${result.holder.hostId}" holds the lease`, {
        holderHostId: result.holder.hostId,
        expiresAt: iso(result.holder.expiresAt),
      });
    }
    request.log.info({ accountId, hostId: body.hostId, epoch: result.lease.epoch }, 'lease acquired');
    // Commands dispatched under an earlier epoch and never settled go to this one.
    services.waiters.wake(accountId);
    return reply.send(leaseBody(result.lease, config.leaseTtlMs));
  });

  app.post('/v1/connector/lease/renew', async (request, reply) => {
    const accountId = await authenticate(services, request, reply, 'connector');
    if (!accountId) return reply;
    const body = await parse(request, reply, connectorSchemas.zEpochRequest);
    if (!body) return reply;
    const lease = await store.renewLease(accountId, body.epoch, clock.now(), config.leaseTtlMs);
    return lease ? reply.send(leaseBody(lease, config.leaseTtlMs)) : leaseLost(reply);
  });

  app.post('/v1/connector/lease/release', async (request, reply) => {
    const accountId = await authenticate(services, request, reply, 'connector');
    if (!accountId) return reply;
    const body = await parse(request, reply, connectorSchemas.zEpochRequest);
    if (!body) return reply;
    const released = await store.releaseLease(accountId, body.epoch, clock.now());
    if (!released) return leaseLost(reply);
    services.waiters.wake(accountId);
    return reply.code(204).send();
  });

  app.post('/v1/connector/dispatch', async (request, reply) => {
    const accountId = await authenticate(services, request, reply, 'connector');
    if (!accountId) return reply;
    const body = await parse(request, reply, connectorSchemas.zDispatchRequest);
    if (!body) return reply;
    const abort = new AbortController();
    request.raw.once('close', () => abort.abort());
    reply.raw.once('close', () => abort.abort());
    const onClosing = () => abort.abort();
    closing.signal.addEventListener('abort', onClosing, { once: true });
    const sent = new Promise((resolve) => reply.raw.once('close', resolve));
    polls.add(sent);
    void sent.then(() => {
      polls.delete(sent);
      closing.signal.removeEventListener('abort', onClosing);
    });
    const deadline = clock.now() + (body.waitMs ?? 20_000);
    for (;;) {
      if (abort.signal.aborted) return reply.send({ commands: [] });
      // An answer lost on its way (a closed connection, a crash) is no loss: the host's next
      // poll does not list those commands in `holding`, so they are handed out again.
      const commands = await store.dispatchCommands(accountId, body.epoch, body.max ?? 20, body.holding, clock.now());
      if (commands === null) return leaseLost(reply);
      const remaining = deadline - clock.now();
      if (commands.length > 0 || remaining <= 0 || abort.signal.aborted) {
        return reply.send({ commands: await Promise.all(commands.map((c) => resolve(services, c))) });
      }
      await services.waiters.wait(accountId, remaining, abort.signal);
    }
  });

  app.post('/v1/connector/settlements', async (request, reply) => {
    const accountId = await authenticate(services, request, reply, 'connector');
    if (!accountId) return reply;
    const body = await parse(request, reply, connectorSchemas.zSettlement);
    if (!body) return reply;
    if ((body.status === 'succeeded') !== (body.errorCode === null)) {
      return sendError(reply, 400, 'invalid_request', 'errorCode is null exactly when status is succeeded');
    }
    const now = clock.now();
    const result = await store.settleCommand({
      accountId,
      commandId: body.commandId,
      epoch: body.epoch,
      status: body.status,
      errorCode: body.errorCode,
      detail: body.detail ?? null,
      at: now,
      eventData: (c) => ({
        commandId: c.id,
        logicalActionId: c.logicalActionId,
        status: c.status,
        errorCode: c.errorCode,
        commandType: c.type,
        routingPath: c.routingPath,
        conversationId: c.conversationId,
      }),
    });
    request.commandId = body.commandId;
    switch (result.outcome) {
      case 'not_found':
        return sendError(reply, 404, 'command_not_found', 'no such command for this account');
      case 'lease_lost':
        return leaseLost(reply);
      case 'not_dispatched':
        return sendError(reply, 409, 'not_dispatched', 'this command was not dispatched to this epoch; settle it once a dispatch poll hands it over');
      case 'conflict':
        return sendError(reply, 409, 'already_settled', `the command already settled ${result.command.status}`);
      case 'settled': {
        const c = result.command;
        services.hub.notify(accountId);
        services.metrics.settlements.inc({ type: c.type, routing_path: c.routingPath, status: c.status, error_code: c.errorCode ?? '' });
        services.metrics.settleLatency.observe({ routing_path: c.routingPath }, (now - c.createdAt) / 1000);
        request.log.info({ commandId: c.id, status: c.status, errorCode: c.errorCode, detail: body.detail }, 'command settled');
      }
    }
    const c = result.command;
    return reply.send({ commandId: c.id, status: c.status as 'succeeded' | 'failed', errorCode: c.errorCode });
  });

  app.post('/v1/connector/platform-events', async (request, reply) => {
    const accountId = await authenticate(services, request, reply, 'connector');
    if (!accountId) return reply;
    const body = await parse(request, reply, connectorSchemas.zPlatformEventBatch);
    if (!body) return reply;
    const lease = await store.liveLease(accountId, clock.now());
    if (!lease || lease.epoch !== body.epoch) return leaseLost(reply);
    const result = await recordPlatformEvents(services, accountId, body.events);
    if (!result.ok) {
      return sendError(reply, 400, 'invalid_request', `conversation "${result.unknownConversation}" is unknown; report conversation.appeared first`);
    }
    return reply.send({ recorded: result.recorded });
  });

  app.put('/v1/connector/attachments/:attachmentId', async (request: FastifyRequest<{ Params: { attachmentId: string }; Querystring: Record<string, string> }>, reply) => {
    const accountId = await authenticate(services, request, reply, 'connector');
    if (!accountId) return reply;
    const params = connectorSchemas.zUploadAttachmentPath.safeParse(request.params);
    const query = connectorSchemas.zUploadAttachmentQuery.safeParse({ ...request.query, epoch: Number(request.query.epoch) });
    if (!params.success || !query.success) return sendError(reply, 400, 'invalid_request', 'attachmentId, fileName or epoch is invalid');
    const lease = await store.liveLease(accountId, clock.now());
    if (!lease || lease.epoch !== query.data.epoch) return leaseLost(reply);
    const body = await readBody(request.raw, MAX_ATTACHMENT_BYTES);
    if (!body.ok) return sendError(reply, 400, 'invalid_request', 'an attachment is at most 25 MiB');
    await store.putAttachment({
      id: params.data.attachmentId,
      accountId,
      fileName: query.data.fileName,
      mimeType: request.headers['content-type'] ?? 'application/octet-stream',
      bytes: body.bytes,
      createdAt: clock.now(),
    });
    return reply.code(201).send({ attachmentId: params.data.attachmentId, byteSize: body.bytes.length });
  });
}
