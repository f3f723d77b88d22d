/**
 * The SDK's public types, all derived from the contracts (specs/): a field renamed in the spec
 * changes these types, and code that uses the old name stops compiling.
 */
import type { components, EventComponents, paths } from '@switchboard/contracts';

type Schemas = components['schemas'];
type EventSchemas = EventComponents['schemas'];

/** The JSON request body of a command endpoint, exactly as the spec declares it. */
export type CommandBody<P extends keyof paths> = paths[P] extends {
  post: { requestBody: { content: { 'application/json': infer Body } } };
}
  ? Body
  : never;

type KeysOfUnion<U> = U extends unknown ? keyof U : never;

/**
 * Each member of a union, with the keys that only other members have declared as `never`. An
 * object literal then matches exactly one member: `{ text, effect }` without `kind` is a
 * compile error instead of passing as plain text with a stray field.
 */
export type Exclusive<U, All = U> = U extends unknown ? U & { [K in Exclude<KeysOfUnion<All>, keyof U>]?: never } : never;

export type Acknowledgement = Schemas['Acknowledgement'];
export type Disposition = Schemas['Disposition'];
export type CommandStatus = Schemas['CommandStatus'];
export type CommandType = Schemas['CommandType'];
export type RoutingPath = Schemas['RoutingPath'];
export type Command = Schemas['Command'];
export type Conversation = Schemas['Conversation'];
export type ConversationPage = Schemas['ConversationPage'];
/**
 * One message of a conversation and its state: when it was sent, delivered and read, or when and
 * why it failed (`failure`), and whether its sender edited or unsent it. `getCommand(id).message`
 * is the message a command sent (null until the platform confirmed it, and for commands that send
 * none); `listMessages` reads a conversation's.
 */
export type Message = Schemas['Message'];
/** Why a message failed after the platform took it: `not_delivered` or `recipient_unreachable`. */
export type MessageFailure = Schemas['MessageFailure'];
export type MessageFailureReason = Schemas['MessageFailureReason'];
/** An attachment of a message (`Message.attachments`); download it with `getAttachment`. */
export type AttachmentRef = Schemas['AttachmentRef'];
/** A page of a conversation's messages, newest first. */
export type MessagePage = Schemas['MessagePage'];
export type CapabilityReport = Schemas['CapabilityReport'];
/** A poll the account sent, with each option's tally and each voter's choice; `pollId` is the sending command's id. */
export type Poll = Schemas['Poll'];
export type PollOption = Schemas['PollOption'];
export type PollVoter = Schemas['PollVoter'];
export type Capability = Schemas['Capability'];

export type ConversationTarget = Schemas['ConversationTarget'];
export type RecipientTarget = Schemas['RecipientTarget'];
export type ParticipantsTarget = Schemas['ParticipantsTarget'];

export type ScreenEffect = Schemas['ScreenEffect'];
export type Tapback = Schemas['Tapback'];
export type TextPayload = Schemas['TextPayload'];
/** The rich kinds of message.send, discriminated by `kind`. */
export type RichPayload = Exclusive<Schemas['RichPayload']>;
/** A message.send payload into a conversation: plain text (no `kind`) or a rich kind. */
export type MessagePayload = Exclusive<Schemas['MessageSendPayload']>;
/** A recipient send carries plain text only; the service discards every other key. */
export type RecipientSendPayload = Schemas['RecipientSendPayload'];
export type GroupUpdatePayload = Exclusive<Schemas['GroupUpdatePayload']>;

/** message.send to an existing conversation: the agent-turn path. */
export interface SendToConversation {
  target: ConversationTarget;
  payload: MessagePayload;
}
/** message.send to a new contact: the admin path, plain text only. */
export interface SendToRecipient {
  target: RecipientTarget;
  payload: RecipientSendPayload;
}
export type TapbackRequest = CommandBody<'/v1/commands/reaction.tapback'>;
export type ReactionRequest = CommandBody<'/v1/commands/reaction.apply'>;
export type NamePhotoShareRequest = CommandBody<'/v1/commands/name_photo.share'>;
export type GroupCreateRequest = CommandBody<'/v1/commands/group.create'>;
export interface GroupUpdateRequest {
  target: ConversationTarget;
  payload: GroupUpdatePayload;
}
export type GroupLeaveRequest = CommandBody<'/v1/commands/group.leave'>;

/** The request body of each command type, as the typed methods take it. */
export interface CommandRequests {
  'message.send': SendToConversation | SendToRecipient;
  'reaction.tapback': TapbackRequest;
  'reaction.apply': ReactionRequest;
  'name_photo.share': NamePhotoShareRequest;
  'group.create': GroupCreateRequest;
  'group.update': GroupUpdateRequest;
  'group.leave': GroupLeaveRequest;
}
export type CommandRequest<T extends CommandType = CommandType> = CommandRequests[T];

/**
 * The webhook events are newer than the stream's first event types. `events()` skips them, as it
 * skips any type it does not know, so an exhaustive `switch` over the first types stays
 * exhaustive (a future major release adds them); webhook receivers get them as `WebhookEvent`.
 */
type WebhookEventType = 'webhook.endpoint_disabled' | 'webhook.test';
/**
 * Event types newer than the stream's first ones, which `events()` yields only when asked to
 * (`include`): yielding them to every caller would add a case that an exhaustive `switch`
 * written before them does not handle. A future major release yields them by default.
 */
export type OptInEventType = 'poll.voted' | MessageStateEventType | 'message.reaction' | 'message.edited' | 'message.unsent' | HoldEventType;
/**
 * A line policy held a command (quiet hours, first-contact approval), or its hold ended: each
 * once per hold. Opt-in (see `OptInEventType`); only accounts whose operator turned a hold policy
 * on have them.
 */
export type HoldEventType = 'command.held' | 'command.released';
/**
 * What became of one of the account's messages after `message.sent`: delivered, read, or failed
 * after the platform took it. Each once per message. Opt-in (see `OptInEventType`).
 */
export type MessageStateEventType = 'message.delivered' | 'message.read' | 'message.failed';
export type StreamEventType = Exclude<EventSchemas['EventType'], WebhookEventType | OptInEventType>;
/** Any event of the response stream, discriminated by `type`. */
export type StreamEvent = Exclude<EventSchemas['StreamEvent'], { type: WebhookEventType | OptInEventType }>;
/** The opt-in events of the given types (see `OptInEventType`). */
export type OptInEvent<T extends OptInEventType = OptInEventType> = Extract<EventSchemas['StreamEvent'], { type: T }>;
/** What a webhook delivery carries: any stream event, the webhook events included. */
export type WebhookEvent = EventSchemas['StreamEvent'];
export type CommandSettledEvent = EventSchemas['CommandSettledEvent'];
export type ConversationAppearedEvent = EventSchemas['ConversationAppearedEvent'];
export type MessageReceivedEvent = EventSchemas['MessageReceivedEvent'];
export type MessageSentEvent = EventSchemas['MessageSentEvent'];
export type GroupRenamedEvent = EventSchemas['GroupRenamedEvent'];
export type GroupParticipantsChangedEvent = EventSchemas['GroupParticipantsChangedEvent'];
export type WebhookEndpointDisabledEvent = EventSchemas['WebhookEndpointDisabledEvent'];
export type WebhookTestEvent = EventSchemas['WebhookTestEvent'];
/** A line policy held a command; yielded by `events({ include: ['command.held'] })`. */
export type CommandHeldEvent = EventSchemas['CommandHeldEvent'];
/** A held command was released and is queued; yielded by `events({ include: ['command.released'] })`. */
export type CommandReleasedEvent = EventSchemas['CommandReleasedEvent'];
/** Someone cast, changed or withdrew a vote on a poll the account sent; yielded by `events({ include: ['poll.voted'] })`. */
export type PollVotedEvent = EventSchemas['PollVotedEvent'];
export type PollVoted = EventSchemas['PollVoted'];
/** The platform marked one of the account's messages delivered (once per message); yielded by `events({ include: ['message.delivered'] })`. */
export type MessageDeliveredEvent = EventSchemas['MessageDeliveredEvent'];
/** The recipient read one of the account's messages (direct conversations only; once per message); opt-in. */
export type MessageReadEvent = EventSchemas['MessageReadEvent'];
/**
 * One of the account's messages failed after the platform took it (once per message); opt-in.
 * Its command keeps its settlement: a send that settled `succeeded` stays `succeeded`.
 */
export type MessageFailedEvent = EventSchemas['MessageFailedEvent'];
/** Someone else added or removed a tapback on a message (once per reaction); opt-in. */
export type MessageReactionEvent = EventSchemas['MessageReactionEvent'];
/** Someone else edited a message they sent (once per edit); opt-in. */
export type MessageEditedEvent = EventSchemas['MessageEditedEvent'];
/** Someone else unsent a message they sent; opt-in. */
export type MessageUnsentEvent = EventSchemas['MessageUnsentEvent'];
export type StreamReset = EventSchemas['StreamReset'];

export type WebhookEndpoint = Schemas['WebhookEndpoint'];
/** A created or rotated endpoint: the signing secret is shown this once. */
export type WebhookEndpointWithSecret = Schemas['WebhookEndpointWithSecret'];
export type WebhookEndpointCreate = Schemas['WebhookEndpointCreate'];
export type WebhookEndpointUpdate = Schemas['WebhookEndpointUpdate'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookDeliveryPage = Schemas['WebhookDeliveryPage'];

/**
 * What `events()` yields: the account's events, and `reset` when the resume point was older
 * than retention (events were missed; re-read state). `reset` is not an account event and has
 * no id.
 */
export type StreamItem = StreamEvent | { type: 'reset'; data: StreamReset };

/** A page of the stream's JSON form. */
export interface EventPage {
  events: StreamEvent[];
  /** Pass as `after` for the next page; equals `after` when there was nothing new. */
  nextAfter: string;
}

/** Error bodies that carry more than `{ error, message, requestId }`. */
export type AddressErrorBody = Schemas['AddressError'];
export type RateLimitedErrorBody = Schemas['RateLimitedError'];
export type UnknownCommandErrorBody = Schemas['UnknownCommandError'];
export type CursorExpiredErrorBody = Schemas['CursorExpiredError'];

/** An inbound attachment's bytes, as the platform delivered them. */
export interface Attachment {
  bytes: Uint8Array;
  mimeType: string;
  /** From Content-Disposition, when the service sent one. */
  fileName: string | undefined;
}

export interface RequestOptions {
  signal?: AbortSignal | undefined;
}

/**
 * Options of an agent-turn command. The SDK sends an Idempotency-Key with every one (its own
 * random UUID unless you pass one) and reuses it across its retries, so a retry is adopted by the
 * service instead of sent twice. Pass your own key to make retries across process restarts safe
 * too (e.g. derived from the inbound message you are answering).
 */
export interface AgentTurnOptions extends RequestOptions {
  /**
   * The command's Idempotency-Key: one key, one command. A key the service already holds for the
   * account (48 hours) is answered `disposition: 'adopted'` with the first command, whatever this
   * body says: reusing a key for a different message returns the first command, and the new text
   * is not sent. Use a new key for new content.
   */
  idempotencyKey?: string | undefined;
}

/** Uploaded media (`transfers.upload`); put its `transferId` in an `attachment` or `sticker` payload, or a `set_photo` update. */
export type Transfer = Schemas['Transfer'];

/**
 * What `transfers.upload` sends: bytes in memory (a Blob or File, a Uint8Array such as a Node
 * Buffer, an ArrayBuffer), or a stream read once as it is sent (a web ReadableStream, a Node
 * Readable or any async iterable of bytes).
 */
export type UploadBody = Blob | ArrayBuffer | Uint8Array | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

export interface UploadOptions extends RequestOptions {
  /** The name the recipient sees (`invoice.pdf`): 1-255 characters, no `/` or `\`. */
  fileName: string;
  /** The media type (`image/png`). A Blob's own `type` when omitted; required for every other body. */
  contentType?: string | undefined;
  /** Per attempt, until the answer arrives, so the whole upload; defaults to the client's `timeoutMs`. */
  timeoutMs?: number | undefined;
}

/** `client.transfers`: media uploads, on a server with transfers turned on. */
export interface Transfers {
  /**
   * Uploads media and answers the Transfer: its `transferId`, size, SHA-256 and `expiresAt` (a
   * transfer no command names expires, by default 24 hours after the upload). A server with
   * transfers off answers `SwitchboardError` `transfers_disabled` (404); over the account's size
   * limit `transfer_too_large` (413); a media type it does not take `transfer_type_invalid` or
   * `transfer_type_not_allowed` (415).
   *
   * Retries: bytes in memory are sent again after any network failure, 429 or 5xx (a repeat
   * only leaves a copy nothing names, which expires). A stream is read once, as it is sent, so
   * it cannot be sent again once fetch has read from it: it is retried only when the failure
   * came before its first byte was read (a refused connection, say), and otherwise the error is
   * thrown; upload it again from the start. Streams need fetch with request streams (Node, Deno,
   * Bun, Chromium browsers over HTTP/2).
   */
  upload(body: Blob, options: UploadOptions): Promise<Transfer>;
  upload(body: Exclude<UploadBody, Blob>, options: UploadOptions & { contentType: string }): Promise<Transfer>;
}
