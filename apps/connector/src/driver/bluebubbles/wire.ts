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
  /**
   * The chat's `properties` plist, decoded (Chat entity, AttributedBodyTransformer); not on a
   * notification. `groupPhotoGuid` names the group photo's attachment (ChatInterface.getGroupChatIcon).
   */
  properties?: Array<{ groupPhotoGuid?: string | null } & Record<string, unknown>> | null;
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
 * changed (1) or removed (2). A tapback is a row of its own: `associatedMessageGuid` names its
 * message (`p:<part>/<guid>`, or `bp:<guid>`), and `associatedMessageType` is what
 * MessageTypeTransformer makes of Messages' number: `love` … `question` (2000-2005), `-love` …
 * `-question` to remove one (3000-3005), `sticker` (1000), any other number as its digits, null
 * for a plain message (0).
 */
export interface BbMessage {
  guid: string;
  /** Only on the answer to a send and on the echo BlueBubbles matched to it. */
  tempGuid?: string;
  text: string | null;
  subject: string | null;
  /** Messages' error code; 0 while nothing went wrong. */
  error: number;
  dateCreated: number;
  isFromMe: boolean;
  handle: BbHandle | null;
  otherHandle?: number | string | null;
  itemType: number;
  groupTitle: string | null;
  groupActionType: number;
  associatedMessageGuid: string | null;
  associatedMessageType: string | null;
  expressiveSendStyleId: string | null;
  threadOriginatorGuid: string | null;
  attachments: BbAttachment[];
  chats?: BbChat[];
  /** The account's message reached the other side (SMS: without `dateDelivered`). */
  isDelivered?: boolean;
  dateDelivered?: number | null;
  /** Only the account's messages in direct chats are ever read (iMessage has no read receipts in groups). */
  dateRead?: number | null;
  /** macOS 13+: the newest edit; Messages also stamps an unsend here. */
  dateEdited?: number | null;
  /** macOS 13+: BlueBubbles serializes it, but Messages marks an unsend with `dateEdited` and retracted parts instead. */
  dateRetracted?: number | null;
  /** macOS 13+: the parts still shown; 0 once every part was unsent. */
  partCount?: number | null;
  /** With `message-summary-info` (parseMessageSummary) only; `retractedParts` lists unsent parts. */
  messageSummaryInfo?: Array<{ retractedParts?: number[]; rp?: number[] } & Record<string, unknown>> | null;
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
export const WEBHOOK_EVENTS = ['new-message', 'updated-message', 'message-send-error', 'group-name-change', 'participant-added', 'participant-removed', 'participant-left'] as const;

export const GROUP_STYLE = 43;
export const DIRECT_STYLE = 45;

/** MessageInterface.possibleReactions, in Messages' associatedMessageType order (MessageTypeTransformer: 2000 + index). */
export const REACTIONS: readonly Tapback[] = ['love', 'like', 'dislike', 'laugh', 'emphasize', 'question'];

/**
 * A tapback row's reaction, as MessageTypeTransformer names it: `love` added, `-love` removed.
 * Null for every other row (a plain message, a sticker, the newer emoji tapbacks BlueBubbles
 * passes on as bare numbers).
 */
export function tapbackOf(associatedMessageType: string | null): { reaction: Tapback; removed: boolean } | null {
  if (associatedMessageType == null) return null;
  const removed = associatedMessageType.startsWith('-');
  const reaction = (removed ? associatedMessageType.slice(1) : associatedMessageType) as Tapback;
  return REACTIONS.includes(reaction) ? { reaction, removed } : null;
}

/** The message a tapback names: `p:0/<guid>` or `bp:<guid>` stripped as the BlueBubbles app does (`replaceAll("bp:", "").split("/").last`). */
export const associatedGuidOf = (associatedMessageGuid: string): string => associatedMessageGuid.replaceAll('bp:', '').split('/').at(-1)!;

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
