import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { connectorSchemas, type Lease } from '@switchboard/contracts';
import type { Services } from '../services.ts';
import type { LeaseRecord, Store, TransferRecord } from '../store/types.ts';
import { iso } from '../clock.ts';
import { ApiError } from '../errors.ts';
import { settleCommand, settleCommands } from '../commands/settle.ts';
import { recordPlatformEvents } from '../stream/platform-events.ts';
import { acquireLease, isLiveEpoch, leaseLost, releaseLease, renewLease } from '../leases/leases.ts';
import { authenticate } from './auth.ts';
import { readBody } from './body.ts';
import { hasNul, parseJsonBody } from './json-body.ts';
import { replyError, sendError } from './errors.ts';
import { contentDisposition } from './transfers.ts';
import { chunkCount } from '../store/rules/transfers.ts';

const MAX_JSON_BYTES = 1 << 20;
const MAX_ATTACHMENT_BYTES = 25 << 20;

function leaseBody(lease: LeaseRecord, ttlMs: number): Lease {
  return { accountId: lease.accountId, hostId: lease.hostId, epoch: lease.epoch, ttlMs, expiresAt: iso(lease.expiresAt), keptWhilePolling: true };
}

/** Reads and validates a JSON body against a connector protocol schema; answers 400 itself when it does not match. */
function parse<T extends z.ZodType>(request: FastifyRequest, reply: FastifyReply, schema: T): Promise<z.infer<T> | null> {
  return parseJsonBody(request, reply, schema, MAX_JSON_BYTES, 'invalid_request');
}

/** A transfer's bytes, chunk by chunk as the store keeps them; fails if one is missing (a purge mid-read). */
async function* transferBytes(store: Store, transfer: TransferRecord): AsyncGenerator<Uint8Array> {
  for (let seq = 0; seq < chunkCount(transfer.byteSize); seq++) {
    const chunk = await store.readTransferChunk(transfer.accountId, transfer.id, seq);
    if (!chunk) throw new Error(`chunk ${seq} of transfer ${transfer.id} is missing`);
    yield chunk;
  }
}

/**
 * The server side of specs/openapi/connector.yaml but the dispatch poll (dispatch.ts): leases,
 * settlements, platform events, transfers and attachments, as one Fastify plugin. Its hook
 * authenticates the connector key of every route in it, and each route parses, calls the domain
 * module and maps the result.
 */
export function connectorRoutes(services: Services): (app: FastifyInstance) => Promise<void> {
  const { store, clock, config } = services;
  return async (app) => {
    app.addHook('preHandler', async (request, reply) => {
      if (!(await authenticate(services, request, reply, 'connector'))) return reply;
    });

    app.post('/v1/connector/lease', async (request, reply) => {
      const body = await parse(request, reply, connectorSchemas.zLeaseRequest);
      if (!body) return reply;
      const result = await acquireLease(services, request.accountId!, body);
      if (!result.ok) {
        const { hostId, expiresAt } = result.error.holder;
        return sendError(reply, 'lease_held', `host "${hostId}" holds the lease`, { holderHostId: hostId, expiresAt: iso(expiresAt) });
      }
      request.log.info({ accountId: request.accountId, hostId: body.hostId, epoch: result.value.epoch }, 'lease acquired');
      return reply.send(leaseBody(result.value, config.leaseTtlMs));
    });

    app.post('/v1/connector/lease/renew', async (request, reply) => {
      const body = await parse(request, reply, connectorSchemas.zEpochRequest);
      if (!body) return reply;
      const lease = await renewLease(services, request.accountId!, body.epoch);
      return lease ? reply.send(leaseBody(lease, config.leaseTtlMs)) : replyError(reply, leaseLost());
    });

    app.post('/v1/connector/lease/release', async (request, reply) => {
      const body = await parse(request, reply, connectorSchemas.zEpochRequest);
      if (!body) return reply;
      if (!(await releaseLease(services, request.accountId!, body.epoch))) return replyError(reply, leaseLost());
      return reply.code(204).send();
    });

    app.post('/v1/connector/settlements', async (request, reply) => {
      const body = await parse(request, reply, connectorSchemas.zSettlement);
      if (!body) return reply;
      request.commandId = body.commandId;
      const result = await settleCommand({ ...services, log: request.log }, request.accountId!, body);
      if (!result.ok) return replyError(reply, result.error);
      const c = result.value;
      return reply.send({ commandId: c.id, status: c.status as 'succeeded' | 'failed', errorCode: c.errorCode });
    });

    app.post('/v1/connector/settlements/batch', async (request, reply) => {
      const body = await parse(request, reply, connectorSchemas.zSettlementBatch);
      if (!body) return reply;
      const results = await settleCommands({ ...services, log: request.log }, request.accountId!, body.epoch, body.settlements);
      return reply.send({ results });
    });

    app.post('/v1/connector/platform-events', async (request, reply) => {
      const body = await parse(request, reply, connectorSchemas.zPlatformEventBatch);
      if (!body) return reply;
      if (!(await isLiveEpoch(services, request.accountId!, body.epoch))) return replyError(reply, leaseLost());
      const result = await recordPlatformEvents(services, request.accountId!, body.events);
      if (!result.ok) {
        return sendError(reply, 'invalid_request', `conversation "${result.error.unknownConversation}" is unknown; report conversation.appeared first`);
      }
      return reply.send({ recorded: result.value.recorded });
    });

    app.get('/v1/connector/transfers/:transferId', async (request: FastifyRequest<{ Params: { transferId: string }; Querystring: Record<string, string> }>, reply) => {
      const accountId = request.accountId!;
      const params = connectorSchemas.zFetchTransferPath.safeParse(request.params);
      const query = connectorSchemas.zFetchTransferQuery.safeParse({ ...request.query, epoch: Number(request.query.epoch) });
      if (!params.success || !query.success) return sendError(reply, 'invalid_request', 'transferId, commandId or epoch is invalid');
      const commandId = query.data.commandId.toLowerCase();
      request.commandId = commandId;
      if (!(await isLiveEpoch(services, accountId, query.data.epoch))) return replyError(reply, leaseLost());
      // Off, nothing was ever uploaded: every id is unknown.
      const transfer = config.transfers === 'enabled' ? await store.fetchTransfer(accountId, params.data.transferId, commandId) : null;
      if (!transfer) return sendError(reply, 'transfer_not_found', 'no usable transfer by this id for this command (unknown, expired before the command was accepted, or still uploading)');
      return reply
        .header('content-type', transfer.mimeType)
        .header('content-length', String(transfer.byteSize))
        .header('content-disposition', contentDisposition(transfer.fileName))
        .header('x-switchboard-sha256', transfer.sha256)
        .header('x-content-type-options', 'nosniff')
        .send(Readable.from(transferBytes(store, transfer), { objectMode: false }));
    });

    app.put('/v1/connector/attachments/:attachmentId', async (request: FastifyRequest<{ Params: { attachmentId: string }; Querystring: Record<string, string> }>, reply) => {
      const accountId = request.accountId!;
      const params = connectorSchemas.zUploadAttachmentPath.safeParse(request.params);
      const query = connectorSchemas.zUploadAttachmentQuery.safeParse({ ...request.query, epoch: Number(request.query.epoch) });
      if (!params.success || !query.success || hasNul(query.data.fileName)) return sendError(reply, 'invalid_request', 'attachmentId, fileName or epoch is invalid');
      if (!(await isLiveEpoch(services, accountId, query.data.epoch))) return replyError(reply, leaseLost());
      const body = await readBody(request.raw, MAX_ATTACHMENT_BYTES);
      if (!body.ok) return replyError(reply, new ApiError('invalid_request', 'an attachment is at most 25 MiB'));
      await store.putAttachment({
        id: params.data.attachmentId,
        accountId,
        fileName: query.data.fileName,
        mimeType: request.headers['content-type'] ?? 'application/octet-stream',
        bytes: body.value,
        createdAt: clock.now(),
      });
      return reply.code(201).send({ attachmentId: params.data.attachmentId, byteSize: body.value.length });
    });
  };
}
