/**
 * The one seam between a connector host and a messaging platform. The host decides what a
 * command means (payload, capabilities, settlement); a driver only does it on the platform and
 * says what the platform showed. The simulator (./simulator) is the default driver; a driver
 * for a real platform implements the same interface.
 */
import type { components as ApiComponents } from '@switchboard/contracts';
import type { ConnectorComponents } from '@switchboard/contracts';

type Api = ApiComponents['schemas'];
type Protocol = ConnectorComponents['schemas'];

export type ConversationKind = Api['ConversationKind'];
export type Tapback = Api['Tapback'];
export type ScreenEffect = Api['ScreenEffect'];

/** The command a driver call belongs to. The platform keeps `logicalActionId` with what the call did, so a redelivered command is found there. */
export interface ActionRef {
  commandId: string;
  logicalActionId: string;
  /** When the server accepted the command; a driver that cannot record a send atomically looks for it after this time. */
  acceptedAt?: string | undefined;
}

/** A conversation target as the server resolved it when dispatching the command. */
export interface ConversationRef {
  /** Switchboard's id of the conversation, when the server resolved the command to it. */
  conversationId?: string | undefined;
  externalId: string;
  kind: ConversationKind;
  participants: string[];
  /** The server's count of membership changes; behind the platform's count means the membership changed underneath the command. */
  membershipVersion: number;
}

/** A file on the platform, with its bytes. */
export interface Media {
  fileName: string;
  mimeType: string;
  bytes: Uint8Array;
}

/**
 * What message.send puts on the platform. Plain text is `kind: 'text'`; an attachment or a
 * sticker carries the media the host fetched for its transferId (checksum verified).
 */
export type OutgoingContent =
  | { kind: 'text'; text: string }
  | Exclude<Api['RichPayload'], { kind: 'attachment' | 'sticker' }>
  | { kind: 'attachment' | 'sticker'; media: Media };

/** Platform events in the connector protocol's shapes: the host forwards them as they are. */
export type ConversationAppeared = Protocol['PlatformConversationAppeared'];
export type MessageSent = Protocol['PlatformMessageSent'];
export type GroupRenamed = Protocol['PlatformGroupRenamed'];
export type ParticipantsChanged = Protocol['PlatformGroupParticipantsChanged'];
export type PollVoted = Protocol['PlatformPollVoted'];
export type MessageDelivered = Protocol['PlatformMessageDelivered'];
export type MessageRead = Protocol['PlatformMessageRead'];
export type MessageFailed = Protocol['PlatformMessageFailed'];
export type MessageReaction = Protocol['PlatformMessageReaction'];
export type MessageEdited = Protocol['PlatformMessageEdited'];
export type MessageUnsent = Protocol['PlatformMessageUnsent'];
/** What became of one of the account's messages after its echo. */
export type MessageStateChanged = MessageDelivered | MessageRead | MessageFailed;
/** What someone else did to a message: a tapback on any message, an edit or an unsend of their own. */
export type MessageChangedByOthers = MessageReaction | MessageEdited | MessageUnsent;
export type ReportableEvent = Protocol['PlatformEvent'];

/** An inbound attachment with its bytes; the host uploads them before reporting the message. */
export interface InboundAttachment extends Media {
  /** Unique per account; `^[A-Za-z0-9_-]{1,128}$`. */
  attachmentId: string;
}

export type MessageReceived = Omit<Protocol['PlatformMessageReceived'], 'attachments'> & { attachments: InboundAttachment[] };

/**
 * What happened on the platform without this host's commands: people writing to the account,
 * conversations they started, groups they renamed or changed, votes on the account's polls, what
 * became of the account's messages after their echo (delivered, read, failed) and what other
 * people did to messages (tapbacks, edits, unsends). `message.sent` is here for a driver whose
 * echoes arrive on their own (a real platform's echo of a send can come late); the simulator's
 * echoes come back with the send, and its feed repeats one before a later state of its message.
 * The server records each state once per message, so a driver may report one again; it must
 * never lose one. A group message is never reported read (iMessage has no read receipts there).
 */
export type FeedEvent =
  | ConversationAppeared
  | MessageReceived
  | MessageSent
  | GroupRenamed
  | ParticipantsChanged
  | PollVoted
  | MessageStateChanged
  | MessageChangedByOthers;

/**
 * How a driver call ended on the platform. The executor maps each result to a settlement; the
 * names say what the platform showed, not what the API calls it.
 */
export type OutcomeResult =
  /** Done, and the platform echoed it back. */
  | 'confirmed'
  /** The platform's gateway refused it; nothing was sent. */
  | 'gateway_rejected'
  /** The send call returned a not-ok result; nothing was sent. */
  | 'send_not_ok'
  /** The platform took it, but no echo confirmed it. It may have been delivered. */
  | 'accepted_no_echo'
  /** The conversation is unknown to the platform, the account left it, or an address cannot be reached. */
  | 'invalid_target'
  /** The group's membership changed underneath the command. */
  | 'stale_target'
  /** The group change could not be confirmed. */
  | 'group_update_unverified'
  /** There is no message to react to. */
  | 'no_message_to_react_to';

/**
 * How a driver call ended. A failure always says why, in the driver's words: that is the
 * command's `errorMessage`, what a client reads to learn what the platform did.
 */
export type Outcome = {
  /** What the call made happen, in order; reported before the command is settled. */
  events: ReportableEvent[];
  /** The platform already showed this logical action, so nothing was done again; this is what the first execution ended with. */
  replayed?: boolean;
} & (
  /** A success may carry a note for the logs. */
  | { result: 'confirmed'; detail?: string }
  | { result: Exclude<OutcomeResult, 'confirmed'>; detail: string }
);

/** What the platform already shows for a logical action. */
export interface ExecutionRecord {
  logicalActionId: string;
  /** The command that executed it. */
  commandId: string;
  hostId: string;
  executedAt: number;
  outcome: Outcome;
}

/** A batch of feed events. The driver moves past it only once the listener's promise resolves, so nothing is lost if the host dies while reporting. */
export type FeedListener = (events: FeedEvent[]) => Promise<void>;

export interface FeedSubscription {
  /** Stops delivering; resolves once no listener call is running. */
  stop(): Promise<void>;
}

export interface Driver {
  /** The execution the platform shows for `logicalActionId`, or null if it never happened: checked before executing, so a redelivered command is not executed twice. */
  findExecuted(logicalActionId: string): Promise<ExecutionRecord | null>;

  /** message.send to an existing conversation, direct or group. */
  sendToConversation(action: ActionRef, conversation: ConversationRef, content: OutgoingContent): Promise<Outcome>;
  /** message.send to an address: plain text, into the direct conversation with it, which is created (and reported) if new. */
  sendToRecipient(action: ActionRef, recipientExternalId: string, text: string): Promise<Outcome>;
  /** reaction.tapback: any message of the conversation, by its id. */
  tapback(action: ActionRef, conversation: ConversationRef, messageExternalId: string, tapback: Tapback, remove: boolean): Promise<Outcome>;
  /** reaction.apply: the newest incoming message of a direct conversation. */
  reactToNewestIncoming(action: ActionRef, conversation: ConversationRef, tapback: Tapback): Promise<Outcome>;
  /** name_photo.share: offers the account's contact card in a direct conversation. */
  shareNamePhoto(action: ActionRef, conversation: ConversationRef): Promise<Outcome>;
  /** group.create: a group exists on the platform once its first message is sent. */
  createGroup(action: ActionRef, participants: string[], text: string, name: string | null): Promise<Outcome>;
  renameGroup(action: ActionRef, conversation: ConversationRef, name: string): Promise<Outcome>;
  addParticipant(action: ActionRef, conversation: ConversationRef, participant: string): Promise<Outcome>;
  removeParticipant(action: ActionRef, conversation: ConversationRef, participant: string): Promise<Outcome>;
  /** group.update set_photo, with the image the host fetched for its transferId. */
  setGroupPhoto(action: ActionRef, conversation: ConversationRef, photo: Media): Promise<Outcome>;
  leaveGroup(action: ActionRef, conversation: ConversationRef): Promise<Outcome>;

  /** Delivers what happens on the platform on its own, oldest first, from where the last holder of the lease stopped. */
  subscribe(listener: FeedListener): FeedSubscription;
  close(): Promise<void>;
}
