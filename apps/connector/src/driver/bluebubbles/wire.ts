/**
 * The BlueBubbles Server HTTP API as the driver and the stand-in both see it: the `{status,
 * message, data}` envelope, the serialized chat and message, the webhook body, and the ids
 * Messages uses. Read from BlueBubblesApp/bluebubbles-server v1.9.9 (see standin/FIDELITY.md).
 */
import type { ScreenEffect, Tapback } from '../types.ts';

/** responses/types.ts: every JSON answer, success or error. */
export interface Envelope<T = unknown> {
  status: number;
  message: string;
  data?: T;
  error?: { type: string; message: string };
  metadata?: Record<string, unknown>;
}

/** HandleSerializer. */
export interface BbHandle {
  address: string;
  service: string;
}

/** ChatSerializer; `participants` with `?with=participants`. Style 43 is a group, 45 a direct chat. */
export interface BbChat {
  guid: string;
  style: number;
  chatIdentifier: string;
  displayName: string | null;
  participants?: BbHandle[];
  messages?: BbMessage[];
}

/** AttachmentSerializer. */
export interface BbAttachment {
  guid: string;
  mimeType: string | null;
  transferName: string;
  totalBytes: number;
}

/**
 * MessageSerializer. itemType 0 is a message, 1 a membership change (groupActionType 0 added,
 * 1 removed), 2 a rename (`groupTitle`), 3 someone leaving (groupActionType 0) or the group photo
 * changed (1) or removed (2). A tapback names its message in
 * `associatedMessageGuid` (`p:0/<guid>`) with `associatedMessageType` 2000-2005, 3000-3005 to remove.
 */
export interface BbMessage {
  guid: string;
  /** Only on the answer to a send and on the echo BlueBubbles matched to it. */
  tempGuid?: string;
  text: string | null;
  subject: string | null;
  error: number;
  dateCreated: number;
  isFromMe: boolean;
  handle: BbHandle | null;
  otherHandle?: number | string | null;
  itemType: number;
  groupTitle: string | null;
  groupActionType: number;
  associatedMessageGuid: string | null;
  associatedMessageType: number | null;
  expressiveSendStyleId: string | null;
  threadOriginatorGuid: string | null;
  attachments: BbAttachment[];
  chats?: BbChat[];
}

/** GeneralInterface.getServerMetadata. */
export interface BbServerInfo {
  os_version: string;
  server_version: string;
  private_api: boolean;
  helper_connected: boolean;
}

/** services/webhookService: the body of every webhook POST. */
export interface WebhookBody {
  type: string;
  data: unknown;
}

/** The webhook events the driver registers for (api/http/constants.ts webhookEventOptions). */
export const WEBHOOK_EVENTS = ['new-message', 'group-name-change', 'participant-added', 'participant-removed', 'participant-left'] as const;

export const GROUP_STYLE = 43;
export const DIRECT_STYLE = 45;

/** MessageInterface.possibleReactions, in Messages' associatedMessageType order. */
export const REACTIONS: readonly Tapback[] = ['love', 'like', 'dislike', 'laugh', 'emphasize', 'question'];

/** The `effectId` Messages takes for each screen effect; BlueBubbles passes it through unchanged. */
export const EFFECT_ID: Record<ScreenEffect, string> = {
  balloons: 'com.apple.messages.effect.CKHappyBirthdayEffect',
  confetti: 'com.apple.messages.effect.CKConfettiEffect',
  love: 'com.apple.messages.effect.CKHeartEffect',
  lasers: 'com.apple.messages.effect.CKLasersEffect',
  fireworks: 'com.apple.messages.effect.CKFireworksEffect',
  celebration: 'com.apple.messages.effect.CKSparklesEffect',
  echo: 'com.apple.messages.effect.CKEchoEffect',
  spotlight: 'com.apple.messages.effect.CKSpotlightEffect',
};

/** A direct chat's guid for an address, as Messages names it. */
export const directChatGuid = (address: string) => `iMessage;-;${address}`;

/** The chat's members, in the order BlueBubbles lists them. */
export const addressesOf = (chat: BbChat): string[] => (chat.participants ?? []).map((h) => h.address);

/**
 * A member leaving a group (MessagePoller.handleGroupChanges: item type 3 with group action 0);
 * item type 3 with action 1 or 2 is the group's photo changed or removed.
 */
export const isLeave = (m: Pick<BbMessage, 'itemType' | 'groupActionType'>): boolean => m.itemType === 3 && m.groupActionType === 0;
