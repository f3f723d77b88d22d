import type { ConversationState, PlatformMessage } from '../../simulator/platform.ts';
import type { Tapback } from '../../types.ts';
import { DIRECT_STYLE, EFFECT_ID, GROUP_STYLE, type BbAttachment, type BbChat, type BbMessage } from '../wire.ts';

/** The simulated platform names chats `sim;-;…` and `sim;+;…`; Messages names them `iMessage;-;…` and `iMessage;+;…`. */
export const chatGuidOf = (platformId: string) => platformId.replace(/^sim;/, 'iMessage;');
export const platformIdOf = (chatGuid: string) => chatGuid.replace(/^iMessage;/, 'sim;');

export function serializeChat(state: ConversationState, withParticipants: boolean): BbChat {
  const guid = chatGuidOf(state.externalId);
  return {
    guid,
    style: state.kind === 'group' ? GROUP_STYLE : DIRECT_STYLE,
    chatIdentifier: guid.split(';').at(-1)!,
    displayName: state.name ?? '',
    ...(withParticipants ? { participants: state.participants.map((address) => ({ address, service: 'iMessage' })) } : {}),
    // ChatSerializer passes chat.properties through; Messages keeps the group photo's attachment guid there.
    properties: state.photoAttachmentId ? [{ groupPhotoGuid: state.photoAttachmentId }] : null,
  };
}

/** What the platform's message kinds look like in the Messages database; null for kinds it keeps no row for. */
function shape(m: PlatformMessage): Partial<BbMessage> | null {
  const body = m.body as Record<string, any>;
  switch (m.kind) {
    case 'text':
      return { text: body.text ?? null };
    case 'rich_text':
      return {
        text: body.text,
        subject: body.subject ?? null,
        expressiveSendStyleId: body.effect ? EFFECT_ID[body.effect as keyof typeof EFFECT_ID] : null,
        threadOriginatorGuid: body.replyToMessageExternalId ?? null,
      };
    case 'rich_link':
      return { text: body.url };
    case 'attachment':
    case 'sticker':
      // A file alone: Messages' text is the object replacement character (constants.ts invisibleMediaChar).
      return { text: '\ufffc' };
    case 'tapback':
      // MessageTypeTransformer turns Messages' 2000-2005 (3000-3005 to remove) into these names.
      return {
        text: null,
        associatedMessageGuid: `p:0/${m.associatedMessage}`,
        associatedMessageType: `${body.remove ? '-' : ''}${body.tapback as Tapback}`,
      };
    case 'group_renamed':
      return { text: null, itemType: 2, groupTitle: body.name };
    case 'participant_added':
      return { text: null, itemType: 1, groupActionType: 0, otherHandle: body.participant };
    case 'participant_removed':
      return { text: null, itemType: 1, groupActionType: 1, otherHandle: body.participant };
    case 'left':
      return { text: null, itemType: 3, groupActionType: 0 };
    case 'photo_changed':
    case 'photo_set':
      return { text: null, itemType: 3, groupActionType: 1 };
    default:
      return null;
  }
}

/**
 * The `error` Messages writes on a failed message of the platform. Not read from BlueBubbles:
 * 22 for an address iMessage cannot reach (the BlueBubbles app's "recipient is not registered
 * with iMessage"), the code a platform message names ("Messages error 7"), else 4 (the one code
 * BlueBubbles' server names, "Message Timeout").
 */
export function errorCodeOf(m: Pick<PlatformMessage, 'failedAt' | 'failure'>): number {
  if (m.failedAt === null) return 0;
  if (m.failure?.reason === 'recipient_unreachable') return 22;
  const named = /\berror (\d+)/i.exec(m.failure?.platformMessage ?? '');
  return named ? Number(named[1]) : 4;
}

/**
 * MessageSerializer.convert for a platform message (null for kinds the database keeps no row
 * for), with the fields macOS 13+ adds (`dateEdited`, `dateRetracted`, `partCount`) and the
 * message summary only when asked for (`summary`: parseMessageSummary). Messages marks an unsend
 * with `dateEdited`, the part retracted and no part left; `dateRetracted` stays empty.
 */
export function serializeMessage(m: PlatformMessage, attachments: BbAttachment[], chat?: BbChat, error = 0, summary = false): BbMessage | null {
  const fields = shape(m);
  if (!fields) return null;
  const unsent = m.unsentAt !== null;
  const dateEdited = m.unsentAt ?? m.editedAt;
  return {
    guid: m.externalId,
    text: null,
    subject: null,
    error,
    dateCreated: m.at,
    isFromMe: m.direction === 'out',
    handle: m.sender ? { address: m.sender, service: 'iMessage' } : null,
    itemType: 0,
    groupTitle: null,
    groupActionType: 0,
    associatedMessageGuid: null,
    associatedMessageType: null,
    expressiveSendStyleId: null,
    threadOriginatorGuid: null,
    attachments,
    ...fields,
    // Messages marks a message it received delivered, with no date.
    isDelivered: m.deliveredAt !== null || m.direction === 'in',
    dateDelivered: m.deliveredAt,
    dateRead: m.readAt,
    dateEdited,
    dateRetracted: null,
    partCount: unsent ? 0 : 1,
    messageSummaryInfo: summary && dateEdited !== null ? [{ editedParts: unsent ? [] : [0], retractedParts: unsent ? [0] : [] }] : null,
    ...(unsent ? { text: null } : {}),
    ...(chat ? { chats: [chat] } : {}),
  };
}
