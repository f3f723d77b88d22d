import { createHash, randomUUID } from 'node:crypto';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { openWal } from '@switchboard/sqlite';
import type {
  ActionRef,
  ConversationAppeared,
  ConversationKind,
  ConversationRef,
  ExecutionRecord,
  FeedEvent,
  GroupRenamed,
  InboundAttachment,
  Media,
  MessageReceived,
  MessageSent,
  MessageChangedByOthers,
  MessageStateChanged,
  Outcome,
  OutgoingContent,
  ParticipantsChanged,
  PollVoted,
  ReportableEvent,
  Tapback,
} from '../types.ts';
import { fail, isOutcome, RECORDED_RESULTS } from '../outcome.ts';
import { replay } from '../replay.ts';
import type { FailureReason, MessageChange, PlannedChange } from './life.ts';
import { migrate } from './schema.ts';

type Row = Record<string, unknown>;

/** What a message's life adds to a message row; a new row has none of it. */
type LifeFields = 'deliveredAt' | 'readAt' | 'failedAt' | 'failure' | 'editedAt' | 'unsentAt';

/** How the simulated gateway treats one send, drawn by the driver from its fault settings. */
export type SendFault = 'none' | 'gateway_rejected' | 'send_not_ok' | 'echo_lost';
/** Whether the simulated platform can confirm one group change. */
export type UpdateFault = 'none' | 'unverified';

export interface ConversationState {
  externalId: string;
  kind: ConversationKind;
  name: string | null;
  /** The other people in it; the account itself is not listed. */
  participants: string[];
  /** Membership changes the platform has made. */
  membershipVersion: number;
  /** After add_participant, until a new inbound message arrives. */
  stale: boolean;
  leftAt: number | null;
  photoSha256: string | null;
  /** The group photo's file in the platform's attachments (`attachment(id)`), once the account set one. */
  photoAttachmentId: string | null;
  createdByCommand: string | null;
  createdAt: number;
}

export interface PlatformMessage {
  externalId: string;
  conversationExternalId: string;
  direction: 'in' | 'out';
  /** The sender's address; null when the account sent it. */
  sender: string | null;
  /** `text`, a rich kind, `tapback` or `contact_card`. */
  kind: string;
  body: Record<string, unknown>;
  /** A tapback's message. */
  associatedMessage: string | null;
  logicalActionId: string | null;
  commandId: string | null;
  at: number;
  // Its life; every row read from the platform has these (null until it happens). Optional so
  // that a row made up elsewhere (a stand-in's own rows) need not say.
  /** One of the account's messages: when it was delivered, read, or failed (and why). */
  deliveredAt?: number | null;
  readAt?: number | null;
  failedAt?: number | null;
  failure?: { reason: FailureReason; platformMessage: string | null } | null;
  /** Someone else's message: when they last edited it (its `body.text` is the new text), or unsent it. */
  editedAt?: number | null;
  unsentAt?: number | null;
}

/** The life the driver draws for one of the account's messages once the platform echoed it. */
export type OutboundPlanner = (conversation: ConversationState) => PlannedChange[];
/** The life the driver draws for a message someone else sent, once a host first reads it. */
export type InboundPlanner = (message: PlatformMessage) => PlannedChange[];

/** A change the platform will make once it is due. */
export interface PendingChange {
  messageExternalId: string;
  dueAt: number;
  change: MessageChange;
}

/** Rows of the messages table that record something other than a message (a tapback, a vote, a group change). */
const NOT_MESSAGES = new Set(['tapback', 'poll_vote', 'contact_card', 'group_renamed', 'participant_added', 'participant_removed', 'membership_unchanged', 'photo_set', 'photo_changed', 'left']);
/** The most due changes one release applies; the rest wait for the next read of the feed. */
const RELEASE_BATCH = 500;

export interface InboundInput {
  /** The sender's address. */
  from: string;
  /** An existing conversation; without it (and without `group`) the message arrives in the direct conversation with `from`. */
  conversationExternalId?: string;
  /** A group the peers start with this message; `participants` must include `from`. */
  group?: { participants: string[]; name?: string | null };
  text: string | null;
  attachments?: Media[];
}

export interface Injected {
  conversationExternalId: string;
  messageExternalId: string;
  attachmentIds: string[];
}

/** A change someone else makes to a group the account is in. */
export interface GroupChangeInput {
  /** Who makes it; a member of the group. */
  from: string;
  conversationExternalId: string;
  rename?: string;
  add?: string;
  remove?: string;
}

/** Someone votes on a poll the account sent, changes their vote, or withdraws it. */
export interface VoteInput {
  /** The voter; a member of the poll's conversation. */
  from: string;
  /** The poll's message (its `messageExternalId` on the stream). */
  pollMessageExternalId: string;
  /** The option (its position in the poll's options, from 0); null withdraws the voter's vote. */
  optionIndex: number | null;
}

/** Stored feed entries keep attachment ids; the bytes are read when the entry is delivered. */
type StoredFeedEvent = Exclude<FeedEvent, MessageReceived> | (Omit<MessageReceived, 'attachments'> & { attachmentIds: string[] });

/** Addresses the simulated platform cannot reach: the reserved `.invalid` top-level domain (RFC 2606). */
export function isUnreachable(address: string): boolean {
  return /\.invalid$/i.test(address);
}

export const directExternalId = (address: string) => `sim;-;${address}`;
const newGroupExternalId = () => `sim;+;chat${randomUUID().replaceAll('-', '').slice(0, 20)}`;
const newMessageId = () => randomUUID().toUpperCase();
const newAttachmentId = () => `att_${randomUUID().replaceAll('-', '')}`;

/**
 * The simulated messaging platform: conversations, participants, messages and delivery, kept in
 * one SQLite file (WAL) that every host process of the machine opens. It is the external system
 * the hosts act on, so it outlives any host: failover loses nothing, and each change is written
 * in the same transaction as the logicalActionId that caused it, which makes "already executed"
 * exact across hosts.
 */
export class SimulatedPlatform {
  readonly account: string;
  private readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  private readonly now: () => number;

  constructor(path: string, account: string, options: { now?: () => number; busyTimeoutMs?: number } = {}) {
    this.account = account;
    this.now = options.now ?? Date.now;
    // Hosts and the CLI share the file, and may open a new one at the same moment.
    this.db = openWal(path, options.busyTimeoutMs ?? 10_000);
    // A simulator needs to survive a killed process, not power loss: NORMAL is enough under WAL.
    this.db.exec('PRAGMA synchronous = NORMAL');
    migrate(this.db);
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }

  private sql(text: string): StatementSync {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  private transaction<T>(fn: () => T): T {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = fn();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  // What the platform shows

  execution(logicalActionId: string): ExecutionRecord | null {
    const row = this.sql('SELECT * FROM executions WHERE account = ? AND logical_action_id = ?').get(this.account, logicalActionId);
    return row ? execution(row) : null;
  }

  conversation(externalId: string): ConversationState | null {
    const row = this.sql('SELECT * FROM conversations WHERE account = ? AND external_id = ?').get(this.account, externalId);
    return row ? conversation(row) : null;
  }

  /**
   * The platform id of a conversation named by its platform id or by its Switchboard id (known
   * once a command to the conversation ran here); null when neither names one.
   */
  externalIdOf(id: string): string | null {
    if (this.conversation(id)) return id;
    const row = this.sql('SELECT external_id FROM switchboard_ids WHERE account = ? AND conversation_id = ?').get(this.account, id.toLowerCase());
    return row ? (row.external_id as string) : null;
  }

  /** Remembers Switchboard's id of a conversation, from a command the server resolved to it. */
  learnConversationId(conversationId: string, externalId: string): void {
    this.sql('INSERT INTO switchboard_ids (account, conversation_id, external_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING').run(this.account, conversationId, externalId);
  }

  conversations(): ConversationState[] {
    return this.sql('SELECT * FROM conversations WHERE account = ? ORDER BY created_at, external_id').all(this.account).map(conversation);
  }

  conversationCreatedBy(commandId: string): ConversationState | null {
    const row = this.sql('SELECT * FROM conversations WHERE account = ? AND created_by_command = ?').get(this.account, commandId);
    return row ? conversation(row) : null;
  }

  messages(conversationExternalId: string): PlatformMessage[] {
    return this.sql('SELECT * FROM messages WHERE account = ? AND conversation = ? ORDER BY seq').all(this.account, conversationExternalId).map(message);
  }

  /** One message by its id, in any conversation. */
  message(externalId: string): PlatformMessage | null {
    const row = this.sql('SELECT * FROM messages WHERE account = ? AND external_id = ?').get(this.account, externalId);
    return row ? message(row) : null;
  }

  /** Everything a command id put on the platform (a BlueBubbles stand-in passes the send's tempGuid as the command id). */
  messagesOfCommand(commandId: string): PlatformMessage[] {
    return this.sql('SELECT * FROM messages WHERE account = ? AND command_id = ? ORDER BY seq').all(this.account, commandId).map(message);
  }

  /** Messages of every conversation from `at` (ms) on, oldest first. */
  messagesSince(at: number, limit: number): PlatformMessage[] {
    return this.sql('SELECT * FROM messages WHERE account = ? AND at >= ? ORDER BY seq LIMIT ?').all(this.account, at, limit).map(message);
  }

  /** Everything on the platform that a logical action produced: one item per execution. */
  messagesOfAction(logicalActionId: string): PlatformMessage[] {
    return this.sql('SELECT * FROM messages WHERE account = ? AND logical_action_id = ? ORDER BY seq').all(this.account, logicalActionId).map(message);
  }

  // Commands. Each runs in one transaction: a repeated logical action returns what the first did.

  private execute(action: ActionRef, hostId: string, body: () => Outcome): Outcome {
    return this.transaction(() => {
      const done = this.execution(action.logicalActionId);
      if (done) return replay(done, action);
      const outcome = body();
      if (RECORDED_RESULTS.has(outcome.result)) {
        this.sql('INSERT INTO executions (account, logical_action_id, command_id, host_id, outcome, executed_at) VALUES (?, ?, ?, ?, ?, ?)')
          .run(this.account, action.logicalActionId, action.commandId, hostId, JSON.stringify(outcome), this.now());
      }
      return outcome;
    });
  }

  /** The conversation a command may act on, or why it may not. */
  private usable(ref: ConversationRef): ConversationState | Outcome {
    const state = this.conversation(ref.externalId);
    if (!state) return fail('invalid_target', `the platform has no conversation "${ref.externalId}"`);
    if (state.leftAt !== null) return fail('invalid_target', 'the account has left this group');
    if (state.stale) return fail('stale_target', 'a participant was added; the group is stale until a new message arrives in it');
    if (ref.membershipVersion < state.membershipVersion) {
      return fail('stale_target', `the membership changed underneath the command (resolved at version ${ref.membershipVersion}, platform at ${state.membershipVersion})`);
    }
    return state;
  }

  private usableGroup(ref: ConversationRef): ConversationState | Outcome {
    const state = this.usable(ref);
    if (!isOutcome(state) && state.kind !== 'group') return fail('invalid_target', 'the conversation is not a group on the platform');
    return state;
  }

  private usableDirect(ref: ConversationRef): ConversationState | Outcome {
    const state = this.usable(ref);
    if (!isOutcome(state) && state.kind !== 'direct') return fail('invalid_target', 'the conversation is not a direct conversation on the platform');
    return state;
  }

  private insertMessage(m: Omit<PlatformMessage, 'at' | LifeFields>, at = this.now()): void {
    this.sql(
      `INSERT INTO messages (account, external_id, conversation, direction, sender, kind, body, associated_message, logical_action_id, command_id, at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(this.account, m.externalId, m.conversationExternalId, m.direction, m.sender, m.kind, JSON.stringify(m.body), m.associatedMessage, m.logicalActionId, m.commandId, at);
  }

  private outgoing(action: ActionRef, conversationExternalId: string, kind: string, body: Record<string, unknown>, associatedMessage: string | null = null): string {
    const externalId = newMessageId();
    this.insertMessage({
      externalId, conversationExternalId, direction: 'out', sender: null, kind, body, associatedMessage,
      logicalActionId: action.logicalActionId, commandId: action.commandId,
    });
    return externalId;
  }

  private insertConversation(state: Omit<ConversationState, 'membershipVersion' | 'stale' | 'leftAt' | 'photoSha256' | 'photoAttachmentId' | 'createdAt'>): ConversationState {
    const at = this.now();
    this.sql('INSERT INTO conversations (account, external_id, kind, name, participants, created_by_command, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(this.account, state.externalId, state.kind, state.name, JSON.stringify(state.participants), state.createdByCommand, at);
    return { ...state, membershipVersion: 0, stale: false, leftAt: null, photoSha256: null, photoAttachmentId: null, createdAt: at };
  }

  /**
   * A send the platform took: recorded with its action; echoed unless the echo is lost. An echoed
   * message gets the life `plan` draws for it (delivered, read, failed...), due from now on.
   */
  private delivered(action: ActionRef, target: ConversationState, kind: string, body: Record<string, unknown>, fault: SendFault, plan: OutboundPlanner | undefined, before: ReportableEvent[] = []): Outcome {
    const messageExternalId = this.outgoing(action, target.externalId, kind, body);
    if (fault === 'echo_lost') {
      return { result: 'accepted_no_echo', detail: `message ${messageExternalId} was accepted; no echo arrived`, events: before };
    }
    if (plan) this.schedule(messageExternalId, this.now(), plan(target));
    return { result: 'confirmed', events: [...before, { type: 'message.sent', conversationExternalId: target.externalId, messageExternalId, commandId: action.commandId }] };
  }

  send(action: ActionRef, hostId: string, ref: ConversationRef, content: OutgoingContent, fault: SendFault, plan?: OutboundPlanner): Outcome {
    return this.execute(action, hostId, () => {
      const target = this.usable(ref);
      if (isOutcome(target)) return target;
      if (content.kind === 'rich_text' && content.replyToMessageExternalId !== undefined) {
        const parent = this.sql('SELECT 1 FROM messages WHERE account = ? AND conversation = ? AND external_id = ?').get(this.account, target.externalId, content.replyToMessageExternalId);
        if (!parent) return fail('invalid_target', `replyToMessageExternalId "${content.replyToMessageExternalId}" is not a message of this conversation`);
      }
      const rejected = rejection(fault);
      if (rejected) return rejected;
      if (content.kind === 'attachment' || content.kind === 'sticker') {
        // The file goes with the message, as an inbound attachment does: its row names it by id.
        const file = this.storeMedia(content.media);
        return this.delivered(action, target, content.kind, { attachmentIds: [file.attachmentId], ...file.about }, fault, plan);
      }
      const { kind, ...body } = content;
      return this.delivered(action, target, kind, body, fault, plan);
    });
  }

  /** Keeps a file the account sends in the attachments table; what a message's row says of it. */
  private storeMedia(media: Media): { attachmentId: string; about: { fileName: string; mimeType: string; byteSize: number; sha256: string } } {
    const attachmentId = newAttachmentId();
    this.sql('INSERT INTO attachments (account, attachment_id, file_name, mime_type, bytes) VALUES (?, ?, ?, ?, ?)')
      .run(this.account, attachmentId, media.fileName, media.mimeType, media.bytes);
    const sha256 = createHash('sha256').update(media.bytes).digest('hex');
    return { attachmentId, about: { fileName: media.fileName, mimeType: media.mimeType, byteSize: media.bytes.byteLength, sha256 } };
  }

  sendToRecipient(action: ActionRef, hostId: string, address: string, text: string, fault: SendFault, plan?: OutboundPlanner): Outcome {
    return this.execute(action, hostId, () => {
      if (isUnreachable(address)) return fail('invalid_target', `"${address}" is not reachable on the platform`);
      const rejected = rejection(fault);
      if (rejected) return rejected;
      const externalId = directExternalId(address);
      const target = this.conversation(externalId) ?? this.insertConversation({ externalId, kind: 'direct', name: null, participants: [address], createdByCommand: action.commandId });
      // Reported even when the conversation already existed, so the server links the command to it.
      return this.delivered(action, target, 'text', { text }, fault, plan, [appeared(target, action.commandId)]);
    });
  }

  createGroup(action: ActionRef, hostId: string, participants: string[], text: string, name: string | null, fault: SendFault, plan?: OutboundPlanner): Outcome {
    return this.execute(action, hostId, () => {
      const unreachable = participants.filter(isUnreachable);
      if (unreachable.length > 0) return fail('invalid_target', `not reachable on the platform: ${unreachable.join(', ')}`);
      const rejected = rejection(fault);
      if (rejected) return rejected;
      const target = this.insertConversation({
        externalId: newGroupExternalId(), kind: 'group', name, participants: [...new Set(participants)], createdByCommand: action.commandId,
      });
      return this.delivered(action, target, 'text', { text }, fault, plan, [appeared(target, action.commandId)]);
    });
  }

  tapback(action: ActionRef, hostId: string, ref: ConversationRef, messageExternalId: string, tapback: Tapback, remove: boolean): Outcome {
    return this.execute(action, hostId, () => {
      const target = this.usable(ref);
      if (isOutcome(target)) return target;
      const found = this.sql("SELECT 1 FROM messages WHERE account = ? AND conversation = ? AND external_id = ? AND kind NOT IN ('tapback')")
        .get(this.account, target.externalId, messageExternalId);
      if (!found) return fail('no_message_to_react_to', `no message "${messageExternalId}" in this conversation`);
      this.outgoing(action, target.externalId, 'tapback', { tapback, remove }, messageExternalId);
      return { result: 'confirmed', events: [] };
    });
  }

  reactToNewestIncoming(action: ActionRef, hostId: string, ref: ConversationRef, tapback: Tapback): Outcome {
    return this.execute(action, hostId, () => {
      const target = this.usableDirect(ref);
      if (isOutcome(target)) return target;
      const newest = this.sql("SELECT external_id FROM messages WHERE account = ? AND conversation = ? AND direction = 'in' AND kind <> 'tapback' ORDER BY seq DESC LIMIT 1")
        .get(this.account, target.externalId);
      if (!newest) return fail('no_message_to_react_to', 'the direct conversation has no incoming message');
      this.outgoing(action, target.externalId, 'tapback', { tapback, remove: false }, newest.external_id as string);
      return { result: 'confirmed', events: [] };
    });
  }

  shareNamePhoto(action: ActionRef, hostId: string, ref: ConversationRef): Outcome {
    return this.execute(action, hostId, () => {
      const target = this.usableDirect(ref);
      if (isOutcome(target)) return target;
      this.outgoing(action, target.externalId, 'contact_card', {});
      return { result: 'confirmed', events: [] };
    });
  }

  renameGroup(action: ActionRef, hostId: string, ref: ConversationRef, name: string, fault: UpdateFault): Outcome {
    return this.execute(action, hostId, () => {
      const target = this.usableGroup(ref);
      if (isOutcome(target)) return target;
      if (fault === 'unverified') return fail('group_update_unverified', 'the rename could not be confirmed');
      this.sql('UPDATE conversations SET name = ? WHERE account = ? AND external_id = ?').run(name, this.account, target.externalId);
      this.outgoing(action, target.externalId, 'group_renamed', { name });
      return { result: 'confirmed', events: [{ type: 'group.renamed', conversationExternalId: target.externalId, name, commandId: action.commandId }] };
    });
  }

  addParticipant(action: ActionRef, hostId: string, ref: ConversationRef, participant: string, fault: UpdateFault): Outcome {
    return this.execute(action, hostId, () => {
      const target = this.usableGroup(ref);
      if (isOutcome(target)) return target;
      if (isUnreachable(participant)) return fail('invalid_target', `"${participant}" is not reachable on the platform`);
      if (fault === 'unverified') return fail('group_update_unverified', 'the new participant could not be confirmed');
      if (target.participants.includes(participant)) return this.membershipUnchanged(action, target);
      const participants = [...target.participants, participant];
      // The group's membership no longer matches what the server resolved: stale until a new message arrives.
      this.sql('UPDATE conversations SET participants = ?, membership_version = membership_version + 1, stale = 1 WHERE account = ? AND external_id = ?')
        .run(JSON.stringify(participants), this.account, target.externalId);
      this.outgoing(action, target.externalId, 'participant_added', { participant });
      return {
        result: 'confirmed',
        events: [{ type: 'group.participants_changed', conversationExternalId: target.externalId, added: [participant], removed: [], participants, commandId: action.commandId }],
      };
    });
  }

  removeParticipant(action: ActionRef, hostId: string, ref: ConversationRef, participant: string, fault: UpdateFault): Outcome {
    return this.execute(action, hostId, () => {
      const target = this.usableGroup(ref);
      if (isOutcome(target)) return target;
      if (fault === 'unverified') return fail('group_update_unverified', 'the removal could not be confirmed');
      if (!target.participants.includes(participant)) return this.membershipUnchanged(action, target);
      const participants = target.participants.filter((p) => p !== participant);
      this.sql('UPDATE conversations SET participants = ?, membership_version = membership_version + 1 WHERE account = ? AND external_id = ?')
        .run(JSON.stringify(participants), this.account, target.externalId);
      this.outgoing(action, target.externalId, 'participant_removed', { participant });
      return {
        result: 'confirmed',
        events: [{ type: 'group.participants_changed', conversationExternalId: target.externalId, added: [], removed: [participant], participants, commandId: action.commandId }],
      };
    });
  }

  /** Adding a member or removing a non-member changes nothing; the platform still shows the action once. */
  private membershipUnchanged(action: ActionRef, target: ConversationState): Outcome {
    this.outgoing(action, target.externalId, 'membership_unchanged', {});
    return { result: 'confirmed', detail: 'the membership already matched', events: [] };
  }

  setGroupPhoto(action: ActionRef, hostId: string, ref: ConversationRef, photo: Media, fault: UpdateFault): Outcome {
    return this.execute(action, hostId, () => {
      const target = this.usableGroup(ref);
      if (isOutcome(target)) return target;
      if (fault === 'unverified') return fail('group_update_unverified', 'the new photo could not be confirmed');
      const file = this.storeMedia(photo);
      this.sql('UPDATE conversations SET photo_sha256 = ?, photo_attachment = ? WHERE account = ? AND external_id = ?').run(file.about.sha256, file.attachmentId, this.account, target.externalId);
      this.outgoing(action, target.externalId, 'photo_set', { attachmentId: file.attachmentId, ...file.about });
      // The stream has no event for a group's photo: the settlement is all a client sees.
      return { result: 'confirmed', events: [] };
    });
  }

  leaveGroup(action: ActionRef, hostId: string, ref: ConversationRef): Outcome {
    return this.execute(action, hostId, () => {
      const target = this.usableGroup(ref);
      if (isOutcome(target)) return target;
      this.sql('UPDATE conversations SET left_at = ? WHERE account = ? AND external_id = ?').run(this.now(), this.account, target.externalId);
      this.outgoing(action, target.externalId, 'left', {});
      return { result: 'confirmed', events: [] };
    });
  }

  // People writing to the account

  /** A message from someone else arrives; it goes on the feed, with the conversation first if it is new. */
  receive(input: InboundInput): Injected {
    return this.transaction(() => {
      const feed: StoredFeedEvent[] = [];
      let target: ConversationState;
      if (input.conversationExternalId !== undefined) {
        const found = this.conversation(input.conversationExternalId);
        if (!found) throw new Error(`the platform has no conversation "${input.conversationExternalId}"`);
        if (found.leftAt !== null) throw new Error('the account has left this group; it receives nothing from it');
        if (!found.participants.includes(input.from)) throw new Error(`"${input.from}" is not in conversation "${found.externalId}"`);
        target = found;
      } else if (input.group) {
        if (!input.group.participants.includes(input.from)) throw new Error('the group must include the sender');
        target = this.insertConversation({
          externalId: newGroupExternalId(), kind: 'group', name: input.group.name ?? null, participants: [...new Set(input.group.participants)], createdByCommand: null,
        });
        feed.push(appeared(target));
      } else {
        const externalId = directExternalId(input.from);
        const found = this.conversation(externalId);
        target = found ?? this.insertConversation({ externalId, kind: 'direct', name: null, participants: [input.from], createdByCommand: null });
        if (!found) feed.push(appeared(target));
      }
      // A new message in a stale group makes it usable again.
      if (target.stale) this.sql('UPDATE conversations SET stale = 0 WHERE account = ? AND external_id = ?').run(this.account, target.externalId);

      const attachmentIds = (input.attachments ?? []).map((a) => {
        const attachmentId = newAttachmentId();
        this.sql('INSERT INTO attachments (account, attachment_id, file_name, mime_type, bytes) VALUES (?, ?, ?, ?, ?)')
          .run(this.account, attachmentId, a.fileName, a.mimeType, a.bytes);
        return attachmentId;
      });
      const messageExternalId = newMessageId();
      this.insertMessage({
        externalId: messageExternalId, conversationExternalId: target.externalId, direction: 'in', sender: input.from, kind: 'text',
        body: { text: input.text, attachmentIds }, associatedMessage: null, logicalActionId: null, commandId: null,
      });
      feed.push({
        type: 'message.received', conversationExternalId: target.externalId, messageExternalId, senderExternalId: input.from,
        text: input.text, attachmentIds, receivedAt: new Date(this.now()).toISOString(),
      });
      const insert = this.sql('INSERT INTO feed (account, event) VALUES (?, ?)');
      for (const event of feed) insert.run(this.account, JSON.stringify(event));
      return { conversationExternalId: target.externalId, messageExternalId, attachmentIds };
    });
  }

  /**
   * The account changed a group's photo from another of its devices: a row in the group and
   * nothing on the feed, since the simulator keeps no photos.
   */
  groupPhotoChanged(conversationExternalId: string): void {
    this.insertMessage({
      externalId: newMessageId(), conversationExternalId, direction: 'out', sender: null, kind: 'photo_changed', body: {},
      associatedMessage: null, logicalActionId: null, commandId: null,
    });
  }

  /**
   * Someone else renames the group or changes its members. A membership change counts like the
   * account's own (commands resolved before it are stale), but only the account's own
   * add_participant leaves the group stale until the next message.
   */
  changeGroup(input: GroupChangeInput): void {
    this.transaction(() => {
      const target = this.conversation(input.conversationExternalId);
      if (!target || target.kind !== 'group') throw new Error(`the platform has no group "${input.conversationExternalId}"`);
      if (target.leftAt !== null) throw new Error('the account has left this group; it sees no changes to it');
      if (!target.participants.includes(input.from)) throw new Error(`"${input.from}" is not in conversation "${target.externalId}"`);
      const feed: Array<GroupRenamed | ParticipantsChanged> = [];
      if (input.rename !== undefined) {
        this.sql('UPDATE conversations SET name = ? WHERE account = ? AND external_id = ?').run(input.rename, this.account, target.externalId);
        feed.push({ type: 'group.renamed', conversationExternalId: target.externalId, name: input.rename });
      }
      const added = input.add !== undefined && !target.participants.includes(input.add) ? [input.add] : [];
      const removed = input.remove !== undefined && target.participants.includes(input.remove) ? [input.remove] : [];
      if (added.length + removed.length > 0) {
        const participants = [...target.participants.filter((p) => !removed.includes(p)), ...added];
        this.sql('UPDATE conversations SET participants = ?, membership_version = membership_version + 1 WHERE account = ? AND external_id = ?')
          .run(JSON.stringify(participants), this.account, target.externalId);
        feed.push({ type: 'group.participants_changed', conversationExternalId: target.externalId, added, removed, participants });
      }
      const insert = this.sql('INSERT INTO feed (account, event) VALUES (?, ?)');
      for (const event of feed) insert.run(this.account, JSON.stringify(event));
    });
  }

  /**
   * A vote on a poll the account sent. The platform keeps one choice per voter: voting again
   * changes it, and withdrawing needs a vote to withdraw.
   */
  vote(input: VoteInput): PollVoted {
    return this.transaction(() => {
      const poll = this.message(input.pollMessageExternalId);
      if (!poll || poll.kind !== 'poll' || poll.direction !== 'out') throw new Error(`"${input.pollMessageExternalId}" is not a poll the account sent`);
      const target = this.conversation(poll.conversationExternalId)!;
      if (target.leftAt !== null) throw new Error('the account has left this group; it sees no votes in it');
      if (!target.participants.includes(input.from)) throw new Error(`"${input.from}" is not in conversation "${target.externalId}"`);
      const options = poll.body.options as string[];
      if (input.optionIndex !== null && !(Number.isInteger(input.optionIndex) && input.optionIndex >= 0 && input.optionIndex < options.length)) {
        throw new Error(`the poll has options 0 to ${options.length - 1}, not ${input.optionIndex}`);
      }
      const held = this.sql("SELECT body FROM messages WHERE account = ? AND kind = 'poll_vote' AND associated_message = ? AND sender = ? ORDER BY seq DESC LIMIT 1")
        .get(this.account, poll.externalId, input.from);
      const holding = held ? (JSON.parse(held.body as string) as { optionIndex: number | null }).optionIndex : null;
      if (input.optionIndex === null && holding === null) throw new Error(`"${input.from}" has no vote on this poll to withdraw`);
      this.insertMessage({
        externalId: newMessageId(), conversationExternalId: target.externalId, direction: 'in', sender: input.from, kind: 'poll_vote',
        body: { optionIndex: input.optionIndex }, associatedMessage: poll.externalId, logicalActionId: null, commandId: null,
      });
      const event: PollVoted = {
        type: 'poll.voted', conversationExternalId: target.externalId, pollMessageExternalId: poll.externalId, voterExternalId: input.from,
        optionIndex: input.optionIndex, votedAt: new Date(this.now()).toISOString(),
      };
      this.sql('INSERT INTO feed (account, event) VALUES (?, ?)').run(this.account, JSON.stringify(event));
      return event;
    });
  }

  // A message's life: what becomes of the account's messages, what other people do to messages

  /** Keeps each planned change with its due time, counted from `from` (ms). */
  private schedule(messageExternalId: string, from: number, plan: PlannedChange[]): void {
    const insert = this.sql('INSERT INTO scheduled (account, message, due_at, change) VALUES (?, ?, ?, ?)');
    for (const { afterMs, change } of plan) insert.run(this.account, messageExternalId, from + Math.max(0, afterMs), JSON.stringify(change));
  }

  /**
   * Draws the life of messages other people sent, once per message whichever host reads them
   * first: what `planner` returns is scheduled from the message's arrival.
   */
  planInbound(messageExternalIds: readonly string[], planner: InboundPlanner): void {
    if (messageExternalIds.length === 0) return;
    this.transaction(() => {
      const mark = this.sql('INSERT INTO planned (account, message) VALUES (?, ?) ON CONFLICT DO NOTHING');
      for (const id of messageExternalIds) {
        if (mark.run(this.account, id).changes === 0) continue;
        const m = this.message(id);
        if (m && m.direction === 'in') this.schedule(id, m.at, planner(m));
      }
    });
  }

  /** What the platform will do and when, soonest first. */
  pending(): PendingChange[] {
    return this.sql('SELECT message, due_at, change FROM scheduled WHERE account = ? ORDER BY due_at, seq').all(this.account).map((row) => ({
      messageExternalId: row.message as string,
      dueAt: Number(row.due_at),
      change: JSON.parse(row.change as string) as MessageChange,
    }));
  }

  /**
   * Applies every change that is due, in due order, each put on the feed in the same
   * transaction: from here the feed's cursor keeps it until a host reported it. A change the
   * message no longer allows (a failure after a delivery made by hand, a member who left, an
   * unsent message) is dropped. Returns how many changes were due.
   */
  release(): number {
    const now = this.now();
    if (!this.sql('SELECT 1 FROM scheduled WHERE account = ? AND due_at <= ? LIMIT 1').get(this.account, now)) return 0;
    return this.transaction(() => {
      const rows = this.sql('SELECT seq, message, due_at, change FROM scheduled WHERE account = ? AND due_at <= ? ORDER BY due_at, seq LIMIT ?')
        .all(this.account, now, RELEASE_BATCH);
      const done = this.sql('DELETE FROM scheduled WHERE seq = ?');
      for (const row of rows) {
        done.run(row.seq as number);
        const m = this.message(row.message as string);
        if (!m) continue;
        let events: StoredFeedEvent[];
        try {
          events = this.applyChange(m, JSON.parse(row.change as string) as MessageChange, Number(row.due_at));
        } catch {
          continue;
        }
        this.feed(events);
      }
      return rows.length;
    });
  }

  /**
   * Makes a change to a message at once (the CLI's `platform deliver`, `react`, `edit`...): it
   * goes on the feed like a due one. Throws, changing nothing, when the message does not allow it.
   */
  changeMessage(messageExternalId: string, change: MessageChange): Array<MessageStateChanged | MessageChangedByOthers> {
    return this.transaction(() => {
      const m = this.message(messageExternalId);
      if (!m) throw new Error(`the platform has no message "${messageExternalId}"`);
      const events = this.applyChange(m, change, this.now());
      this.feed(events);
      return events;
    });
  }

  /** The message a command put on the platform (a send's, or group.create's first), for the CLI's `--command`. */
  messageOfCommand(commandId: string): PlatformMessage | null {
    return this.messagesOfCommand(commandId).find((m) => m.direction === 'out' && !NOT_MESSAGES.has(m.kind)) ?? null;
  }

  /** Validates a change against the message as it is now, then makes it; throws (having written nothing) when it does not apply. */
  private applyChange(m: PlatformMessage, change: MessageChange, at: number): Array<MessageStateChanged | MessageChangedByOthers> {
    const { externalId: messageExternalId, conversationExternalId } = m;
    const iso = (ms: number) => new Date(ms).toISOString();
    const set = (column: string, value: number | string) =>
      this.sql(`UPDATE messages SET ${column} = ? WHERE account = ? AND external_id = ?`).run(value, this.account, messageExternalId);
    if (NOT_MESSAGES.has(m.kind)) throw new Error(`"${messageExternalId}" is a ${m.kind.replaceAll('_', ' ')}, not a message`);

    if (change.change === 'delivered' || change.change === 'read' || change.change === 'failed') {
      if (m.direction !== 'out') throw new Error(`"${messageExternalId}" is not the account's message; only the account's messages are delivered, read or failed`);
      if (happened(m.failedAt)) throw new Error(`message "${messageExternalId}" failed; it is not ${change.change} after that`);
      if (change.change === 'failed') {
        if (happened(m.deliveredAt)) throw new Error(`message "${messageExternalId}" was delivered; a delivered message does not fail`);
        set('failed_at', at);
        set('failure', JSON.stringify({ reason: change.reason, platformMessage: change.platformMessage }));
        return [{ type: 'message.failed', conversationExternalId, messageExternalId, reason: change.reason, platformMessage: change.platformMessage, failedAt: iso(at) }];
      }
      const events: Array<MessageStateChanged | MessageChangedByOthers> = [];
      if (change.change === 'read') {
        if (this.conversation(conversationExternalId)?.kind === 'group') throw new Error('iMessage has no read receipts in groups; a group message is never read');
        if (happened(m.readAt)) throw new Error(`message "${messageExternalId}" was read already`);
      } else if (happened(m.deliveredAt)) {
        throw new Error(`message "${messageExternalId}" was delivered already`);
      }
      // Read means delivered: a message read before the platform marked it delivered is delivered too.
      if (!happened(m.deliveredAt)) {
        set('delivered_at', at);
        events.push({ type: 'message.delivered', conversationExternalId, messageExternalId, deliveredAt: iso(at) });
      }
      if (change.change === 'read') {
        set('read_at', at);
        events.push({ type: 'message.read', conversationExternalId, messageExternalId, readAt: iso(at) });
      }
      return events;
    }

    if (happened(m.unsentAt)) throw new Error(`message "${messageExternalId}" was unsent`);
    if (change.change === 'reaction') {
      const state = this.conversation(conversationExternalId)!;
      if (state.leftAt !== null) throw new Error('the account has left this group; it sees no tapbacks in it');
      if (!state.participants.includes(change.from)) throw new Error(`"${change.from}" is not in conversation "${conversationExternalId}"`);
      const held = this.sql("SELECT body FROM messages WHERE account = ? AND kind = 'tapback' AND direction = 'in' AND associated_message = ? AND sender = ? ORDER BY seq DESC LIMIT 1")
        .get(this.account, messageExternalId, change.from);
      const last = held ? (JSON.parse(held.body as string) as { tapback: Tapback; remove: boolean }) : null;
      // One tapback per person per message, as iMessage keeps them: a new one replaces theirs.
      const holding = last && !last.remove ? last.tapback : null;
      if (change.action === 'added' && holding === change.tapback) throw new Error(`"${change.from}" already reacted ${change.tapback} to this message`);
      if (change.action === 'removed' && holding !== change.tapback) throw new Error(`"${change.from}" has no ${change.tapback} on this message to remove`);
      const reactionExternalId = newMessageId();
      this.insertMessage({
        externalId: reactionExternalId, conversationExternalId, direction: 'in', sender: change.from, kind: 'tapback',
        body: { tapback: change.tapback, remove: change.action === 'removed' }, associatedMessage: messageExternalId, logicalActionId: null, commandId: null,
      }, at);
      return [{
        type: 'message.reaction', conversationExternalId, reactionExternalId, messageExternalId, senderExternalId: change.from,
        reaction: change.tapback, action: change.action, reactedAt: iso(at),
      }];
    }

    if (m.direction !== 'in' || m.sender === null) throw new Error(`"${messageExternalId}" is the account's message; the simulator ${change.change === 'edited' ? 'edits' : 'unsends'} messages other people sent`);
    if (change.change === 'edited') {
      // Each edit has its own time: the server records one edit per message and editedAt.
      const editedAt = happened(m.editedAt) && at <= m.editedAt ? m.editedAt + 1 : at;
      set('body', JSON.stringify({ ...m.body, text: change.text }));
      set('edited_at', editedAt);
      return [{ type: 'message.edited', conversationExternalId, messageExternalId, senderExternalId: m.sender, text: change.text, editedAt: iso(editedAt) }];
    }
    set('unsent_at', at);
    return [{ type: 'message.unsent', conversationExternalId, messageExternalId, senderExternalId: m.sender, unsentAt: iso(at) }];
  }

  private feed(events: readonly StoredFeedEvent[]): void {
    const insert = this.sql('INSERT INTO feed (account, event) VALUES (?, ?)');
    for (const event of events) insert.run(this.account, JSON.stringify(event));
  }

  // The feed: what happened on its own since the last holder reported

  /**
   * Up to `limit` feed entries past the cursor, with bytes attached. Each event is preceded by
   * its conversation's `conversation.appeared` (the server ignores a repeat), so a batch never
   * names a conversation the server may not know yet.
   */
  readFeed(limit: number): { through: number; events: FeedEvent[] } {
    // Whatever came due since the last read goes on the feed first, after the cursor.
    this.release();
    const cursor = this.sql('SELECT seq FROM feed_cursor WHERE account = ?').get(this.account);
    const rows = this.sql('SELECT seq, event FROM feed WHERE account = ? AND seq > ? ORDER BY seq LIMIT ?')
      .all(this.account, cursor ? Number(cursor.seq) : 0, limit);
    const events: FeedEvent[] = [];
    const announced = new Set<string>();
    for (const row of rows) {
      const stored = JSON.parse(row.event as string) as StoredFeedEvent;
      if (stored.type === 'conversation.appeared') {
        announced.add(stored.externalId);
        events.push(stored);
        continue;
      }
      if (!announced.has(stored.conversationExternalId)) {
        const state = this.conversation(stored.conversationExternalId);
        if (state) events.push(appeared(state, state.createdByCommand ?? undefined));
        announced.add(stored.conversationExternalId);
      }
      const about = aboutMessage(stored);
      if (about !== null && !announced.has(about)) {
        // Likewise the echo of the account's message it is about: a host that died before reporting
        // it leaves a vote the server could not place, or a delivery it could not tie to its command.
        const echo = this.echoOf(about);
        if (echo) events.push(echo);
        announced.add(about);
      }
      if (stored.type !== 'message.received') {
        events.push(stored);
        continue;
      }
      const { attachmentIds, ...rest } = stored;
      events.push({ ...rest, attachments: attachmentIds.map((id) => this.attachment(id)) });
    }
    return { through: rows.length > 0 ? Number(rows[rows.length - 1]!.seq) : 0, events };
  }

  /** The message.sent the platform echoed for one of the account's messages; null when its echo was lost. */
  private echoOf(messageExternalId: string): MessageSent | null {
    const sent = this.message(messageExternalId);
    const executed = sent?.logicalActionId ? this.execution(sent.logicalActionId) : null;
    const echo = executed?.outcome.events.find((e) => e.type === 'message.sent' && e.messageExternalId === messageExternalId);
    return echo?.type === 'message.sent' ? echo : null;
  }

  /** How many feed entries no host reported yet. */
  feedBacklog(): number {
    const cursor = this.sql('SELECT seq FROM feed_cursor WHERE account = ?').get(this.account);
    return Number(this.sql('SELECT COUNT(*) AS n FROM feed WHERE account = ? AND seq > ?').get(this.account, cursor ? Number(cursor.seq) : 0)!.n);
  }

  /** Marks the feed reported through `seq`. */
  ackFeed(seq: number): void {
    this.sql('INSERT INTO feed_cursor (account, seq) VALUES (?, ?) ON CONFLICT (account) DO UPDATE SET seq = MAX(seq, excluded.seq)').run(this.account, seq);
  }

  attachment(attachmentId: string): InboundAttachment {
    const row = this.sql('SELECT * FROM attachments WHERE account = ? AND attachment_id = ?').get(this.account, attachmentId);
    if (!row) throw new Error(`the platform has no attachment "${attachmentId}"`);
    return { attachmentId, fileName: row.file_name as string, mimeType: row.mime_type as string, bytes: new Uint8Array(row.bytes as Uint8Array) };
  }
}

/** The message a stored feed event is about, when it may be one of the account's: its echo goes first. */
function aboutMessage(stored: StoredFeedEvent): string | null {
  switch (stored.type) {
    case 'poll.voted':
      return stored.pollMessageExternalId;
    case 'message.delivered':
    case 'message.read':
    case 'message.failed':
    case 'message.reaction':
      return stored.messageExternalId;
    default:
      return null;
  }
}

function rejection(fault: SendFault): Outcome | null {
  if (fault === 'gateway_rejected') return fail('gateway_rejected', 'the gateway rejected the send');
  if (fault === 'send_not_ok') return fail('send_not_ok', 'the send returned not ok');
  return null;
}

function appeared(state: ConversationState, commandId?: string): ConversationAppeared {
  return {
    type: 'conversation.appeared',
    externalId: state.externalId,
    conversationKind: state.kind,
    name: state.name,
    participants: state.participants,
    ...(commandId === undefined ? {} : { commandId }),
  };
}

function conversation(row: Row): ConversationState {
  return {
    externalId: row.external_id as string,
    kind: row.kind as ConversationKind,
    name: row.name as string | null,
    participants: JSON.parse(row.participants as string) as string[],
    membershipVersion: Number(row.membership_version),
    stale: Number(row.stale) === 1,
    leftAt: row.left_at === null ? null : Number(row.left_at),
    photoSha256: row.photo_sha256 as string | null,
    photoAttachmentId: (row.photo_attachment ?? null) as string | null,
    createdByCommand: row.created_by_command as string | null,
    createdAt: Number(row.created_at),
  };
}

function message(row: Row): PlatformMessage {
  return {
    externalId: row.external_id as string,
    conversationExternalId: row.conversation as string,
    direction: row.direction as 'in' | 'out',
    sender: row.sender as string | null,
    kind: row.kind as string,
    body: JSON.parse(row.body as string) as Record<string, unknown>,
    associatedMessage: row.associated_message as string | null,
    logicalActionId: row.logical_action_id as string | null,
    commandId: row.command_id as string | null,
    at: Number(row.at),
    deliveredAt: nullableNumber(row.delivered_at),
    readAt: nullableNumber(row.read_at),
    failedAt: nullableNumber(row.failed_at),
    failure: row.failure === null || row.failure === undefined ? null : (JSON.parse(row.failure as string) as PlatformMessage['failure']),
    editedAt: nullableNumber(row.edited_at),
    unsentAt: nullableNumber(row.unsent_at),
  };
}

/** Whether a life field says it happened (a time). */
function happened(at: number | null | undefined): at is number {
  return at !== null && at !== undefined;
}

function nullableNumber(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

function execution(row: Row): ExecutionRecord {
  return {
    logicalActionId: row.logical_action_id as string,
    commandId: row.command_id as string,
    hostId: row.host_id as string,
    executedAt: Number(row.executed_at),
    outcome: JSON.parse(row.outcome as string) as Outcome,
  };
}
