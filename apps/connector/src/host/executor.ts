import type { Capability, DispatchedCommand, SettlementCode } from '@switchboard/contracts';
import { replay } from '../driver/replay.ts';
import type { ActionRef, Driver, Outcome, OutcomeResult, OutgoingContent, ReportableEvent } from '../driver/types.ts';
import { checkCapabilities } from './capabilities.ts';
import { validate, type MessageSendPayload, type Plan } from './validate.ts';

/** How a command ended on this host: its settlement, and the platform events to report before it. */
export interface Execution {
  status: 'succeeded' | 'failed';
  errorCode: SettlementCode | null;
  /** Why: on a failure, the client's errorMessage; on a success, a note for the logs. */
  detail?: string;
  /** Where in the request body a failure is (a JSON Pointer), when it is about one place. */
  errorPath?: string;
  events: ReportableEvent[];
  /** The platform already showed the command's logical action; nothing was done again. */
  replayed: boolean;
}

const SETTLEMENT_CODE: Record<Exclude<OutcomeResult, 'confirmed'>, SettlementCode> = {
  gateway_rejected: 'gateway_rejected',
  send_not_ok: 'send_returned_not_ok',
  accepted_no_echo: 'accepted_echo_unconfirmed',
  invalid_target: 'invalid_target',
  stale_target: 'stale_target',
  group_update_unverified: 'group_update_unverified',
  no_message_to_react_to: 'no_message_to_react_to',
};

/** The execution (settlement and events) a driver outcome stands for: only a confirmed (echoed) action succeeds. */
export function executionOf(outcome: Outcome): Execution {
  const replayed = outcome.replayed === true;
  const detail = outcome.detail === undefined ? {} : { detail: outcome.detail };
  if (outcome.result === 'confirmed') return { status: 'succeeded', errorCode: null, ...detail, events: outcome.events, replayed };
  return { status: 'failed', errorCode: SETTLEMENT_CODE[outcome.result], ...detail, events: outcome.events, replayed };
}

function failed(errorCode: SettlementCode, detail: string, errorPath?: string): Execution {
  return { status: 'failed', errorCode, detail, ...(errorPath === undefined ? {} : { errorPath }), events: [], replayed: false };
}

/** Payloads that name staged media by transferId; the service has no way to stage any. */
function transferIdOf(plan: Plan): string | null {
  if (plan.type === 'message.send' && plan.target === 'conversation' && 'transferId' in plan.payload) return plan.payload.transferId;
  if (plan.type === 'group.update' && plan.payload.action === 'set_photo') return plan.payload.transferId;
  return null;
}

/** A rule of the command type about the kind of conversation it acts on, or null when it holds. */
function conversationKindRule(plan: Plan): Execution | null {
  if ((plan.type === 'reaction.apply' || plan.type === 'name_photo.share') && plan.conversation.kind !== 'direct') {
    return failed('direct_conversation_required', `${plan.type} acts on a direct conversation; this one is a group`, '/target/conversationId');
  }
  if ((plan.type === 'group.update' || plan.type === 'group.leave') && plan.conversation.kind !== 'group') {
    return failed('invalid_target', `${plan.type} acts on a group; this conversation is direct`, '/target/conversationId');
  }
  return null;
}

function contentOf(payload: MessageSendPayload): OutgoingContent {
  if (!('kind' in payload)) return { kind: 'text', text: payload.text };
  if (payload.kind === 'attachment' || payload.kind === 'sticker') throw new Error('media kinds settle transfer_unavailable before they reach a driver');
  return payload;
}

/**
 * Decides and carries out one dispatched command: payload, capabilities, transfer and
 * conversation-kind rules first (they need no platform), then the platform's own record of the
 * logical action, and only then the driver.
 */
export class Executor {
  private readonly driver: Driver;
  private readonly capabilities: readonly Capability[];

  constructor(driver: Driver, capabilities: readonly Capability[]) {
    this.driver = driver;
    this.capabilities = capabilities;
  }

  async execute(command: DispatchedCommand): Promise<Execution> {
    const validation = validate(command);
    if (!validation.ok) return failed(validation.code, validation.detail, validation.path);
    const { plan } = validation;

    const capability = checkCapabilities(plan, this.capabilities);
    if (!capability.ok) return failed('capability_constraint_violation', capability.detail);

    const transferId = transferIdOf(plan);
    if (transferId !== null) return failed('transfer_unavailable', `transferId "${transferId}" names no staged media: the service has no way to stage any`, '/payload/transferId');

    const kindRule = conversationKindRule(plan);
    if (kindRule) return kindRule;

    const action: ActionRef = { commandId: command.commandId, logicalActionId: command.logicalActionId, acceptedAt: command.acceptedAt };
    // A command dispatched again after a failover may already be done on the platform.
    const done = await this.driver.findExecuted(command.logicalActionId);
    if (done) return executionOf(replay(done, action));
    return executionOf(await this.drive(plan, action));
  }

  private drive(plan: Plan, action: ActionRef): Promise<Outcome> {
    const { driver } = this;
    switch (plan.type) {
      case 'message.send':
        return plan.target === 'recipient'
          ? driver.sendToRecipient(action, plan.recipientExternalId, plan.text)
          : driver.sendToConversation(action, plan.conversation, contentOf(plan.payload));
      case 'reaction.tapback':
        return driver.tapback(action, plan.conversation, plan.payload.messageExternalId, plan.payload.tapback, plan.payload.remove ?? false);
      case 'reaction.apply':
        return driver.reactToNewestIncoming(action, plan.conversation, plan.payload.tapback);
      case 'name_photo.share':
        return driver.shareNamePhoto(action, plan.conversation);
      case 'group.create':
        return driver.createGroup(action, plan.participants, plan.payload.text, plan.payload.name ?? null);
      case 'group.leave':
        return driver.leaveGroup(action, plan.conversation);
      case 'group.update': {
        const { payload } = plan;
        switch (payload.action) {
          case 'rename':
            return driver.renameGroup(action, plan.conversation, payload.name);
          case 'add_participant':
            return driver.addParticipant(action, plan.conversation, payload.participantExternalId);
          case 'remove_participant':
            return driver.removeParticipant(action, plan.conversation, payload.participantExternalId);
          case 'set_photo':
            throw new Error('set_photo settles transfer_unavailable before it reaches a driver');
        }
      }
    }
  }
}
