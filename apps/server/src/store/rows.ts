import type { AccountRecord, CommandRecord, ConversationRecord, CredentialRecord, LeaseRecord } from './types.ts';

/** A row as both stores return it: snake_case columns, JSON kept as text, integers as numbers or strings. */
export type Row = Record<string, unknown>;

export function account(row: Row | undefined): AccountRecord | null {
  if (!row) return null;
  return { id: row.id as string, name: row.name as string, outboundPaused: row.outbound_paused === 1, createdAt: Number(row.created_at) };
}

export function credential(row: Row): CredentialRecord {
  return {
    id: row.id as string,
    accountId: row.account_id as string,
    kind: row.kind as CredentialRecord['kind'],
    prefix: row.prefix as string,
    label: row.label as string,
    createdAt: Number(row.created_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
  };
}

export function conversation(row: Row): ConversationRecord {
  return {
    id: row.id as string,
    accountId: row.account_id as string,
    externalId: row.external_id as string,
    kind: row.kind as ConversationRecord['kind'],
    name: (row.name as string | null) ?? null,
    participants: JSON.parse(row.participants as string) as string[],
    membershipVersion: Number(row.membership_version),
    createdAt: Number(row.created_at),
  };
}

export function command(row: Row): CommandRecord {
  return {
    id: row.id as string,
    accountId: row.account_id as string,
    type: row.type as CommandRecord['type'],
    routingPath: row.routing_path as CommandRecord['routingPath'],
    status: row.status as CommandRecord['status'],
    target: JSON.parse(row.target as string) as CommandRecord['target'],
    payload: JSON.parse(row.payload as string) as Record<string, unknown>,
    logicalActionId: row.logical_action_id as string,
    idempotencyKey: (row.idempotency_key as string | null) ?? null,
    conversationId: (row.conversation_id as string | null) ?? null,
    errorCode: (row.error_code as CommandRecord['errorCode']) ?? null,
    errorMessage: (row.error_message as string | null) ?? null,
    errorPath: (row.error_path as string | null) ?? null,
    createdAt: Number(row.created_at),
    settledAt: row.settled_at === null ? null : Number(row.settled_at),
    dispatchEpoch: row.dispatch_epoch === null ? null : Number(row.dispatch_epoch),
  };
}

export function lease(row: Row): LeaseRecord {
  return {
    accountId: row.account_id as string,
    hostId: row.host_id as string,
    epoch: Number(row.epoch),
    osMajorVersion: Number(row.os_major_version),
    capabilities: JSON.parse(row.capabilities as string) as LeaseRecord['capabilities'],
    acquiredAt: Number(row.acquired_at),
    expiresAt: Number(row.expires_at),
  };
}
