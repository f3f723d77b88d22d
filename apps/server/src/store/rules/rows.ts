import type {
  AccountRecord, AttachmentRecord, AuditRecord, CommandRecord, ConversationRecord, CredentialRecord, EventRecord, LeaseRecord, MessageRecord, OperatorKeyRecord, PollRecord, PollVoteRecord, StatusChange,
} from '../types.ts';
import type { HeldVote } from './polls.ts';

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

export function operatorKey(row: Row): OperatorKeyRecord {
  return {
    id: row.id as string,
    role: row.role as OperatorKeyRecord['role'],
    prefix: row.prefix as string,
    label: row.label as string,
    createdAt: Number(row.created_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
  };
}

/** SQLite keeps `detail` as JSON text, PostgreSQL as jsonb (handed out parsed). */
export function audit(row: Row): AuditRecord {
  return {
    id: Number(row.id),
    at: Number(row.at),
    operatorKeyId: (row.operator_key_id as string | null) ?? null,
    action: row.action as string,
    accountId: (row.account_id as string | null) ?? null,
    subject: (row.subject as string | null) ?? null,
    detail: (typeof row.detail === 'string' ? JSON.parse(row.detail) : row.detail) as Record<string, unknown>,
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
    status: row.held_by ? 'held' : row.status as CommandRecord['status'],
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
    dispatchedAt: row.dispatched_at === null || row.dispatched_at === undefined ? null : Number(row.dispatched_at),
    heldBy: (row.held_by as CommandRecord['heldBy'] | undefined) ?? null,
    heldAt: row.held_at === null || row.held_at === undefined ? null : Number(row.held_at),
    releasedAt: row.released_at === null || row.released_at === undefined ? null : Number(row.released_at),
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

export function event(row: Row): EventRecord {
  return { id: Number(row.id), accountId: row.account_id as string, type: row.type as string, time: Number(row.time), data: JSON.parse(row.data as string) as unknown };
}

/** SQLite hands a BLOB out as a Uint8Array, PostgreSQL a bytea as a Buffer: both become a Uint8Array of their own. */
export function attachment(row: Row): AttachmentRecord {
  return {
    id: row.id as string,
    accountId: row.account_id as string,
    fileName: row.file_name as string,
    mimeType: row.mime_type as string,
    bytes: new Uint8Array(row.bytes as Uint8Array),
    createdAt: Number(row.created_at),
  };
}

/**
 * A command is held or queued at its acceptance, queued once its hold is released, and settled at
 * most once: its history is those timestamps (`status, created_at, settled_at, held_at, released_at`).
 */
export function history(row: Row | undefined): StatusChange[] {
  if (!row) return [];
  const held = row.held_at !== null && row.held_at !== undefined;
  const changes: StatusChange[] = [{ status: held ? 'held' : 'queued', at: Number(row.created_at) }];
  if (held && row.released_at !== null) changes.push({ status: 'queued', at: Number(row.released_at) });
  if (row.settled_at !== null) changes.push({ status: row.status as StatusChange['status'], at: Number(row.settled_at) });
  return changes;
}

export function poll(row: Row): PollRecord {
  return {
    id: row.id as string,
    accountId: row.account_id as string,
    conversationId: row.conversation_id as string,
    messageExternalId: row.message_external_id as string,
    question: row.question as string,
    options: JSON.parse(row.options as string) as string[],
    sentAt: Number(row.sent_at),
  };
}

export function pollVote(row: Row): PollVoteRecord {
  return { voterExternalId: row.voter as string, optionIndex: Number(row.option_index), votedAt: Number(row.voted_at) };
}

export function heldVote(row: Row | undefined): HeldVote | null {
  return row ? { optionIndex: row.option_index === null ? null : Number(row.option_index), votedAt: Number(row.voted_at) } : null;
}

export function message(row: Row): MessageRecord {
  const at = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return {
    accountId: row.account_id as string,
    conversationId: row.conversation_id as string,
    messageExternalId: row.message_external_id as string,
    direction: row.direction as MessageRecord['direction'],
    commandId: (row.command_id as string | null) ?? null,
    senderExternalId: (row.sender_external_id as string | null) ?? null,
    text: (row.text as string | null) ?? null,
    attachments: JSON.parse(row.attachments as string) as MessageRecord['attachments'],
    sentAt: at(row.sent_at),
    deliveredAt: at(row.delivered_at),
    readAt: at(row.read_at),
    failedAt: at(row.failed_at),
    failure: row.failure_reason ? { reason: row.failure_reason as NonNullable<MessageRecord['failure']>['reason'], platformMessage: (row.failure_message as string | null) ?? null } : null,
    editedAt: at(row.edited_at),
    unsentAt: at(row.unsent_at),
    recordedAt: Number(row.recorded_at),
  };
}

/** A message row's columns, in the order of MESSAGE_COLUMNS, as both stores write them. */
export function messageValues(m: MessageRecord): Array<string | number | null> {
  return [
    m.accountId, m.conversationId, m.messageExternalId, m.direction, m.commandId, m.senderExternalId, m.text, JSON.stringify(m.attachments),
    m.sentAt, m.deliveredAt, m.readAt, m.failedAt, m.failure?.reason ?? null, m.failure?.platformMessage ?? null, m.editedAt, m.unsentAt, m.recordedAt,
  ];
}

export const MESSAGE_COLUMNS = 'account_id, conversation_id, message_external_id, direction, command_id, sender_external_id, text, attachments, sent_at, delivered_at, read_at, failed_at, failure_reason, failure_message, edited_at, unsent_at, recorded_at';

/** The upsert both stores write a message with: the row as its rule left it, whole. */
export const UPSERT_MESSAGE_SET = MESSAGE_COLUMNS.split(', ').filter((c) => !['account_id', 'conversation_id', 'message_external_id', 'recorded_at'].includes(c)).map((c) => `${c} = excluded.${c}`).join(', ');
