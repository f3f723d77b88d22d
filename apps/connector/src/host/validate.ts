import { messagePayloadSchema, schemas, type DispatchedCommand } from '@switchboard/contracts';
import type { z } from 'zod';
import { normaliseAddress } from '@switchboard/addresses';
import type { ConversationRef } from '../driver/types.ts';

export type MessageSendPayload = z.infer<typeof schemas.zMessageSendPayload>;
export type GroupUpdatePayload = z.infer<typeof schemas.zGroupUpdatePayload>;
export type ReactionTapbackPayload = z.infer<typeof schemas.zReactionTapbackPayload>;
export type ReactionApplyPayload = z.infer<typeof schemas.zReactionApplyPayload>;
export type GroupCreatePayload = z.infer<typeof schemas.zGroupCreatePayload>;

/** A command whose payload matched its schema, with its target in the shape its type needs. */
export type Plan =
  | { type: 'message.send'; target: 'conversation'; conversation: ConversationRef; payload: MessageSendPayload }
  | { type: 'message.send'; target: 'recipient'; recipientExternalId: string; text: string }
  | { type: 'reaction.tapback'; conversation: ConversationRef; payload: ReactionTapbackPayload }
  | { type: 'reaction.apply'; conversation: ConversationRef; payload: ReactionApplyPayload }
  | { type: 'name_photo.share'; conversation: ConversationRef }
  | { type: 'group.create'; participants: string[]; payload: GroupCreatePayload }
  | { type: 'group.update'; conversation: ConversationRef; payload: GroupUpdatePayload }
  | { type: 'group.leave'; conversation: ConversationRef };

/** A failed validation: its settlement code, why (for people), and where in the request body (a JSON Pointer). */
export type Invalid = { ok: false; code: 'payload_invalid' | 'invalid_target'; detail: string; path: string };
export type Validation = { ok: true; plan: Plan } | Invalid;

/** A JSON Pointer (RFC 6901) into the command's request body. */
function pointer(segments: readonly PropertyKey[]): string {
  return segments.map((s) => `/${String(s).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

/** Where an issue is: an unrecognized key is itself the place (the misspelling), not the object holding it. */
function placeOf(issue: z.core.$ZodIssue): string {
  const keys = issue.code === 'unrecognized_keys' ? issue.keys.slice(0, 1) : [];
  return pointer(['payload', ...issue.path, ...keys]);
}

/**
 * Every issue with its place, the unrecognized keys first: a misspelled field also reports the
 * field it was meant to be as missing, and the misspelling is the cause.
 */
function invalidPayload(error: z.ZodError): Invalid {
  const issues = [...error.issues].sort((a, b) => Number(b.code === 'unrecognized_keys') - Number(a.code === 'unrecognized_keys'));
  const detail = issues.map((i) => `${placeOf(i)}: ${i.message}`).join('; ');
  return { ok: false, code: 'payload_invalid', detail, path: issues.length > 0 ? placeOf(issues[0]!) : '/payload' };
}

/** Parses the payload with `schema`; a failure says what (zod's messages) and where, for the settlement. */
function parse<T>(schema: z.ZodType<T>, payload: unknown): { ok: true; data: T } | Invalid {
  const result = schema.safeParse(payload);
  return result.success ? { ok: true, data: result.data } : invalidPayload(result.error);
}

/**
 * The host's half of the contract: the endpoint checked only the envelope, so here the payload is
 * checked against its command type's schema (`payload_invalid` when it does not match). A
 * recipient send carries `{ text }` only: the server dropped every other key when it stored it.
 */
export function validate(command: DispatchedCommand): Validation {
  const { target } = command;
  const wrongTarget = (): Validation => ({ ok: false, code: 'invalid_target', detail: `${command.type} cannot take a target of kind "${target.kind}"`, path: '/target/kind' });

  if (command.type === 'message.send') {
    if (target.kind === 'recipient') {
      const payload = parse(schemas.zRecipientSendPayload, command.payload);
      return payload.ok ? { ok: true, plan: { type: 'message.send', target: 'recipient', recipientExternalId: target.recipientExternalId, text: payload.data.text } } : payload;
    }
    if (target.kind !== 'conversation') return wrongTarget();
    const payload = parse<MessageSendPayload>(messagePayloadSchema(command.payload), command.payload);
    return payload.ok ? { ok: true, plan: { type: 'message.send', target: 'conversation', conversation: ref(target), payload: payload.data } } : payload;
  }

  if (command.type === 'group.create') {
    if (target.kind !== 'participants') return wrongTarget();
    const payload = parse(schemas.zGroupCreatePayload, command.payload);
    return payload.ok ? { ok: true, plan: { type: 'group.create', participants: target.participantExternalIds, payload: payload.data } } : payload;
  }

  if (target.kind !== 'conversation') return wrongTarget();
  const conversation = ref(target);
  switch (command.type) {
    case 'reaction.tapback': {
      const payload = parse(schemas.zReactionTapbackPayload, command.payload);
      return payload.ok ? { ok: true, plan: { type: command.type, conversation, payload: payload.data } } : payload;
    }
    case 'reaction.apply': {
      const payload = parse(schemas.zReactionApplyPayload, command.payload);
      return payload.ok ? { ok: true, plan: { type: command.type, conversation, payload: payload.data } } : payload;
    }
    case 'name_photo.share': {
      const payload = parse(schemas.zNamePhotoSharePayload, command.payload);
      return payload.ok ? { ok: true, plan: { type: command.type, conversation } } : payload;
    }
    case 'group.update': {
      const payload = parse(schemas.zGroupUpdatePayload, command.payload);
      if (!payload.ok) return payload;
      const data = payload.data;
      if (data.action !== 'add_participant' && data.action !== 'remove_participant') return { ok: true, plan: { type: command.type, conversation, payload: data } };
      // An address, as a target's is at the endpoint: the platform is given the one form of it.
      // A member to remove may be listed in a form that is not one (a short code): it goes as written.
      const address = normaliseAddress(data.participantExternalId);
      if (!address.ok && data.action === 'remove_participant') return { ok: true, plan: { type: command.type, conversation, payload: data } };
      if (!address.ok) {
        const path = '/payload/participantExternalId';
        return { ok: false, code: 'payload_invalid', path, detail: `${path}: not a phone number with its country code or an email address (${address.reason})` };
      }
      return { ok: true, plan: { type: command.type, conversation, payload: { ...data, participantExternalId: address.address } } };
    }
    case 'group.leave': {
      const payload = parse(schemas.zGroupLeavePayload, command.payload);
      return payload.ok ? { ok: true, plan: { type: command.type, conversation } } : payload;
    }
  }
}

function ref(target: Extract<DispatchedCommand['target'], { kind: 'conversation' }>): ConversationRef {
  return {
    conversationId: target.conversationId,
    externalId: target.externalId,
    kind: target.conversationKind,
    participants: target.participants,
    membershipVersion: target.membershipVersion,
  };
}
