import type { Settlement } from '@switchboard/contracts';
import type { BaseLogger } from 'pino';
import { ApiError } from '../errors.ts';
import type { Services } from '../services.ts';
import type { CommandRecord } from '../store/types.ts';
import type { EventData } from '../stream/envelope.ts';
import { leaseLost } from '../leases/leases.ts';
import { boundErrorMessage, boundErrorPath } from './failure.ts';

export type SettleOutcome = { ok: true; command: CommandRecord } | { ok: false; error: ApiError };

/**
 * Settles a command once, for the live lease's epoch: the status, the command.settled event
 * (specs/asyncapi/stream.yaml) in the same transaction, then the account's streams are woken.
 * The same settlement repeated answers as the first did; a different one is `already_settled`.
 */
export async function settleCommand(
  services: Pick<Services, 'store' | 'clock' | 'hub' | 'metrics'> & { log: Pick<BaseLogger, 'info'> },
  accountId: string,
  settlement: Settlement,
): Promise<SettleOutcome> {
  if ((settlement.status === 'succeeded') !== (settlement.errorCode === null)) {
    return { ok: false, error: new ApiError('invalid_request', 'errorCode is null exactly when status is succeeded') };
  }
  if (settlement.status === 'succeeded' && (settlement.errorMessage !== undefined || settlement.errorPath !== undefined)) {
    return { ok: false, error: new ApiError('invalid_request', 'errorMessage and errorPath say why a command failed; a succeeded one has neither') };
  }
  // A host from before errorMessage said why in detail.
  const message = settlement.errorMessage ?? (settlement.status === 'failed' ? settlement.detail : undefined);
  const now = services.clock.now();
  const result = await services.store.settleCommand({
    accountId,
    commandId: settlement.commandId,
    epoch: settlement.epoch,
    status: settlement.status,
    errorCode: settlement.errorCode,
    errorMessage: message === undefined ? null : boundErrorMessage(message),
    errorPath: settlement.errorPath === undefined ? null : boundErrorPath(settlement.errorPath),
    detail: settlement.detail ?? null,
    at: now,
    eventData: (c): EventData<'command.settled'> => ({
      commandId: c.id,
      logicalActionId: c.logicalActionId,
      status: c.status as 'succeeded' | 'failed',
      errorCode: c.errorCode,
      errorMessage: c.errorMessage,
      errorPath: c.errorPath,
      commandType: c.type,
      routingPath: c.routingPath,
      conversationId: c.conversationId,
    }),
  });
  switch (result.outcome) {
    case 'not_found':
      return { ok: false, error: new ApiError('command_not_found', 'no such command for this account') };
    case 'lease_lost':
      return { ok: false, error: leaseLost() };
    case 'not_dispatched':
      return { ok: false, error: new ApiError('not_dispatched', 'this command was not dispatched to this epoch; settle it once a dispatch poll hands it over') };
    case 'conflict':
      return { ok: false, error: new ApiError('already_settled', `the command already settled ${result.command.status}`) };
    case 'settled': {
      const c = result.command;
      services.hub.notify(accountId);
      services.metrics.settlements.inc({ type: c.type, routing_path: c.routingPath, status: c.status, error_code: c.errorCode ?? '' });
      services.metrics.settleLatency.observe({ routing_path: c.routingPath }, (now - c.createdAt) / 1000);
      services.log.info({ commandId: c.id, status: c.status, errorCode: c.errorCode, errorMessage: c.errorMessage, errorPath: c.errorPath, detail: settlement.detail }, 'command settled');
    }
  }
  return { ok: true, command: result.command };
}
