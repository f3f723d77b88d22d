import type { Acknowledgement, CommandType, ErrorCode } from '@switchboard/contracts';
import { newId } from '../clock.ts';
import type { Services } from '../services.ts';
import type { CommandRecord } from '../store/types.ts';
import { checkEnvelope, type EnvelopeRejection } from './envelope.ts';

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
const GROUP_COMMANDS: ReadonlySet<CommandType> = new Set(['group.update', 'group.leave']);

export type IntakeRejection =
  | EnvelopeRejection
  | { status: 400 | 404 | 500 | 503; error: ErrorCode; message: string; retryAfter?: number };

export type IntakeResult =
  | { ok: true; acknowledgement: Acknowledgement; command: CommandRecord }
  | { ok: false; rejection: IntakeRejection };

function fail(status: 400 | 404 | 500 | 503, error: ErrorCode, message: string, retryAfter?: number): IntakeResult {
  return { ok: false, rejection: retryAfter === undefined ? { status, error, message } : { status, error, message, retryAfter } };
}

/**
 * Accepts one command for an authenticated account: the envelope checks, then idempotency,
 * pause and lease, then the durable write. Steps 6 to 13 of the order in the OpenAPI spec.
 */
export async function intake(
  services: Services,
  accountId: string,
  type: CommandType,
  body: string,
  idempotencyKeyHeader: string | undefined,
): Promise<IntakeResult> {
  const checked = checkEnvelope(type, body);
  if (!checked.ok) return { ok: false, rejection: checked.rejection };
  const { target, payload, routingPath } = checked.envelope;

  // The admin path accepts any key and ignores it; only the agent-turn path looks at it.
  let idempotencyKey: string | null = null;
  if (routingPath === 'agent-turn' && idempotencyKeyHeader !== undefined) {
    if (!IDEMPOTENCY_KEY.test(idempotencyKeyHeader)) {
      return fail(400, 'invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 printable ASCII characters');
    }
    idempotencyKey = idempotencyKeyHeader;
  }

  const { store, clock, config } = services;
  let conversationId: string | null = null;
  if (target.kind === 'conversation') {
    const conversation = await store.getConversation(accountId, target.conversationId);
    if (!conversation) return fail(404, 'conversation_not_found', 'no such conversation');
    if (GROUP_COMMANDS.has(type) && conversation.kind !== 'group') {
      return fail(400, 'group_command_requires_group_conversation', `${type} needs a group conversation; this one is a direct message`);
    }
    conversationId = conversation.id;
  }

  const now = clock.now();
  const keyNotBefore = now - config.idempotencyRetentionMs;
  if (idempotencyKey !== null) {
    // Reads see only durable commands: an original still in an open group is adopted inside acceptCommand.
    const original = await store.findIdempotentCommand(accountId, idempotencyKey, keyNotBefore);
    if (original) return adopted(original);
  }
  if (await store.isOutboundPaused(accountId)) {
    return fail(503, 'outbound_paused', 'sending is paused for this account', 30);
  }
  if (!(await store.liveLease(accountId, now))) {
    return fail(503, 'no_live_connector', 'no connector host holds a live lease for this account', 5);
  }

  const id = newId();
  let accepted;
  try {
    accepted = await store.acceptCommand(
      { id, accountId, type, routingPath, target, payload, idempotencyKey, conversationId, logicalActionId: idempotencyKey ?? id, createdAt: now },
      keyNotBefore,
    );
  } catch (error) {
    services.log.error({ err: error, accountId, commandId: id }, 'command not stored');
    return fail(500, 'internal', 'the command could not be stored; nothing was written');
  }
  if (accepted.disposition === 'adopted') return adopted(accepted.command);
  services.waiters.wake(accountId);
  return { ok: true, command: accepted.command, acknowledgement: { commandId: id, status: 'queued', disposition: 'queued' } };
}

function adopted(original: CommandRecord): IntakeResult {
  return {
    ok: true,
    command: original,
    acknowledgement: { commandId: original.id, status: original.status, disposition: 'adopted' },
  };
}
