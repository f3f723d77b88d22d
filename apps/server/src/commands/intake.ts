import { commandTable, isIdempotencyKey, type Acknowledgement, type CommandType } from '@switchboard/contracts';
import { ApiError } from '../errors.ts';
import { NO_LIVE_CONNECTOR } from '../leases/leases.ts';
import type { Services } from '../services.ts';
import type { CommandRecord } from '../store/types.ts';
import { checkEnvelope } from './envelope.ts';
import { policyError } from './policies.ts';
import { policiesApply } from '../store/rules/policies.ts';
import { err, ok, type Result } from '../result.ts';

export type IntakeResult = Result<{ acknowledgement: Acknowledgement; command: CommandRecord }, ApiError>;

/** A 503 the client retries after `seconds`. */
function unavailable(code: 'outbound_paused' | 'no_live_connector', message: string, seconds: number): ApiError {
  return new ApiError(code, message, {}, { 'retry-after': String(seconds) });
}

/**
 * Accepts one command for an authenticated account: the envelope checks, then idempotency,
 * pause and lease, then the line policies and the durable write. Steps 6 to 14 of the order in
 * the OpenAPI spec.
 */
export async function intake(
  services: Pick<Services, 'store' | 'clock' | 'config' | 'log' | 'waiters' | 'ids' | 'hub' | 'metrics'>,
  accountId: string,
  type: CommandType,
  body: string,
  idempotencyKeyHeader: string | undefined,
): Promise<IntakeResult> {
  const checked = checkEnvelope(type, body);
  if (!checked.ok) return checked;
  const { target, payload, routingPath } = checked.value;

  // The admin path accepts any key and ignores it; only the agent-turn path looks at it.
  let idempotencyKey: string | null = null;
  if (routingPath === 'agent-turn' && idempotencyKeyHeader !== undefined) {
    if (!isIdempotencyKey(idempotencyKeyHeader)) {
      return err(new ApiError('invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 printable ASCII characters'));
    }
    idempotencyKey = idempotencyKeyHeader;
  }

  const { store, clock, config } = services;
  let conversationId: string | null = null;
  if (target.kind === 'conversation') {
    const conversation = await store.getConversation(accountId, target.conversationId);
    if (!conversation) return err(new ApiError('conversation_not_found', 'no such conversation'));
    if (commandTable[type].conversationKind === 'group' && conversation.kind !== 'group') {
      return err(new ApiError('group_command_requires_group_conversation', `${type} needs a group conversation; this one is a direct message`));
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
    return err(unavailable('outbound_paused', 'sending is paused for this account', 30));
  }
  if (!(await store.liveLease(accountId, now))) {
    return err(unavailable('no_live_connector', NO_LIVE_CONNECTOR, 5));
  }

  // Step 13: cached, so an account without policies reads nothing more; the store decides under its lock.
  const policed = policiesApply(await store.getPolicies(accountId), { type, target, conversationId });

  const id = services.ids.next();
  let accepted;
  try {
    accepted = await store.acceptCommand(
      { id, accountId, type, routingPath, target, payload, idempotencyKey, conversationId, logicalActionId: idempotencyKey ?? id, createdAt: now },
      keyNotBefore,
      policed,
    );
  } catch (error) {
    services.log.error({ err: error, accountId, commandId: id }, 'command not stored');
    return err(new ApiError('internal', 'the command could not be stored; nothing was written'));
  }
  if (accepted.disposition === 'adopted') return adopted(accepted.command);
  if (accepted.released) {
    services.metrics.linePolicies.inc({ policy: 'quietHours', outcome: 'released' }, accepted.released);
    services.hub.notify(accountId);
  }
  if (accepted.disposition === 'refused') {
    services.metrics.linePolicies.inc({ policy: accepted.refusal.policy, outcome: 'refused' });
    if (accepted.released) services.waiters.wake(accountId);
    return err(policyError(accepted.refusal));
  }
  const { command } = accepted;
  if (command.heldBy !== null) {
    services.metrics.linePolicies.inc({ policy: command.heldBy, outcome: 'held' });
    services.hub.notify(accountId);
  }
  if (command.heldBy === null || accepted.released) services.waiters.wake(accountId);
  return ok({ command, acknowledgement: { commandId: id, status: command.status, disposition: 'queued' } });
}

function adopted(original: CommandRecord): IntakeResult {
  return ok({ command: original, acknowledgement: { commandId: original.id, status: original.status, disposition: 'adopted' } });
}
