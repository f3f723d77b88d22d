import type { EventRecord, NewEvent, Page } from './types.ts';

export type DisabledReason = 'failing' | 'operator';

/**
 * A webhook endpoint and its delivery state. The stream's log is the outbox: `cursor` is the last
 * event the endpoint acknowledged (or its filter skipped), and delivery reads the events after it.
 * `attempt`, `nextAttemptAt` and `failingSince` describe the event after the cursor.
 */
export interface WebhookEndpointRecord {
  id: string;
  accountId: string;
  url: string;
  description: string | null;
  /** null: every type. */
  eventTypes: string[] | null;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: number | null;
  enabled: boolean;
  disabledReason: DisabledReason | null;
  disabledAt: number | null;
  cursor: number;
  attempt: number;
  nextAttemptAt: number;
  failingSince: number | null;
  createdAt: number;
}

export type NewWebhookEndpoint = Pick<WebhookEndpointRecord, 'id' | 'accountId' | 'url' | 'description' | 'eventTypes' | 'secret' | 'createdAt'>;

export interface WebhookEndpointChange {
  url?: string;
  description?: string | null;
  eventTypes?: string[] | null;
  enabled?: boolean;
}

/** One attempt, as the delivery log keeps it. */
export interface DeliveryAttempt {
  eventId: number;
  attempt: number;
  at: number;
  /** The receiver's HTTP status; null when no response arrived. */
  status: number | null;
  error: string | null;
  latencyMs: number;
  /** The first 1 KiB of the response body as UTF-8; null when no response (or an empty one). */
  responseBody: string | null;
  /** Made by an operator's resend, outside the delivery in order. */
  resend: boolean;
}

/** An endpoint held by one delivery worker until `expiresAt`; `token` fences out older holders. */
export interface WebhookClaim {
  endpoint: WebhookEndpointRecord;
  token: number;
}

/** What an attempt leads to, recorded with it in one transaction. */
export type AttemptOutcome =
  /** The claim is extended to `claimUntil` in the same write, for the next event. */
  | { kind: 'delivered'; claimUntil: number }
  | { kind: 'retry'; at: number; failingSince: number }
  /** Failing for the whole retry window: the endpoint is disabled and `event` appended to the stream. */
  | { kind: 'disable'; failingSince: number; event: (endpoint: WebhookEndpointRecord) => NewEvent };

export interface AttemptRecord {
  endpointId: string;
  token: number;
  /** The cursor the worker read from; a replay in between moved it, and the outcome is not applied. */
  cursor: number;
  delivery: DeliveryAttempt;
  outcome: AttemptOutcome;
}

export interface AttemptResult {
  /** The endpoint after the outcome, or null when the claim or the cursor moved under the worker. */
  endpoint: WebhookEndpointRecord | null;
  /** Stream events the outcome appended (the disable event). */
  events: EventRecord[];
}

/**
 * Webhook endpoints, their delivery state and the delivery log; each method is one transaction.
 * Claims make each endpoint's delivery the work of one worker (one replica) at a time: a claim is
 * taken only when free or expired, each claim gets a new token, and every write a worker makes
 * checks its token in the same statement.
 */
export interface WebhookStore {
  /** Null when the account already has `maxPerAccount` endpoints. The cursor starts at the account's newest event. */
  createEndpoint(input: NewWebhookEndpoint, maxPerAccount: number): Promise<WebhookEndpointRecord | null>;
  listEndpoints(accountId: string): Promise<WebhookEndpointRecord[]>;
  getEndpoint(accountId: string, id: string): Promise<WebhookEndpointRecord | null>;
  /** Enabling clears the retry state, so the stuck event gets a new retry window. */
  updateEndpoint(accountId: string, id: string, change: WebhookEndpointChange, now: number): Promise<WebhookEndpointRecord | null>;
  deleteEndpoint(accountId: string, id: string): Promise<boolean>;
  /** The current secret becomes the previous one until `now + overlapMs`. */
  rotateSecret(accountId: string, id: string, secret: string, now: number, overlapMs: number): Promise<WebhookEndpointRecord | null>;
  /** Moves the cursor to `after` and clears the retry state. */
  replayEndpoint(accountId: string, id: string, after: number): Promise<WebhookEndpointRecord | null>;
  /** Newest attempt first; the cursor is the `nextCursor` of the previous page. */
  listDeliveries(accountId: string, endpointId: string, limit: number, cursor: number | null): Promise<Page<DeliveryAttempt>>;
  /** Every account's endpoints (oldest first): all, those failing (enabled, retrying an event), or those disabled. */
  listAllEndpoints(state: 'all' | 'failing' | 'disabled'): Promise<WebhookEndpointRecord[]>;
  /** Logs an operator's resend (`delivery.resend` true); the endpoint's cursor and retry state do not change. False: no such endpoint. */
  logResend(accountId: string, endpointId: string, delivery: DeliveryAttempt): Promise<boolean>;
  /** Events after each endpoint's cursor, for the backlog figures. */
  backlogs(accountId: string | null): Promise<Map<string, number>>;

  /** Claims up to `max` enabled endpoints with events after their cursor and no retry pending past `now`. */
  claimDue(owner: string, now: number, ttlMs: number, max: number): Promise<WebhookClaim[]>;
  /** Extends a claim still held under `token`; false when it was lost. */
  renewClaim(endpointId: string, token: number, now: number, ttlMs: number): Promise<boolean>;
  releaseClaim(endpointId: string, token: number): Promise<void>;
  /** Moves the cursor past events the filter skips (from `cursor` to `to`); false when the claim or cursor moved. */
  skipTo(endpointId: string, token: number, cursor: number, to: number): Promise<boolean>;
  /** Logs the attempt and applies its outcome (the outcome only while the claim and cursor are unchanged). */
  recordAttempt(record: AttemptRecord): Promise<AttemptResult>;
  purgeDeliveries(olderThan: number): Promise<number>;
}
