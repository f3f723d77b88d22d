import type {
  AdminComponents, Capability, CommandStatus, CommandType, ConversationKind, PlatformEvent, RoutingPath, SettlementCode, Target,
} from '@switchboard/contracts';
import type { WebhookStore } from './webhooks.ts';
import type { Result } from '../result.ts';
import type { PolicyRefusal } from './rules/policies.ts';

export type CredentialKind = 'account' | 'connector';

export interface AccountRecord {
  id: string;
  name: string;
  outboundPaused: boolean;
  createdAt: number;
}

export interface CredentialRecord {
  id: string;
  accountId: string;
  kind: CredentialKind;
  /** The first characters of the key, shown in listings so an operator can tell keys apart. */
  prefix: string;
  label: string;
  createdAt: number;
  revokedAt: number | null;
}

export interface ConversationRecord {
  id: string;
  accountId: string;
  externalId: string;
  kind: ConversationKind;
  name: string | null;
  participants: string[];
  membershipVersion: number;
  createdAt: number;
}

export interface StatusChange {
  status: CommandStatus;
  at: number;
}

export interface CommandRecord {
  id: string;
  accountId: string;
  type: CommandType;
  routingPath: RoutingPath;
  status: CommandStatus;
  target: Target;
  payload: Record<string, unknown>;
  logicalActionId: string;
  idempotencyKey: string | null;
  conversationId: string | null;
  errorCode: SettlementCode | null;
  /** Why it failed, for people (bounded by the caller); null unless failed. */
  errorMessage: string | null;
  /** Where in the request body it failed, a JSON Pointer; null unless failed there. */
  errorPath: string | null;
  createdAt: number;
  settledAt: number | null;
  /** The lease epoch the command was last dispatched under; null until dispatched. */
  dispatchEpoch: number | null;
  /** When it was last dispatched; null until dispatched (or dispatched before this was recorded). */
  dispatchedAt: number | null;
  /** The line policy holding it (then `status` is `held`); null when it is not held. */
  heldBy: HoldPolicy | null;
  /** When a policy first held it (at its acceptance); null when none ever did. */
  heldAt: number | null;
  /** When its hold ended by a release (then it was `queued`); null otherwise. */
  releasedAt: number | null;
}

export type HoldPolicy = 'quietHours' | 'firstContactApproval';

export interface NewCommand {
  id: string;
  accountId: string;
  type: CommandType;
  routingPath: RoutingPath;
  target: Target;
  payload: Record<string, unknown>;
  logicalActionId: string;
  idempotencyKey: string | null;
  conversationId: string | null;
  createdAt: number;
}

export type AcceptResult =
  /** `released`: the account's quiet-hours holds a policed intake released first (none when absent). */
  | { disposition: 'queued'; command: CommandRecord; released?: number }
  | { disposition: 'adopted'; command: CommandRecord }
  /** A line policy refused it (rules/policies.ts): nothing of it was written. */
  | { disposition: 'refused'; refusal: PolicyRefusal; released?: number };

/**
 * An event as the store keeps it. The store is ignorant of event shapes (its one suite stores
 * any); the domain writes the shapes of specs/asyncapi/stream.yaml (stream/envelope.ts types
 * them), and toEnvelope hands them out as typed stream events.
 */
export interface NewEvent {
  type: string;
  time: number;
  data: unknown;
}

export interface EventRecord extends NewEvent {
  id: number;
  accountId: string;
}

export interface LeaseRecord {
  accountId: string;
  hostId: string;
  epoch: number;
  osMajorVersion: number;
  capabilities: Capability[];
  acquiredAt: number;
  expiresAt: number;
}

/** The lease granted, or the live lease another host holds. */
export type LeaseAcquireResult = Result<LeaseRecord, { holder: LeaseRecord }>;

/**
 * A settlement that took effect, with its command.settled event; or one the epoch that settled
 * the command repeats (a retry after a lost response), answered as the first was, `event` null:
 * nothing was written.
 */
export interface Settled {
  command: CommandRecord;
  event: EventRecord | null;
}

/** Why a settlement was refused; nothing of it was written, its platform events aside where said. */
export type SettleRefusal =
  /** Settled already, differently or under another epoch (a live epoch's platform events are kept). */
  | { reason: 'conflict'; command: CommandRecord }
  | { reason: 'lease_lost' }
  /** Not dispatched to this epoch (a live epoch's platform events are kept). */
  | { reason: 'not_dispatched' }
  | { reason: 'not_found' }
  /** The settlement's platform events name a conversation nobody announced: nothing of it was recorded. */
  | { reason: 'unknown_conversation'; externalId: string };

export type SettleResult = Result<Settled, SettleRefusal>;

export interface Settlement {
  accountId: string;
  commandId: string;
  epoch: number;
  status: 'succeeded' | 'failed';
  errorCode: SettlementCode | null;
  errorMessage: string | null;
  errorPath: string | null;
  detail: string | null;
  at: number;
  /** The command.settled event's data; built by the caller so the store stays ignorant of its shape. */
  eventData: (command: CommandRecord) => unknown;
  /** What the platform showed of the command, recorded just before it settles (as `recordPlatformEvents` records it). */
  platformEvents?: { events: readonly PlatformEvent[]; newConversationId: () => string; view: PlatformEventView };
}

/**
 * One message of a conversation and what became of it, as the platform reported it (times in ms).
 * Keyed by the conversation and `messageExternalId`.
 */
export interface MessageRecord {
  accountId: string;
  conversationId: string;
  messageExternalId: string;
  direction: 'outbound' | 'inbound';
  /** The command that sent it; null for inbound messages and the account's messages sent elsewhere. */
  commandId: string | null;
  /** Who sent an inbound message; null for the account's own. */
  senderExternalId: string | null;
  text: string | null;
  attachments: Array<{ attachmentId: string; fileName: string; mimeType: string; byteSize: number }>;
  sentAt: number | null;
  deliveredAt: number | null;
  readAt: number | null;
  failedAt: number | null;
  failure: { reason: 'not_delivered' | 'recipient_unreachable'; platformMessage: string | null } | null;
  editedAt: number | null;
  unsentAt: number | null;
  /** When the server first recorded it: the order messages are listed in, and what retention goes by. */
  recordedAt: number;
}

/** A poll the account sent, as the platform confirmed it (its message.sent); its id is the command's. */
export interface PollRecord {
  id: string;
  accountId: string;
  conversationId: string;
  messageExternalId: string;
  question: string;
  options: string[];
  sentAt: number;
}

/** A voter's current choice; withdrawn votes are not listed. */
export interface PollVoteRecord {
  voterExternalId: string;
  optionIndex: number;
  votedAt: number;
}

/** A poll with the votes that stand. */
export interface PollWithVotes extends PollRecord {
  /** Earliest vote first. */
  votes: PollVoteRecord[];
}

/** What a `poll.voted` platform event changed: the poll, and the voter's choice before it (null: none). */
export interface PollVoteChange {
  poll: PollRecord;
  previousOptionIndex: number | null;
}

/**
 * The stream event a platform event implies, given the conversation as it is after the event
 * (and, for a vote, the change it made); built by the caller so the store stays ignorant of
 * event shapes.
 */
export type PlatformEventView = (event: PlatformEvent, conversation: ConversationRecord, vote?: PollVoteChange, message?: MessageRecord) => NewEvent;

/** How many events were recorded and the stream events they implied; or the conversation no one announced. */
export type PlatformEventsResult = Result<{ recorded: number; events: EventRecord[] }, { unknownConversation: string }>;

export interface AttachmentRecord {
  id: string;
  accountId: string;
  fileName: string;
  mimeType: string;
  bytes: Uint8Array;
  createdAt: number;
}

/** Media uploaded with `POST /v1/transfers` (specs/openapi/switchboard.yaml, "Transfers"). */
export interface TransferRecord {
  id: string;
  accountId: string;
  fileName: string;
  /** Lower-cased, without parameters. */
  mimeType: string;
  byteSize: number;
  /** Lower-case hex; empty while uploading. */
  sha256: string;
  /** Only a `ready` transfer can be fetched; an `uploading` one is an upload under way or cut off. */
  state: 'uploading' | 'ready';
  createdAt: number;
  /** When a new command can no longer use it (0 while uploading). */
  expiresAt: number;
}

/** What an account may upload (specs/openapi/admin.yaml, TransferLimits). */
export type TransferLimits = AdminComponents['schemas']['TransferLimits'];

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** An account's line policies (specs/openapi/switchboard.yaml, "Line policies"); null: off. */
export interface LinePolicies {
  newContacts: { perHour: number | null; perDay: number | null } | null;
  pacing: { perMinute: number } | null;
  loopBreaker: { maxUnanswered: number } | null;
  quietHours: QuietHours | null;
  firstContactApproval: boolean;
}

/** Quiet from `from` until `until` (local `HH:MM`) in the time zone that applies. */
export interface QuietHours {
  from: string;
  until: string;
  timeZone: string;
  conversationTimeZones: Record<string, string>;
}

/** Accounts, their credentials and the outbound pause. */
export interface AccountStore {
  createAccount(input: { id: string; name: string; createdAt: number }): Promise<AccountRecord>;
  getAccount(id: string): Promise<AccountRecord | null>;
  findAccount(idOrName: string): Promise<AccountRecord | null>;
  listAccounts(): Promise<AccountRecord[]>;
  setOutboundPaused(accountId: string | null, paused: boolean): Promise<void>;
  /** True when sending is paused for this account or for every account. */
  isOutboundPaused(accountId: string): Promise<boolean>;
  /** The account's line policies; every one null (off) until set. */
  getPolicies(accountId: string): Promise<LinePolicies>;
  /**
   * Replaces the account's line policies; the next command is held to them. In the same
   * transaction, releases the quiet-hours holds the new policies let go at `at` (rules/policies.ts,
   * dueReleases: quiet hours off, or a window that is open now), each with its command.released
   * event, so no command accepted after the change overtakes them. Answers how many.
   */
  setPolicies(accountId: string, policies: LinePolicies, at: number): Promise<number>;

  createCredential(input: Omit<CredentialRecord, 'revokedAt'> & { hash: Buffer }): Promise<CredentialRecord>;
  findCredentialByHash(hash: Buffer): Promise<(CredentialRecord & { hash: Buffer }) | null>;
  listCredentials(accountId: string): Promise<CredentialRecord[]>;
  revokeCredential(id: string, at: number): Promise<CredentialRecord | null>;
}

export type OperatorRole = 'full' | 'read-only';

/** An operator key: it opens the admin API (read-only: its GETs only). */
export interface OperatorKeyRecord {
  id: string;
  role: OperatorRole;
  prefix: string;
  label: string;
  createdAt: number;
  revokedAt: number | null;
}

/** One change an operator made, as the audit log keeps it. */
export interface AuditRecord {
  id: number;
  at: number;
  /** Null: made by the CLI where the store is, without a key. */
  operatorKeyId: string | null;
  action: string;
  accountId: string | null;
  subject: string | null;
  detail: Record<string, unknown>;
}

/** What an operator's command search asks for; every field is optional and they combine. */
export interface CommandFilter {
  accountId?: string;
  status?: CommandStatus;
  errorCode?: SettlementCode;
  type?: CommandType;
  /** Accepted at or after (ms). */
  createdFrom?: number;
  /** Accepted before (ms). */
  createdBefore?: number;
}

/** Commands accepted and settled in one minute (`minute`: its start, ms). */
export interface MinuteCounts {
  minute: number;
  accepted: number;
  succeeded: number;
  failed: number;
}

/** What the admin API reads across accounts, and the operator keys and audit log it keeps. */
export interface AdminStore {
  createOperatorKey(input: Omit<OperatorKeyRecord, 'revokedAt'> & { hash: Buffer }): Promise<OperatorKeyRecord>;
  /** A live (unrevoked) key with this hash, or null. */
  findOperatorKeyByHash(hash: Buffer): Promise<(OperatorKeyRecord & { hash: Buffer }) | null>;
  listOperatorKeys(): Promise<OperatorKeyRecord[]>;
  /** Revokes at `at` (a revoked key keeps its first revocation time); null for an unknown id. */
  revokeOperatorKey(id: string, at: number): Promise<OperatorKeyRecord | null>;
  /** A credential (API or connector key) by id, revoked or not. */
  getCredential(id: string): Promise<CredentialRecord | null>;

  appendAudit(record: Omit<AuditRecord, 'id'>): Promise<AuditRecord>;
  /** Newest first; `cursor` is a page's `nextCursor`. */
  listAudit(limit: number, cursor: string | null): Promise<Page<AuditRecord>>;

  /** A command of any account. */
  findCommand(id: string): Promise<CommandRecord | null>;
  /** Newest first (by id, which is time-ordered); `cursor` is a page's `nextCursor`. */
  listCommands(filter: CommandFilter, limit: number, cursor: string | null): Promise<Page<CommandRecord>>;
  /**
   * Every account's commands accepted, and settled, at or after `since`: the minutes that have
   * any (oldest first; the caller fills the rest with zeros), and the failed ones by settlement code.
   */
  commandCounts(since: number): Promise<{ minutes: MinuteCounts[]; failures: Array<{ code: SettlementCode; count: number }> }>;
  /** Sending is paused for every account (`setOutboundPaused(null, true)`). */
  outboundPausedForAll(): Promise<boolean>;
  /** The host that acquired `epoch` of the account's lease; null when not recorded. */
  leaseHolder(accountId: string, epoch: number): Promise<string | null>;
}

/** Conversations, and what the platform reports of them (polls and votes included). */
export interface ConversationStore {
  getConversation(accountId: string, id: string): Promise<ConversationRecord | null>;
  findConversationByExternalId(accountId: string, externalId: string): Promise<ConversationRecord | null>;
  listConversations(accountId: string, limit: number, cursor: string | null): Promise<Page<ConversationRecord>>;
  /**
   * Applies what the platform reported, in order, with the stream events it implies, all in one
   * transaction. Idempotent: what is already recorded adds no event. A batch naming a
   * conversation that neither the store nor an earlier event of the batch knows records nothing.
   */
  recordPlatformEvents(accountId: string, events: readonly PlatformEvent[], at: number, newConversationId: () => string, view: PlatformEventView): Promise<PlatformEventsResult>;
  /**
   * A poll the account sent (recorded when the message.sent of a message.send with `kind: poll`
   * is), with its standing votes; null for any other id. A `poll.voted` platform event changes a
   * voter's choice when its `votedAt` is not older than the one held and the choice differs.
   */
  getPoll(accountId: string, pollId: string): Promise<PollWithVotes | null>;
  /** The message a command sent, once the platform confirmed it; null otherwise. */
  getMessageOfCommand(accountId: string, commandId: string): Promise<MessageRecord | null>;
  /** A conversation's messages, newest recorded first; `cursor` is a page's `nextCursor`. */
  listMessages(accountId: string, conversationId: string, limit: number, cursor: string | null): Promise<Page<MessageRecord>>;
}

/** Commands: intake, dispatch, settlement and their retention. */
/** What a dispatch poll's read handed out, and the lease's expiry after it. */
export interface Dispatched {
  commands: CommandRecord[];
  leaseExpiresAt: number;
}

export interface CommandStore {
  findIdempotentCommand(accountId: string, key: string, notBefore: number): Promise<CommandRecord | null>;
  /**
   * Records a command; on the agent-turn path with a key already known (and not older than
   * `keyNotBefore`), adopts instead. `policed`: the account's policies (as `getPolicies` gave
   * them) apply to the command (rules/policies.ts, `policiesApply`): the store locks the account's
   * policies, reads them and the usage they count, and writes the command with the first contacts
   * it makes, or refuses and writes nothing, in one transaction. An adoption spends nothing.
   * Policed, it first releases the account's due quiet-hours holds (as `releaseDueHolds`), so a
   * new command never overtakes one the window let through; a command the rule holds is written
   * held (`heldBy`), with its command.held event.
   */
  acceptCommand(command: NewCommand, keyNotBefore: number, policed?: boolean): Promise<AcceptResult>;
  getCommand(accountId: string, id: string): Promise<CommandRecord | null>;
  commandHistory(id: string): Promise<StatusChange[]>;
  /**
   * Hands the oldest queued commands not yet dispatched to `epoch`, or dispatched to it but not
   * among those the host says it is `holding` (the answer never reached it), and marks them
   * dispatched under `epoch`. A poll is a renewal: the live lease is renewed by `ttlMs` in the
   * same transaction when it is due (rules/leases.ts, pollRenewsBefore). Null when `epoch` is not
   * the live lease's at `now`; otherwise the commands and when the lease expires.
   */
  dispatchCommands(accountId: string, epoch: number, max: number, holding: readonly string[], now: number, ttlMs: number): Promise<Dispatched | null>;
  settleCommand(settlement: Settlement): Promise<SettleResult>;
  /**
   * Settles each in order, in one transaction, as `settleCommand` does, each with its platform
   * events first. A repeated settlement and a lost lease record nothing of their item, events
   * included; an unknown conversation in an item's events records nothing of that item.
   */
  settleCommands(settlements: readonly Settlement[]): Promise<SettleResult[]>;
  purgeIdempotencyKeys(olderThan: number): Promise<number>;
  /**
   * Drops up to `limit` commands settled before `settledBefore`; answers how many. Never a
   * command still queued, and never one whose Idempotency-Key is still kept (an adopted
   * duplicate answers with it).
   */
  purgeCommands(settledBefore: number, limit: number): Promise<number>;
}

/** Each account's response stream: its log of events. */
export interface EventStore {
  appendEvents(accountId: string, events: NewEvent[]): Promise<EventRecord[]>;
  readEvents(accountId: string, after: number, limit: number): Promise<EventRecord[]>;
  /**
   * As `readEvents`, for a reader woken by every commit that appends to the account's log (a
   * stream), after its first read: it may stop short of the log's end, never with a gap.
   */
  followEvents(accountId: string, after: number, limit: number): Promise<EventRecord[]>;
  /** Events up to this id were dropped by retention; 0 when none were. */
  eventsPurgedThrough(accountId: string): Promise<number>;
  /** The largest id the account's log ever held, retained or purged; 0 for an empty log. */
  newestEventId(accountId: string): Promise<number>;
  purgeEvents(olderThan: number): Promise<number>;
}

export interface LeaseStore {
  acquireLease(input: Omit<LeaseRecord, 'epoch' | 'acquiredAt' | 'expiresAt'>, now: number, ttlMs: number): Promise<LeaseAcquireResult>;
  renewLease(accountId: string, epoch: number, now: number, ttlMs: number): Promise<LeaseRecord | null>;
  releaseLease(accountId: string, epoch: number, now: number): Promise<boolean>;
  /**
   * The leases of a server's open dispatch polls, in one write: renews each live lease of its
   * epoch that expires before `openPollRenewsBefore(now, ttlMs)` (rules/leases.ts), unsynced like
   * every renewal. Answers how many it renewed.
   */
  renewOpenPollLeases(polls: ReadonlyArray<{ accountId: string; epoch: number }>, now: number, ttlMs: number): Promise<number>;
  liveLease(accountId: string, now: number): Promise<LeaseRecord | null>;
  listLeases(): Promise<LeaseRecord[]>;
}

export interface AttachmentStore {
  putAttachment(record: AttachmentRecord): Promise<void>;
  getAttachment(accountId: string, id: string): Promise<AttachmentRecord | null>;
  /** Drops up to `limit` attachments stored before `olderThan`; answers how many. */
  purgeAttachments(olderThan: number, limit: number): Promise<number>;
}

/**
 * Transfers, in chunks of 1 MiB (rules/transfers.ts). An upload is written chunk by chunk, each
 * chunk its own short write (a slow client never holds a transaction, nor SQLite's writer), and
 * becomes usable only when `finishTransfer` commits.
 */
export interface TransferStore {
  /** Records an upload under way ('uploading'), with no chunk. */
  beginTransfer(input: { id: string; accountId: string; fileName: string; mimeType: string; createdAt: number }): Promise<void>;
  /** Stores chunk `seq` (0, 1, ...) of an upload under way. */
  appendTransferChunk(accountId: string, transferId: string, seq: number, bytes: Uint8Array): Promise<void>;
  /** Makes the upload usable (ready, its size, checksum and expiry) in one write; null when no upload under way has this id. */
  finishTransfer(accountId: string, transferId: string, done: { byteSize: number; sha256: string; expiresAt: number }): Promise<TransferRecord | null>;
  /** Drops an upload (refused or cut off) and its chunks. */
  abandonTransfer(accountId: string, transferId: string): Promise<void>;
  /**
   * A connector host's fetch of a transfer for a command of the account: when `transferFetchable`
   * allows it, records that the command used it (so it is kept as long as the command) and
   * answers it, in one write; null otherwise, and nothing is written.
   */
  fetchTransfer(accountId: string, transferId: string, commandId: string): Promise<TransferRecord | null>;
  /** Chunk `seq` of a transfer; null when there is none. */
  readTransferChunk(accountId: string, transferId: string, seq: number): Promise<Uint8Array | null>;
  /**
   * Drops up to `limit` transfers: ready ones expired at `now` that no command used (a command's
   * use goes with the command) and no queued command accepted before the expiry names, and
   * uploads still 'uploading' that began before `uploadingBefore`.
   * Answers how many.
   */
  purgeTransfers(now: number, uploadingBefore: number, limit: number): Promise<number>;
  /** The account's limits; the defaults until set. */
  getTransferLimits(accountId: string): Promise<TransferLimits>;
  setTransferLimits(accountId: string, limits: TransferLimits, at: number): Promise<void>;
}

/**
 * Everything Switchboard keeps. Every write resolves only once it is durable, and a rejected
 * write leaves nothing behind. Reads see only what is durable, so nothing a client is shown can
 * be rolled back by a crash; a read issued after a write resolved sees it. Each write method is
 * one transaction: a state change and the stream events it implies commit together (an outbox).
 * What a write decides is decided once, by the pure rules in rules/; a store reads what they
 * need, locks it, and writes what they return. Every implementation passes the one suite in
 * test/store.suite.ts.
 */
/** Why an operator's release or rejection did nothing. */
export type HoldRefusal = 'not_found' | 'not_held';

/** What the line policies count for an account now (the admin API's PolicyUsage, in ms). */
export interface PolicyCounts {
  firstContactsLastHour: number;
  firstContactsLastDay: number;
  held: Record<HoldPolicy, number>;
  /** With a conversation: its `message.send` commands of the last minute, and since its newest inbound message. */
  conversation: { sendsLastMinute: number; unanswered: number } | null;
}

/**
 * Commands the line policies hold (rules/policies.ts). A hold is written by `acceptCommand`
 * (policed); these end holds, each one transaction under the account's policies lock (PostgreSQL;
 * SQLite has one writer), its status change and its stream event together, so a hold ends once.
 */
export interface HoldStore {
  /**
   * Releases, in each account, the quiet-hours holds `dueReleases` lets go at `now` (their window
   * ended, or quiet hours are off), in the order they were accepted, each with its
   * command.released event. Answers each account that released some, and how many.
   */
  releaseDueHolds(now: number): Promise<Array<{ accountId: string; released: number }>>;
  /**
   * An operator's release of the held command `id` (any account): `operatorRelease` decides
   * whether it becomes queued (command.released, `by` operator) or, a first contact during quiet
   * hours, held by quiet hours (command.held). An approved first contact's addresses are recorded
   * as its first contacts.
   */
  releaseHeld(id: string, now: number): Promise<Result<CommandRecord, HoldRefusal>>;
  /**
   * An operator's rejection: the held command settles `failed` with `rejectionCode(heldBy)` and
   * `reason` as its errorMessage, with its command.settled event (`eventData` builds it, as a
   * settlement's does). A rejected first contact's first_contacts rows are deleted.
   */
  rejectHeld(id: string, reason: string | null, now: number, eventData: (command: CommandRecord) => unknown): Promise<Result<CommandRecord, HoldRefusal>>;
  /** What the account's policies count at `now`; with `conversationId`, that conversation's too. */
  policyCounts(accountId: string, conversationId: string | null, now: number): Promise<PolicyCounts>;
}

export interface Store extends AccountStore, ConversationStore, CommandStore, EventStore, LeaseStore, AttachmentStore, AdminStore, HoldStore, TransferStore {
  close(): Promise<void>;
  /** Resolves once every write issued so far is durable (or has failed). */
  flushed(): Promise<void>;
  /** Webhook endpoints and deliveries (src/store/webhooks.ts). */
  readonly webhooks: WebhookStore;
}

/** A write that could not be made durable (the HTTP layer answers 500 `internal`), or a store that cannot open. */
export class StoreError extends Error {
  override readonly name: string = 'StoreError';
}
