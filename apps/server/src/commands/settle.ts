import type { BatchedSettlement, Settlement as ProtocolSettlement, SettlementResult } from '@switchboard/contracts';
import type { BaseLogger } from 'pino';
import { ApiError } from '../errors.ts';
import type { Services } from '../services.ts';
import type { CommandRecord, PlatformEventView, SettleResult, Settlement } from '../store/types.ts';
import type { EventData } from '../stream/envelope.ts';
import { streamEvent } from '../stream/platform-events.ts';
import { leaseLost } from '../leases/leases.ts';
import { boundErrorMessage, boundErrorPath } from './failure.ts';
import { err, ok, type Result } from '../result.ts';

export type SettleOutcome = Result<CommandRecord, ApiError>;

type Deps = Pick<Services, 'store' | 'clock' | 'hub' | 'metrics'> & { log: Pick<BaseLogger, 'info'> };

/** The command.settled event's data (specs/asyncapi/stream.yaml). */
export function settledData(c: CommandRecord): EventData<'command.settled'> {
  return {
    commandId: c.id,
    logicalActionId: c.logicalActionId,
    status: c.status as 'succeeded' | 'failed',
    errorCode: c.errorCode,
    errorMessage: c.errorMessage,
    errorPath: c.errorPath,
    commandType: c.type,
    routingPath: c.routingPath,
    conversationId: c.conversationId,
  };
}

/** What the store records of one protocol settlement, or why the protocol refuses it. */
function settlementOf(accountId: string, epoch: number, s: BatchedSettlement, now: number): Settlement | ApiError {
  if ((s.status === 'succeeded') !== (s.errorCode === null)) {
    return new ApiError('invalid_request', 'errorCode is null exactly when status is succeeded');
  }
  if (s.status === 'succeeded' && (s.errorMessage !== undefined || s.errorPath !== undefined)) {
    return new ApiError('invalid_request', 'errorMessage and errorPath say why a command failed; a succeeded one has neither');
  }
  // A host from before errorMessage said why in detail.
  const message = s.errorMessage ?? (s.status === 'failed' ? s.detail : undefined);
  return {
    accountId,
    commandId: s.commandId,
    epoch,
    status: s.status,
    errorCode: s.errorCode,
    errorMessage: message === undefined ? null : boundErrorMessage(message),
    errorPath: s.errorPath === undefined ? null : boundErrorPath(s.errorPath),
    detail: s.detail ?? null,
    at: now,
    eventData: settledData,
  };
}

/** The store's answer as the protocol's; counts, logs and wakes nothing (see `announce`). */
function outcomeOf(result: SettleResult): SettleOutcome {
  if (result.ok) return ok(result.value.command);
  const refusal = result.error;
  switch (refusal.reason) {
    case 'not_found':
      return err(new ApiError('command_not_found', 'no such command for this account'));
    case 'lease_lost':
      return err(leaseLost());
    case 'not_dispatched':
      return err(new ApiError('not_dispatched', 'this command was not dispatched to this epoch; settle it once a dispatch poll hands it over'));
    case 'conflict':
      return err(new ApiError('already_settled', `the command already settled ${refusal.command.status}`));
    case 'unknown_conversation':
      return err(new ApiError('invalid_request', `conversation "${refusal.externalId}" is unknown; report conversation.appeared first`));
  }
}

/** A settlement that wrote something (not a repetition). */
function tookEffect(result: SettleResult): boolean {
  return result.ok && result.value.event !== null;
}

/** A settlement that took effect: its metrics and log line. */
function announce(services: Deps, result: SettleResult, now: number, detail: string | undefined): void {
  if (!result.ok || result.value.event === null) return;
  const c = result.value.command;
  services.metrics.settlements.inc({ type: c.type, routing_path: c.routingPath, status: c.status, error_code: c.errorCode ?? '' });
  services.metrics.settleLatency.observe({ routing_path: c.routingPath }, (now - c.createdAt) / 1000);
  services.log.info({ commandId: c.id, status: c.status, errorCode: c.errorCode, errorMessage: c.errorMessage, errorPath: c.errorPath, detail }, 'command settled');
}

/**
 * Settles a command once, for the live lease's epoch: the status, the command.settled event
 * (specs/asyncapi/stream.yaml) in the same transaction, then the account's streams are woken.
 * The same settlement repeated answers as the first did; a different one is `already_settled`.
 */
export async function settleCommand(services: Deps, accountId: string, settlement: ProtocolSettlement): Promise<SettleOutcome> {
  const now = services.clock.now();
  const s = settlementOf(accountId, settlement.epoch, settlement, now);
  if (s instanceof ApiError) return err(s);
  const result = await services.store.settleCommand(s);
  if (tookEffect(result)) services.hub.notify(accountId);
  announce(services, result, now, settlement.detail);
  return outcomeOf(result);
}

/**
 * Settles a batch (specs/openapi/connector.yaml, settleCommands) in one transaction, each item
 * with its platform events just before it, and answers each item's result in order.
 */
export async function settleCommands(
  services: Deps & Pick<Services, 'ids'>,
  accountId: string,
  epoch: number,
  batch: readonly BatchedSettlement[],
): Promise<SettlementResult[]> {
  const now = services.clock.now();
  const view: PlatformEventView = (event, conversation, vote, message) => streamEvent(event, conversation, now, vote, message);
  const items = batch.map((item) => {
    const s = settlementOf(accountId, epoch, item, now);
    if (s instanceof ApiError || !item.events?.length) return s;
    return { ...s, platformEvents: { events: item.events, newConversationId: services.ids.next, view } };
  });
  const valid = items.filter((s): s is Settlement => !(s instanceof ApiError));
  const results = valid.length === 0 ? [] : await services.store.settleCommands(valid);
  // Settled, or refused after its events were recorded: the streams may have something new.
  if (results.some((r) => tookEffect(r) || (!r.ok && (r.error.reason === 'not_dispatched' || r.error.reason === 'conflict')))) services.hub.notify(accountId);
  let next = 0;
  return items.map((s, i): SettlementResult => {
    const commandId = batch[i]!.commandId;
    if (s instanceof ApiError) return { commandId, result: 'invalid_request', message: s.message };
    const result = results[next++]!;
    announce(services, result, now, batch[i]!.detail);
    const outcome = outcomeOf(result);
    if (!outcome.ok) return { commandId, result: outcome.error.code as SettlementResult['result'], message: outcome.error.message };
    return { commandId, result: 'settled', status: outcome.value.status as 'succeeded' | 'failed', errorCode: outcome.value.errorCode };
  });
}
