import type { Row } from './rows.ts';
import type { DeliveryAttempt, WebhookEndpointRecord } from '../webhooks.ts';

// Webhook rows as both stores return them (see rows.ts).

export function types(eventTypes: string[] | null): string | null {
  return eventTypes === null ? null : JSON.stringify(eventTypes);
}

function nullableNumber(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

export function endpoint(row: Row): WebhookEndpointRecord {
  return {
    id: row.id as string,
    accountId: row.account_id as string,
    url: row.url as string,
    description: (row.description as string | null) ?? null,
    eventTypes: row.event_types === null ? null : (JSON.parse(row.event_types as string) as string[]),
    secret: row.secret as string,
    previousSecret: (row.previous_secret as string | null) ?? null,
    previousSecretExpiresAt: nullableNumber(row.previous_secret_expires_at),
    enabled: Number(row.enabled) === 1,
    disabledReason: (row.disabled_reason as WebhookEndpointRecord['disabledReason']) ?? null,
    disabledAt: nullableNumber(row.disabled_at),
    cursor: Number(row.cursor),
    attempt: Number(row.attempt),
    nextAttemptAt: Number(row.next_attempt_at),
    failingSince: nullableNumber(row.failing_since),
    createdAt: Number(row.created_at),
  };
}

export function delivery(row: Row): DeliveryAttempt {
  return {
    eventId: Number(row.event_id),
    attempt: Number(row.attempt),
    at: Number(row.at),
    status: nullableNumber(row.status),
    error: (row.error as string | null) ?? null,
    latencyMs: Number(row.latency_ms),
    responseBody: (row.response_body as string | null | undefined) ?? null,
    resend: Number(row.resend) === 1,
  };
}
