import type { Command, components, Conversation } from '@switchboard/contracts';
import type { CommandRecord, ConversationRecord, MessageRecord, StatusChange } from './store/types.ts';
import { iso } from './clock.ts';

// What the public API shows of a stored command, conversation and message: its routes and the
// admin API's answer with these.

/** A conversation (specs: Conversation). */
export function conversationBody(c: ConversationRecord): Conversation {
  return {
    conversationId: c.id,
    kind: c.kind,
    name: c.name,
    participants: c.participants.map((externalId) => ({ externalId })),
    createdAt: iso(c.createdAt),
  };
}

/** A message and its state (specs: Message). */
export function messageBody(m: MessageRecord): components['schemas']['Message'] {
  const at = (time: number | null) => (time === null ? null : iso(time));
  return {
    messageExternalId: m.messageExternalId,
    conversationId: m.conversationId,
    direction: m.direction,
    commandId: m.commandId,
    senderExternalId: m.senderExternalId,
    text: m.text,
    attachments: m.attachments,
    sentAt: at(m.sentAt),
    deliveredAt: at(m.deliveredAt),
    readAt: at(m.readAt),
    failedAt: at(m.failedAt),
    failure: m.failure,
    editedAt: at(m.editedAt),
    unsentAt: at(m.unsentAt),
  };
}

/** The command as the API shows it, with its status history and the message it sent. */
export function commandBody(command: CommandRecord, history: readonly StatusChange[], message: MessageRecord | null): Command {
  return {
    commandId: command.id,
    type: command.type,
    routingPath: command.routingPath,
    status: command.status,
    target: command.target,
    payload: command.payload,
    logicalActionId: command.logicalActionId,
    idempotencyKey: command.idempotencyKey,
    conversationId: command.conversationId,
    errorCode: command.errorCode,
    errorMessage: command.errorMessage,
    errorPath: command.errorPath,
    createdAt: iso(command.createdAt),
    settledAt: command.settledAt === null ? null : iso(command.settledAt),
    heldBy: command.heldBy,
    history: history.map((h) => ({ status: h.status, at: iso(h.at) })),
    message: message ? messageBody(message) : null,
  };
}
