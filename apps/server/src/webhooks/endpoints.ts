import { eventSchemas, type components } from '@switchboard/contracts';
import type { Clock } from '../clock.ts';
import { iso } from '../clock.ts';
import type { Config } from '../config.ts';
import { ApiError } from '../errors.ts';
import { isUuid, type IdSource } from '../ids.ts';
import { err, ok, type Result } from '../result.ts';
import type { StreamHub } from '../stream/hub.ts';
import type { Page, Store } from '../store/types.ts';
import type { DeliveryAttempt, WebhookEndpointChange, WebhookEndpointRecord } from '../store/webhooks.ts';
import { checkWebhookUrl } from './address.ts';
import { deliverEvent } from './send.ts';
import { newSecret } from './signing.ts';

/**
 * What can be done to an account's webhook endpoints, decided once: the account's own routes
 * (/v1/webhook-endpoints) and the operator's (/v1/admin/...) both call these.
 */

type Schemas = components['schemas'];
export type EndpointBody = Schemas['WebhookEndpoint'];

export interface WebhookDeps {
  store: Store;
  clock: Clock;
  ids: IdSource;
  config: Pick<Config, 'webhooks'>;
  /** Wakes the account's streams and deliveries; absent where no server runs (the CLI on the store). */
  hub?: Pick<StreamHub, 'notify'> | undefined;
}

export const MAX_ENDPOINTS = 20;
const eventTypes: readonly string[] = eventSchemas.zEventType.options;

const notFound = () => new ApiError('webhook_endpoint_not_found', 'no such webhook endpoint');

export function endpointBody(e: WebhookEndpointRecord, backlog: number, now: number): EndpointBody {
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

/** An attempt as the account's delivery log shows it. */
export function deliveryBody(d: DeliveryAttempt): Schemas['WebhookDelivery'] {
  return { eventId: String(d.eventId), attempt: d.attempt, at: iso(d.at), status: d.status, error: d.error, latencyMs: d.latencyMs };
}

/** The endpoints' bodies, with their backlogs read now (`accountId` null: they may be any account's). */
export async function describeEndpoints(deps: Pick<WebhookDeps, 'store' | 'clock'>, accountId: string | null, endpoints: readonly WebhookEndpointRecord[]): Promise<EndpointBody[]> {
  const backlogs = await deps.store.webhooks.backlogs(accountId);
  const now = deps.clock.now();
  return endpoints.map((e) => endpointBody(e, backlogs.get(e.id) ?? 0, now));
}

export async function describeEndpoint(deps: Pick<WebhookDeps, 'store' | 'clock'>, endpoint: WebhookEndpointRecord): Promise<EndpointBody> {
  const [body] = await describeEndpoints(deps, endpoint.accountId, [endpoint]);
  return body!;
}

/** The account's endpoint named `id` (any case); an id that is not a UUID, or another account's, is not found. */
export async function findEndpoint(deps: Pick<WebhookDeps, 'store'>, accountId: string, id: string): Promise<Result<WebhookEndpointRecord, ApiError>> {
  const endpoint = isUuid(id) ? await deps.store.webhooks.getEndpoint(accountId, id.toLowerCase()) : null;
  return endpoint ? ok(endpoint) : err(notFound());
}

/** The url and event types a create or update asks for, checked. */
export function checkEndpointFields(deps: Pick<WebhookDeps, 'config'>, fields: { url?: string | undefined; eventTypes?: string[] | null | undefined }): Result<void, ApiError> {
  const unknown = fields.eventTypes?.find((type) => !eventTypes.includes(type));
  if (unknown !== undefined) return err(new ApiError('invalid_body', `eventTypes: "${unknown}" is not a stream event type (${eventTypes.join(', ')})`));
  if (fields.url !== undefined) {
    const check = checkWebhookUrl(fields.url, deps.config.webhooks.allowHosts);
    if (!check.ok) return err(new ApiError('webhook_url_refused', check.error));
  }
  return ok(undefined);
}

export async function createEndpoint(deps: WebhookDeps, accountId: string, body: Schemas['WebhookEndpointCreate']): Promise<Result<{ endpoint: WebhookEndpointRecord; secret: string }, ApiError>> {
  const checked = checkEndpointFields(deps, body);
  if (!checked.ok) return checked;
  const secret = newSecret();
  const endpoint = await deps.store.webhooks.createEndpoint(
    { id: deps.ids.next(), accountId, url: body.url, description: body.description ?? null, eventTypes: body.eventTypes ?? null, secret, createdAt: deps.clock.now() },
    MAX_ENDPOINTS,
  );
  if (!endpoint) return err(new ApiError('webhook_endpoint_limit', `the account already has ${MAX_ENDPOINTS} webhook endpoints`));
  return ok({ endpoint, secret });
}

/** Changes the fields named; enabling resumes deliveries from the cursor with a new retry window. */
export async function updateEndpoint(deps: WebhookDeps, accountId: string, id: string, body: Schemas['WebhookEndpointUpdate']): Promise<Result<WebhookEndpointRecord, ApiError>> {
  const change = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as WebhookEndpointChange;
  if (Object.keys(change).length === 0) return err(new ApiError('invalid_body', 'name at least one of url, eventTypes, description, enabled'));
  const checked = checkEndpointFields(deps, body);
  if (!checked.ok) return checked;
  const updated = await deps.store.webhooks.updateEndpoint(accountId, id, change, deps.clock.now());
  if (!updated) return err(notFound());
  if (change.enabled) deps.hub?.notify(accountId);
  return ok(updated);
}

export async function deleteEndpoint(deps: WebhookDeps, accountId: string, id: string): Promise<Result<void, ApiError>> {
  return (await deps.store.webhooks.deleteEndpoint(accountId, id)) ? ok(undefined) : err(notFound());
}

/** A new signing secret; the old one keeps signing alongside it for the overlap. */
export async function rotateEndpointSecret(deps: WebhookDeps, accountId: string, id: string): Promise<Result<{ endpoint: WebhookEndpointRecord; secret: string }, ApiError>> {
  const secret = newSecret();
  const endpoint = await deps.store.webhooks.rotateSecret(accountId, id, secret, deps.clock.now(), deps.config.webhooks.rotationOverlapMs);
  return endpoint ? ok({ endpoint, secret }) : err(notFound());
}

/** The endpoint's attempts, newest first. */
export async function listDeliveries(deps: Pick<WebhookDeps, 'store'>, accountId: string, id: string, limit: number, cursor: number | null): Promise<Page<DeliveryAttempt>> {
  return deps.store.webhooks.listDeliveries(accountId, id, limit, cursor);
}

/**
 * The account's oldest retained event id. Ids are shared by every account, so the id after the
 * purged ones may belong to another account; with nothing retained, the next id it can get.
 */
export async function oldestRetainedId(deps: Pick<WebhookDeps, 'store'>, accountId: string, purgedThrough: number): Promise<string> {
  const [oldest] = await deps.store.readEvents(accountId, purgedThrough, 1);
  return String(oldest ? oldest.id : purgedThrough + 1);
}

/** Moves the cursor back (or on) to `after`, which must be in the account's log: 410 `cursor_expired` otherwise. */
export async function replayEndpoint(deps: WebhookDeps, accountId: string, id: string, after: number): Promise<Result<WebhookEndpointRecord, ApiError>> {
  const purgedThrough = after === 0 ? 0 : await deps.store.eventsPurgedThrough(accountId);
  if (after !== 0 && (after < purgedThrough || after > (await deps.store.newestEventId(accountId)))) {
    const oldestId = await oldestRetainedId(deps, accountId, purgedThrough);
    return err(new ApiError('cursor_expired', 'this cursor is not in the account\'s log', { oldestId }));
  }
  const replayed = await deps.store.webhooks.replayEndpoint(accountId, id, after);
  if (!replayed) return err(notFound());
  deps.hub?.notify(accountId);
  return ok(replayed);
}

/** Appends a `webhook.test` event that only this endpoint receives. */
export async function testEndpoint(deps: WebhookDeps, accountId: string, id: string): Promise<Result<{ eventId: string }, ApiError>> {
  if (!(await deps.store.webhooks.getEndpoint(accountId, id))) return err(notFound());
  const [event] = await deps.store.appendEvents(accountId, [{ type: 'webhook.test', time: deps.clock.now(), data: { endpointId: id } }]);
  deps.hub?.notify(accountId);
  return ok({ eventId: String(event!.id) });
}

/**
 * One signed attempt of a retained event of the account's log, now, with the event's own
 * `webhook-id` (a receiver that de-duplicates keeps the first), logged as a resend. The
 * endpoint's cursor and retry state stay as they are; a disabled endpoint is resent to all the
 * same, so an operator can check a repair.
 */
export async function resendEvent(deps: WebhookDeps, accountId: string, id: string, eventId: number): Promise<Result<DeliveryAttempt, ApiError>> {
  const endpoint = await deps.store.webhooks.getEndpoint(accountId, id);
  if (!endpoint) return err(notFound());
  const [event] = await deps.store.readEvents(accountId, eventId - 1, 1);
  if (!event || event.id !== eventId) return err(new ApiError('event_not_found', 'no such event in the account\'s retained log'));
  const at = deps.clock.now();
  const result = await deliverEvent(endpoint, event, at, { timeoutMs: deps.config.webhooks.timeoutMs, allowHosts: deps.config.webhooks.allowHosts });
  const delivery: DeliveryAttempt = {
    eventId: event.id,
    attempt: 1,
    at,
    status: result.status,
    error: result.error,
    latencyMs: result.latencyMs,
    responseBody: result.responseBody,
    resend: true,
  };
  if (!(await deps.store.webhooks.logResend(accountId, id, delivery))) return err(notFound());
  return ok(delivery);
}
