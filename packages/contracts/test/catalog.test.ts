import { describe, expect, it } from 'vitest';
import { commandTypes, errorCatalog, errorCodes, schemas, settlementCatalog, settlementCodes } from '../src/index.ts';

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
