import { randomUUID } from 'node:crypto';
import type { CommandType, DispatchedCommand } from '@switchboard/contracts';

/** A dispatched command as the server would send it, for tests of the host's own rules. */
export function dispatched(type: CommandType, payload: Record<string, unknown>, target: DispatchedCommand['target'] = directTarget()): DispatchedCommand {
  const commandId = randomUUID();
  return {
    commandId,
    epoch: 1,
    type,
    routingPath: 'admin',
    logicalActionId: commandId,
    target,
    payload,
    acceptedAt: new Date().toISOString(),
  };
}

export function directTarget(externalId = 'sim;-;+14155550101', participants = ['+14155550101']): DispatchedCommand['target'] {
  return { kind: 'conversation', conversationId: randomUUID(), externalId, conversationKind: 'direct', participants, membershipVersion: 0 };
}

export function groupTarget(externalId = 'sim;+;chat1', participants = ['+14155550101', '+14155550102'], membershipVersion = 0): DispatchedCommand['target'] {
  return { kind: 'conversation', conversationId: randomUUID(), externalId, conversationKind: 'group', participants, membershipVersion };
}

export const recipientTarget = (recipientExternalId = 'bob@example.com'): DispatchedCommand['target'] => ({ kind: 'recipient', recipientExternalId });

export const participantsTarget = (participantExternalIds = ['+14155550101', '+14155550102']): DispatchedCommand['target'] => ({ kind: 'participants', participantExternalIds });
