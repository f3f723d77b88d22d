import { describe, expect, it } from 'vitest';
import {
  commandTable, commandTypes, connectorErrorCatalog, connectorErrorCodes, errorCatalog, errorCodes, isEventId, isIdempotencyKey, routingPathOf,
  schemas, settlementCatalog, settlementCodes, targetKindsOf,
} from '../src/index.ts';

const seedErrorCodes = {
  body_too_large: 400, body_not_object: 400, target_and_payload_required: 400, invalid_conversationId: 400,
  recipient_send_requires_recipientExternalId_and_text: 400, group_command_requires_group_conversation: 400,
  unauthenticated: 401, unknown_command: 404, conversation_not_found: 404, method_not_allowed: 405,
  rate_limited: 429, internal: 500, no_live_connector: 503, outbound_paused: 503,
} as const;
const seedSettlementCodes = ['stale_target', 'invalid_target', 'gateway_rejected', 'send_returned_not_ok', 'accepted_echo_unconfirmed', 'group_update_unverified', 'capability_constraint_violation'];

describe('the catalogs', () => {
  it('carry every synchronous error code of the seed, with its status', () => {
    for (const [code, status] of Object.entries(seedErrorCodes)) {
      expect(errorCodes).toContain(code);
      expect(errorCatalog[code as keyof typeof errorCatalog].status).toBe(status);
    }
  });

  it('carry every settlement code of the seed', () => {
    for (const code of seedSettlementCodes) expect(settlementCodes).toContain(code);
    expect(Object.keys(settlementCatalog).sort()).toEqual([...settlementCodes].sort());
  });

  it('give every error code a status and retry guidance', () => {
    for (const code of errorCodes) {
      expect(errorCatalog[code].status).toBeGreaterThanOrEqual(400);
      expect(['never', 'after', 'backoff']).toContain(errorCatalog[code].retry);
    }
  });

  it('list the seven command types', () => {
    expect(commandTypes).toEqual(['message.send', 'reaction.tapback', 'reaction.apply', 'name_photo.share', 'group.create', 'group.update', 'group.leave']);
  });
});

describe('the connector protocol catalog', () => {
  it('gives each code its status, the public status for a code both share', () => {
    expect(connectorErrorCatalog.lease_lost.status).toBe(409);
    expect(connectorErrorCatalog.invalid_request.status).toBe(400);
    for (const code of connectorErrorCodes) {
      if (code in errorCatalog) expect(connectorErrorCatalog[code].status).toBe(errorCatalog[code as keyof typeof errorCatalog].status);
    }
  });
});

describe('the command table', () => {
  it('covers every command type', () => {
    expect(Object.keys(commandTable)).toEqual([...commandTypes]);
  });

  it('routes as the seed says: agent-turn for conversational acts, admin for account administration', () => {
    expect(routingPathOf('message.send', 'conversation')).toBe('agent-turn');
    expect(routingPathOf('message.send', 'recipient')).toBe('admin');
    for (const type of ['reaction.tapback', 'reaction.apply', 'name_photo.share'] as const) expect(routingPathOf(type, 'conversation')).toBe('agent-turn');
    expect(routingPathOf('group.create', 'participants')).toBe('admin');
    for (const type of ['group.update', 'group.leave'] as const) expect(routingPathOf(type, 'conversation')).toBe('admin');
  });

  it('takes only the target kinds of each request body', () => {
    expect(targetKindsOf('message.send')).toEqual(['conversation', 'recipient']);
    expect(targetKindsOf('group.create')).toEqual(['participants']);
    expect(routingPathOf('reaction.apply', 'recipient')).toBeUndefined();
    expect(routingPathOf('group.create', 'toString')).toBeUndefined();
  });

  it('marks the group commands', () => {
    expect(Object.entries(commandTable).filter(([, row]) => row.conversationKind === 'group').map(([type]) => type)).toEqual(['group.update', 'group.leave']);
  });

  it('checks Idempotency-Keys and event ids by the spec', () => {
    expect(isIdempotencyKey('a'.repeat(255))).toBe(true);
    expect(isIdempotencyKey('a'.repeat(256))).toBe(false);
    expect(isIdempotencyKey('')).toBe(false);
    expect(isIdempotencyKey('has space')).toBe(false);
    expect(isEventId('0')).toBe(true);
    expect(isEventId('1'.repeat(20))).toBe(false);
    expect(isEventId('-1')).toBe(false);
  });
});

describe('the payload validators', () => {
  it('tell plain text (no kind) from the rich kinds', () => {
    expect(schemas.zMessageSendPayload.safeParse({ text: 'hi' }).success).toBe(true);
    expect(schemas.zMessageSendPayload.safeParse({ kind: 'rich_text', text: 'hi', effect: 'confetti', subject: 'S' }).success).toBe(true);
    expect(schemas.zMessageSendPayload.safeParse({ kind: 'poll', question: 'q', options: ['a', 'b'] }).success).toBe(true);
    expect(schemas.zMessageSendPayload.safeParse({ kind: 'rich_link', url: 'https://example.com' }).success).toBe(true);
  });

  it('reject misspelled fields, bad enums and out-of-range values', () => {
    expect(schemas.zMessageSendPayload.safeParse({ txt: 'hi' }).success).toBe(false);
    expect(schemas.zMessageSendPayload.safeParse({ text: 'hi', kind: 'plain' }).success).toBe(false);
    expect(schemas.zMessageSendPayload.safeParse({ kind: 'rich_text', text: 'hi', effect: 'glitter' }).success).toBe(false);
    expect(schemas.zMessageSendPayload.safeParse({ kind: 'poll', question: 'q', options: ['only one'] }).success).toBe(false);
    expect(schemas.zGroupUpdatePayload.safeParse({ action: 'rename' }).success).toBe(false);
    expect(schemas.zGroupUpdatePayload.safeParse({ action: 'add_participant', participantExternalId: '+14155550123' }).success).toBe(true);
  });
});
