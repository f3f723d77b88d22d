import type { ConversationState, PlatformMessage } from '../../simulator/platform.ts';
import type { Tapback } from '../../types.ts';
import { DIRECT_STYLE, EFFECT_ID, GROUP_STYLE, REACTIONS, type BbAttachment, type BbChat, type BbMessage } from '../wire.ts';

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
    case 'tapback':
      return {
        text: null,
        associatedMessageGuid: `p:0/${m.associatedMessage}`,
        associatedMessageType: (body.remove ? 3000 : 2000) + REACTIONS.indexOf(body.tapback as Tapback),
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
      return { text: null, itemType: 3, groupActionType: 1 };
    default:
      return null;
  }
}

export function serializeMessage(m: PlatformMessage, attachments: BbAttachment[], chat?: BbChat): BbMessage | null {
  const fields = shape(m);
  if (!fields) return null;
  return {
    guid: m.externalId,
    text: null,
    subject: null,
    error: 0,
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
    ...(chat ? { chats: [chat] } : {}),
  };
}
