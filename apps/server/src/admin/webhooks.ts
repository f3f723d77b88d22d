import type { AdminComponents } from '@switchboard/contracts';
import { iso } from '../clock.ts';
import { ok, type Result } from '../result.ts';
import type { ApiError } from '../errors.ts';
import type { DeliveryAttempt, WebhookEndpointRecord } from '../store/webhooks.ts';
import {
  deliveryBody, describeEndpoints, findEndpoint, listDeliveries as endpointDeliveries, replayEndpoint, resendEvent, rotateEndpointSecret, testEndpoint, updateEndpoint,
} from '../webhooks/endpoints.ts';
import { findAccountById } from './accounts.ts';
import { audited, type Admin, type AdminDeps, type AuditEntry } from './audit.ts';

/**
 * Any account's webhook endpoints, as an operator sees them. Each change is the account's own
 * (webhooks/endpoints.ts), audited.
 */

type Schemas = AdminComponents['schemas'];
type Endpoint = Schemas['WebhookEndpoint'];

async function adminEndpoints(deps: AdminDeps, accountId: string | null, endpoints: readonly WebhookEndpointRecord[]): Promise<Endpoint[]> {
  const bodies = await describeEndpoints(deps, accountId, endpoints);
  return bodies.map((body, i) => {
    const e = endpoints[i]!;
    return { ...body, accountId: e.accountId, failingSince: e.failingSince === null ? null : iso(e.failingSince) };
  });
}

async function adminEndpoint(deps: AdminDeps, endpoint: WebhookEndpointRecord): Promise<Endpoint> {
  return (await adminEndpoints(deps, endpoint.accountId, [endpoint]))[0]!;
}

/** An audit record's names for a change of an endpoint found by these ids (so they are its own, in lower case). */
function named(accountId: string, endpointId: string): AuditEntry {
  return { accountId: accountId.toLowerCase(), subject: endpointId.toLowerCase() };
}

export function adminDeliveryBody(d: DeliveryAttempt): Schemas['Delivery'] {
  return { ...deliveryBody(d), responseBody: d.responseBody, resend: d.resend };
}

/** The account named, then its endpoint named: 404 `account_not_found` or `webhook_endpoint_not_found`. */
export async function findAccountEndpoint(deps: AdminDeps, accountId: string, endpointId: string): Promise<Result<WebhookEndpointRecord, ApiError>> {
  const account = await findAccountById(deps, accountId);
  if (!account.ok) return account;
  return findEndpoint(deps, account.value.id, endpointId);
}

/** Every account's endpoints: all, those failing (enabled, retrying an event), or those disabled. */
export async function listAllEndpoints(deps: AdminDeps, state: 'all' | 'failing' | 'disabled' = 'all'): Promise<Schemas['WebhookEndpointList']> {
  return { endpoints: await adminEndpoints(deps, null, await deps.store.webhooks.listAllEndpoints(state)) };
}

export async function listEndpoints(deps: AdminDeps, accountId: string): Promise<Result<Schemas['WebhookEndpointList'], ApiError>> {
  const account = await findAccountById(deps, accountId);
  if (!account.ok) return account;
  const endpoints = await deps.store.webhooks.listEndpoints(account.value.id);
  return ok({ endpoints: await adminEndpoints(deps, account.value.id, endpoints) });
}

export async function getEndpoint(deps: AdminDeps, accountId: string, endpointId: string): Promise<Result<Endpoint, ApiError>> {
  const found = await findAccountEndpoint(deps, accountId, endpointId);
  return found.ok ? ok(await adminEndpoint(deps, found.value)) : found;
}

/** Disables an endpoint (`disabledReason: operator`) or enables it (deliveries resume from its cursor with a new retry window). */
export function setEndpointEnabled(admin: Admin, accountId: string, endpointId: string, enabled: boolean): Promise<Result<Endpoint, ApiError>> {
  return audited(admin, enabled ? 'webhook_endpoint.enable' : 'webhook_endpoint.disable', async () => {
    const found = await findAccountEndpoint(admin, accountId, endpointId);
    if (!found.ok) return found;
    const updated = await updateEndpoint(admin, found.value.accountId, found.value.id, { enabled });
    return updated.ok ? ok(await adminEndpoint(admin, updated.value)) : updated;
  }, () => named(accountId, endpointId));
}

/** A new signing secret (shown this once); the old one keeps signing for the overlap. */
export function rotateSecret(admin: Admin, accountId: string, endpointId: string): Promise<Result<Schemas['WebhookEndpointWithSecret'], ApiError>> {
  return audited(admin, 'webhook_endpoint.rotate_secret', async () => {
    const found = await findAccountEndpoint(admin, accountId, endpointId);
    if (!found.ok) return found;
    const rotated = await rotateEndpointSecret(admin, found.value.accountId, found.value.id);
    if (!rotated.ok) return rotated;
    const [body] = await describeEndpoints(admin, found.value.accountId, [rotated.value.endpoint]);
    return ok({ ...body!, secret: rotated.value.secret });
  }, () => named(accountId, endpointId));
}

/** The endpoint's attempts log, newest first, with each response; `cursor` is a page's `nextCursor`. */
export async function listDeliveries(deps: AdminDeps, accountId: string, endpointId: string, limit: number, cursor: number | null): Promise<Result<Schemas['DeliveryPage'], ApiError>> {
  const found = await findAccountEndpoint(deps, accountId, endpointId);
  if (!found.ok) return found;
  const page = await endpointDeliveries(deps, found.value.accountId, found.value.id, limit, cursor);
  return ok({ deliveries: page.items.map(adminDeliveryBody), nextCursor: page.nextCursor });
}

/** One signed attempt of a retained event, now, logged with the endpoint's attempts. */
export function resend(admin: Admin, accountId: string, endpointId: string, eventId: number): Promise<Result<Schemas['Delivery'], ApiError>> {
  return audited(admin, 'webhook_endpoint.resend', async () => {
    const found = await findAccountEndpoint(admin, accountId, endpointId);
    if (!found.ok) return found;
    const sent = await resendEvent(admin, found.value.accountId, found.value.id, eventId);
    return sent.ok ? ok(adminDeliveryBody(sent.value)) : sent;
  }, (d) => ({ ...named(accountId, endpointId), detail: { eventId: d.eventId, status: d.status, error: d.error } }));
}

/** Re-delivers every event after `after` (the account's own replay). */
export function replay(admin: Admin, accountId: string, endpointId: string, after: number): Promise<Result<Endpoint, ApiError>> {
  return audited(admin, 'webhook_endpoint.replay', async () => {
    const found = await findAccountEndpoint(admin, accountId, endpointId);
    if (!found.ok) return found;
    const replayed = await replayEndpoint(admin, found.value.accountId, found.value.id, after);
    return replayed.ok ? ok(await adminEndpoint(admin, replayed.value)) : replayed;
  }, () => ({ ...named(accountId, endpointId), detail: { after: String(after) } }));
}

/** Appends a `webhook.test` event that only this endpoint receives. */
export function test(admin: Admin, accountId: string, endpointId: string): Promise<Result<Schemas['WebhookTestAccepted'], ApiError>> {
  return audited(admin, 'webhook_endpoint.test', async () => {
    const found = await findAccountEndpoint(admin, accountId, endpointId);
    if (!found.ok) return found;
    return testEndpoint(admin, found.value.accountId, found.value.id);
  }, (t) => ({ ...named(accountId, endpointId), detail: { eventId: t.eventId } }));
}

