import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import type {
  ActionRef,
  ConversationRef,
  Driver,
  ExecutionRecord,
  FeedListener,
  FeedSubscription,
  Media,
  MessageSent,
  Outcome,
  OutcomeResult,
  OutgoingContent,
  ReportableEvent,
  Tapback,
} from '../types.ts';
import { fail, isOutcome, RECORDED_RESULTS } from '../outcome.ts';
import { BlueBubblesApi, BlueBubblesUnreachable, describe, type BbAnswer } from './api.ts';
import type { ServerAbilities } from './capabilities.ts';
import { Chats, type ChatInfo } from './chats.ts';
import { Inbound } from './feed.ts';
import { Journal } from './journal.ts';
import { multipart, type Multipart } from './multipart.ts';
import { failureOf } from './rows.ts';
import type { BlueBubblesSettings } from './settings.ts';
import { directChatGuid, EFFECT_ID, isLeave, type BbAttachment, type BbChat, type BbMessage } from './wire.ts';

export interface BlueBubblesContext {
  hostId: string;
  log: Logger;
  abilities: ServerAbilities;
}

/** Between the Mac's clock (dateCreated) and the server's (acceptedAt). */
const CLOCK_SLACK_MS = 5_000;
const RECENT = 50;
/** How often a send's row is read while waiting for proof it left the Mac. */
const PROOF_POLL_MS = 250;
/** The message.sent events kept in memory for the feed (older ones are read from the journal). */
const SENT_EVENTS_MAX = 10_000;

/** What to send through POST /api/v1/message/text. */
interface TextSend {
  message: string;
  method: 'apple-script' | 'private-api';
  subject?: string;
  effectId?: string;
  selectedMessageGuid?: string;
}

/**
 * Drives iMessage through a BlueBubbles server. A send succeeds only once it left the Mac: its
 * echo (the message from the Messages database that BlueBubbles matched to the send's tempGuid:
 * the answer to the send, or its new-message webhook, whichever comes first) names the row, and
 * the row then shows `is_sent` or a delivery within the bound (README.md, "When a send
 * succeeded"). Every other settlement code comes from a concrete answer, mapped in README.md.
 */
export class BlueBubblesDriver implements Driver {
  readonly api: BlueBubblesApi;
  private readonly settings: BlueBubblesSettings;
  private readonly context: BlueBubblesContext;
  private readonly journal: Journal;
  private readonly chats: Chats;
  private readonly inbound: Inbound;
  private readonly echoes = new Map<string, (message: BbMessage) => void>();
  /** Sends waiting for proof they left the Mac, by message guid: the feed hands them the row `updated-message` or `message-send-error` named. */
  private readonly updates = new Map<string, (message: BbMessage) => void>();
  /** The message.sent of this host's sends since it started, by message guid (older ones: the journal). */
  private readonly sentEvents = new Map<string, MessageSent>();
  /** Set once BlueBubbles refused the `where` of a message query (logged once); each read still tries it first. */
  private whereRefused = false;
  /** Commands accepted before this driver started may have been sent by an earlier holder. */
  private readonly startedAt = Date.now();

  constructor(settings: BlueBubblesSettings, context: BlueBubblesContext) {
    this.settings = settings;
    this.context = context;
    this.api = new BlueBubblesApi(settings.url, settings.password);
    this.journal = new Journal(settings.journalPath);
    this.chats = new Chats(this.api);
    this.inbound = new Inbound(this.api, this.chats, this.journal, settings, context.log, (m) => this.echoes.get(m.tempGuid!)?.(m), (m) => this.updates.get(m.guid)?.(m), (guid) => this.sentOf(guid));
  }

  /** The message.sent this host reported (or is about to report) for a message: a state of it reported by the feed goes after it. */
  private sentOf(guid: string): MessageSent | null {
    const known = this.sentEvents.get(guid);
    if (known) return known;
    const owner = this.journal.claimedBy(guid);
    const sent = owner ? this.journal.execution(owner)?.outcome.events.find((e) => e.type === 'message.sent' && e.messageExternalId === guid) : undefined;
    return sent?.type === 'message.sent' ? sent : null;
  }

  async findExecuted(logicalActionId: string): Promise<ExecutionRecord | null> {
    return this.journal.execution(logicalActionId);
  }

  private done(action: ActionRef, outcome: Outcome, messageGuid?: string): Outcome {
    if (RECORDED_RESULTS.has(outcome.result)) this.journal.record(action.logicalActionId, action.commandId, this.context.hostId, outcome, messageGuid);
    return outcome;
  }

  /** The same for every host, so a second host's send of the same action meets the first's in BlueBubbles' send cache. */
  private tempGuidOf(action: ActionRef): string {
    return `switchboard-${action.logicalActionId}`;
  }

  // What BlueBubbles shows before a command acts

  /** The newest rows of a chat, newest first (GET /api/v1/chat/:guid/message). */
  private async recent(chatGuid: string): Promise<BbMessage[]> {
    return (await this.api.find<BbMessage[]>(`/chat/${encodeURIComponent(chatGuid)}/message`, { limit: String(RECENT), sort: 'DESC' })) ?? [];
  }

  /**
   * The chat a command may act on, or why not: unknown to BlueBubbles or left (invalid_target);
   * members other than the server resolved, or the account's own add newer than any message from
   * the others (stale_target, as the seed's group rule says).
   */
  private async usable(ref: ConversationRef, want?: 'group' | 'direct'): Promise<ChatInfo | Outcome> {
    const chat = await this.chats.fetch(ref.externalId);
    if (!chat) return fail('invalid_target', `BlueBubbles has no chat "${ref.externalId}" (404)`);
    if (want && chat.kind !== want) return fail('invalid_target', `the chat is not a ${want} chat in Messages`);
    if (chat.kind === 'direct') return chat;
    const rows = await this.recent(chat.guid);
    if (rows.some((m) => m.isFromMe && isLeave(m))) return fail('invalid_target', 'the account has left this group');
    const sameMembers = chat.participants.length === ref.participants.length && chat.participants.every((p) => ref.participants.includes(p));
    if (!sameMembers) return fail('stale_target', `the membership changed underneath the command (Messages shows ${chat.participants.join(', ')})`);
    const newestAdd = rows.findIndex((m) => m.isFromMe && m.itemType === 1 && m.groupActionType === 0);
    const newestFromOthers = rows.findIndex((m) => !m.isFromMe && m.itemType === 0);
    if (newestAdd >= 0 && (newestFromOthers < 0 || newestAdd < newestFromOthers)) {
      return fail('stale_target', 'a participant was added; the group is stale until a new message arrives in it');
    }
    return chat;
  }

  /** GET /api/v1/handle/availability/imessage (Private API): false is an address iMessage cannot reach. */
  private async unreachable(addresses: string[]): Promise<string[]> {
    if (!this.context.abilities.privateApi) return [];
    const out: string[] = [];
    for (const address of addresses) {
      const answer = await this.api.call<{ available: boolean }>('GET', '/handle/availability/imessage', { query: { address } });
      if (answer.status === 200 && answer.body.data?.available === false) out.push(address);
    }
    return out;
  }

  /**
   * The message an earlier holder already sent for this action, looked up before sending again:
   * a message from the Mac in the chat, after the command was accepted, with the same text (or
   * file name), that no other action of this host claimed. Only for a command that may have run before (it
   * was accepted before this driver started, or this host intended it before a restart).
   */
  private async alreadySent(action: ActionRef, chatGuid: string, same: (m: BbMessage) => boolean): Promise<BbMessage | null> {
    const acceptedAt = action.acceptedAt ? Date.parse(action.acceptedAt) : Number.NaN;
    const mayHaveRun = this.journal.intended(action.logicalActionId) || !(acceptedAt >= this.startedAt);
    if (!mayHaveRun) return null;
    const after = Number.isNaN(acceptedAt) ? this.startedAt - this.settings.catchUpWindowMs : acceptedAt - CLOCK_SLACK_MS;
    const answer = await this.api.call<BbMessage[]>('POST', '/message/query', { body: { chatGuid, after, sort: 'ASC', limit: 1000 } });
    if (answer.status !== 200) throw new Error(`message query: ${describe(answer)}`);
    return (answer.body.data ?? []).find((m) => {
      if (!m.isFromMe || m.itemType !== 0 || m.associatedMessageType != null || !same(m) || m.error !== 0) return false;
      const owner = this.journal.claimedBy(m.guid);
      return owner === null || owner === action.logicalActionId;
    }) ?? null;
  }

  // Sends

  /** POST /api/v1/message/text, settled once its echo names a row that left the Mac. */
  private async sendText(action: ActionRef, chatGuid: string, send: TextSend, before: ReportableEvent[] = []): Promise<Outcome> {
    const same = (m: BbMessage) => m.text === send.message;
    const earlier = await this.alreadySent(action, chatGuid, same);
    if (earlier) return this.proveSent(action, chatGuid, earlier.guid, before, `BlueBubbles already shows message ${earlier.guid} from an earlier attempt`);

    const tempGuid = this.tempGuidOf(action);
    this.journal.intend(action.logicalActionId, tempGuid);
    const answer = await this.withEcho(tempGuid, () => this.api.call<BbMessage>('POST', '/message/text', {
      body: { chatGuid, tempGuid, ...send },
      timeoutMs: this.settings.echoTimeoutMs,
    }));
    if ('echo' in answer) return this.proveSent(action, chatGuid, answer.echo.guid, before);
    if ('timedOut' in answer) return this.done(action, { result: 'accepted_no_echo', detail: `no echo matched tempGuid ${tempGuid} within ${this.settings.echoTimeoutMs} ms`, events: before });
    const { status, body } = answer.answer;
    if (status === 200 && body.data?.guid && body.data.tempGuid === tempGuid && (body.data.error ?? 0) === 0) return this.proveSent(action, chatGuid, body.data.guid, before);
    if (status === 400 && /already queued/i.test(body.error?.message ?? '')) return this.awaitOtherSend(action, chatGuid, same, tempGuid, before);
    return this.done(action, { ...this.sendFailure(answer.answer), events: before });
  }

  /**
   * POST /api/v1/message/attachment (multipart: `attachment` the file, `name` the name the
   * recipient sees), settled as a text send is: its echo, then proof it left the Mac. Unlike
   * sendText, BlueBubbles' answer carries no tempGuid: it is the row BlueBubbles matched to this
   * send (MessagePromise: a new row from the Mac in the chat with an attachment of this name);
   * the new-message webhook of that row carries the tempGuid.
   */
  private async sendAttachment(action: ActionRef, chatGuid: string, media: Media): Promise<Outcome> {
    const same = (m: BbMessage) => (m.attachments ?? []).some((a) => isSameFile(a, media));
    const earlier = await this.alreadySent(action, chatGuid, same);
    if (earlier) return this.proveSent(action, chatGuid, earlier.guid, [], `BlueBubbles already shows message ${earlier.guid} from an earlier attempt`);

    const tempGuid = this.tempGuidOf(action);
    this.journal.intend(action.logicalActionId, tempGuid);
    const form = multipart({ chatGuid, tempGuid, name: media.fileName, method: 'apple-script' }, { name: 'attachment', ...media });
    const answer = await this.withEcho(tempGuid, () => this.api.call<BbMessage>('POST', '/message/attachment', { form, timeoutMs: this.settings.echoTimeoutMs }));
    if ('echo' in answer) return this.proveSent(action, chatGuid, answer.echo.guid, []);
    if ('timedOut' in answer) return this.done(action, { result: 'accepted_no_echo', detail: `no echo matched tempGuid ${tempGuid} within ${this.settings.echoTimeoutMs} ms`, events: [] });
    const { status, body } = answer.answer;
    // A row with an error is proven failed by proveSent (sendAttachment answers 200 whatever the row's error).
    if (status === 200 && body.data?.guid) return this.proveSent(action, chatGuid, body.data.guid, []);
    if (status === 400 && /already queued/i.test(body.error?.message ?? '')) return this.awaitOtherSend(action, chatGuid, same, tempGuid, []);
    return this.done(action, { ...this.sendFailure(answer.answer), events: [] });
  }

  /**
   * The echo names the send's row, and BlueBubbles answers as soon as the row is in the Messages
   * database, sent or not (MessagePoller resolves a send on any row from the Mac; is_sent is not
   * serialized). The send succeeded once the row shows it left the Mac: `is_sent` (read through
   * the query's `where`) or a delivery. A row that shows `error` ≠ 0 first never left: the send
   * settles gateway_rejected, its message reported sent and failed. Nothing within
   * ECHO_TIMEOUT_MS: accepted_echo_unconfirmed, its message reported sent (its later delivery or
   * failure reaches the stream from the feed).
   */
  private async proveSent(action: ActionRef, chatGuid: string, guid: string, before: ReportableEvent[], replayed?: string): Promise<Outcome> {
    const sent: MessageSent = { type: 'message.sent', conversationExternalId: chatGuid, messageExternalId: guid, commandId: action.commandId };
    this.sentEvents.set(guid, sent);
    if (this.sentEvents.size > SENT_EVENTS_MAX) this.sentEvents.delete(this.sentEvents.keys().next().value!);
    const deadline = Date.now() + this.settings.echoTimeoutMs;
    let pushed: BbMessage | null = null;
    let wake = () => {};
    this.updates.set(guid, (m) => {
      pushed = m;
      wake();
    });
    try {
      for (;;) {
        const update: BbMessage | null = pushed;
        pushed = null;
        const row = update && leftOrFailed(update) ? update : await this.sentState(chatGuid, guid);
        if (row?.error) {
          const failed: ReportableEvent = { type: 'message.failed', conversationExternalId: chatGuid, messageExternalId: guid, ...failureOf(row.error), failedAt: new Date().toISOString() };
          return this.done(action, { result: 'gateway_rejected', detail: `Messages took the send as message ${guid}, then marked it failed (error ${row.error}); it never left the Mac`, events: [...before, sent, failed] });
        }
        if (row) return this.done(action, { result: 'confirmed', ...(replayed ? { replayed: true, detail: replayed } : {}), events: [...before, sent] }, guid);
        if (Date.now() >= deadline) break;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(PROOF_POLL_MS, Math.max(0, deadline - Date.now())));
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    } finally {
      this.updates.delete(guid);
    }
    return this.done(action, {
      result: 'accepted_no_echo',
      detail: `Messages took the send as message ${guid}, and nothing showed it left the Mac (sent, delivered or failed) within ${this.settings.echoTimeoutMs} ms`,
      events: [...before, sent],
    }, guid);
  }

  /**
   * The send's row once it left the Mac or failed, or null while neither shows:
   * POST /message/query with `where` (MessageRepository.getMessages passes each statement to
   * TypeORM's andWhere, as BlueBubbles' own search does) on the `is_sent`, `is_delivered` and
   * `error` columns. When BlueBubbles refuses the `where`, the row itself (GET /message/:guid):
   * only a delivery or an error shows there.
   */
  private async sentState(chatGuid: string, guid: string): Promise<BbMessage | null> {
    try {
      const answer = await this.api.call<BbMessage[]>('POST', '/message/query', {
        body: {
          chatGuid, limit: 1, with: ['chat'],
          where: [
            // Not `:guid`: getMessages binds that name to the chat's guid (`chat.guid = :guid`), and TypeORM's parameters are one namespace.
            { statement: 'message.guid = :messageGuid', args: { messageGuid: guid } },
            { statement: '(message.is_sent = 1 OR message.is_delivered = 1 OR message.error != 0)', args: {} },
          ],
        },
      });
      if (answer.status === 200) return answer.body.data?.find((m) => m.guid === guid) ?? null;
      if (!this.whereRefused) this.context.log.warn({ answer: describe(answer) }, 'BlueBubbles refused the message query\'s where; a send is proven by a delivery alone');
      this.whereRefused = true;
      const row = await this.api.find<BbMessage>(`/message/${encodeURIComponent(guid)}`);
      return row && leftOrFailed(row) ? row : null;
    } catch (error) {
      // BlueBubbles did not answer: nothing shows yet; the wait goes on to its bound.
      this.context.log.debug({ err: error, guid }, 'a send\'s row could not be read');
      return null;
    }
  }

  /** A send's answer that is not its echo, as a result. */
  private sendFailure(answer: BbAnswer<Partial<BbMessage> | null>): { result: OutcomeResult; detail: string } {
    const error = answer.body.data?.error ?? 0;
    if (answer.status === 500 && error !== 0) return { result: 'gateway_rejected', detail: `Messages refused the send (message error ${error}); ${describe(answer)}` };
    // Handed to Messages, then not seen: a send's row never showed, or a new chat's message or
    // chat never did (ChatInterface.create: the Private API's "Message not found after 30 seconds",
    // or the AppleScript send made on Big Sur and later, then "Failed to create chat!").
    if (answer.status === 500 && /not found in database|message not found after|^failed to create chat!$/i.test(answer.body.error?.message ?? '')) {
      return { result: 'accepted_no_echo', detail: `the send was handed to Messages but never showed in its database; ${describe(answer)}` };
    }
    return { result: 'send_not_ok', detail: describe(answer) };
  }

  /** Races a send's answer with its echo webhook; a timeout means the send went out and nothing confirmed it. */
  private async withEcho<T>(tempGuid: string, request: () => Promise<BbAnswer<T>>): Promise<{ echo: BbMessage } | { answer: BbAnswer<T> } | { timedOut: true }> {
    const echo = new Promise<{ echo: BbMessage }>((resolve) => this.echoes.set(tempGuid, (m) => resolve({ echo: m })));
    const answered = request().then((answer) => ({ answer }), (error: unknown) => {
      if (error instanceof BlueBubblesUnreachable && error.timedOut) return { timedOut: true as const };
      throw error;
    });
    try {
      return await Promise.race([answered, echo]);
    } finally {
      this.echoes.delete(tempGuid);
      answered.catch(() => undefined);
    }
  }

  /** BlueBubbles is still sending this tempGuid for another host: its message, once it shows, is this action's. */
  private async awaitOtherSend(action: ActionRef, chatGuid: string, same: (m: BbMessage) => boolean, tempGuid: string, before: ReportableEvent[]): Promise<Outcome> {
    const deadline = Date.now() + this.settings.echoTimeoutMs;
    while (Date.now() < deadline) {
      await delay(250);
      const found = await this.alreadySent({ ...action, acceptedAt: undefined }, chatGuid, same);
      if (found) return this.proveSent(action, chatGuid, found.guid, before, `the send of tempGuid ${tempGuid} already in flight showed as ${found.guid}`);
    }
    return this.done(action, { result: 'accepted_no_echo', detail: `a send of tempGuid ${tempGuid} was already in flight and nothing showed within ${this.settings.echoTimeoutMs} ms`, events: before });
  }

  async sendToConversation(action: ActionRef, conversation: ConversationRef, content: OutgoingContent): Promise<Outcome> {
    const chat = await this.usable(conversation);
    if (isOutcome(chat)) return chat;
    switch (content.kind) {
      case 'text':
        return this.sendText(action, chat.guid, { message: content.text, method: 'apple-script' });
      case 'rich_link':
        // Messages renders the preview of a bare URL itself.
        return this.sendText(action, chat.guid, { message: content.url, method: 'apple-script' });
      case 'rich_text': {
        if (content.replyToMessageExternalId !== undefined) {
          const parent = await this.api.find<BbMessage>(`/message/${encodeURIComponent(content.replyToMessageExternalId)}`, { with: 'chats' });
          if (!parent || !(parent.chats ?? []).some((c) => c.guid === chat.guid)) {
            return fail('invalid_target', `replyToMessageExternalId "${content.replyToMessageExternalId}" is not a message of this chat`);
          }
        }
        return this.sendText(action, chat.guid, {
          message: content.text,
          method: 'private-api',
          ...(content.subject === undefined ? {} : { subject: content.subject }),
          ...(content.effect === undefined ? {} : { effectId: EFFECT_ID[content.effect] }),
          ...(content.replyToMessageExternalId === undefined ? {} : { selectedMessageGuid: content.replyToMessageExternalId }),
        });
      }
      case 'poll':
        return fail('send_not_ok', 'BlueBubbles has no poll API; a host in front of it never declares poll');
      case 'attachment':
      case 'sticker':
        // BlueBubbles has no sticker send (README.md): a sticker would go as an attachment; the host does not declare the kind.
        return this.sendAttachment(action, chat.guid, content.media);
    }
  }

  async sendToRecipient(action: ActionRef, recipientExternalId: string, text: string): Promise<Outcome> {
    if ((await this.unreachable([recipientExternalId])).length > 0) return fail('invalid_target', `iMessage cannot reach "${recipientExternalId}"`);
    const existing = await this.chats.fetch(directChatGuid(recipientExternalId));
    if (existing) return this.sendText(action, existing.guid, { message: text, method: 'apple-script' }, [this.chats.appeared(existing, action.commandId)]);
    return this.createChat(action, [recipientExternalId], text, 'apple-script');
  }

  /** POST /api/v1/chat/new: the chat and its first message, with the send's tempGuid. */
  private async createChat(action: ActionRef, addresses: string[], text: string, method: 'apple-script' | 'private-api', name: string | null = null): Promise<Outcome> {
    const tempGuid = this.tempGuidOf(action);
    this.journal.intend(action.logicalActionId, tempGuid);
    const answer = await this.withEcho(tempGuid, () => this.api.call<BbChat & { messages?: BbMessage[] }>('POST', '/chat/new', {
      body: { addresses, message: text, method, tempGuid },
      timeoutMs: this.settings.echoTimeoutMs,
    }));
    if ('timedOut' in answer) return this.done(action, { result: 'accepted_no_echo', detail: `no echo matched tempGuid ${tempGuid} within ${this.settings.echoTimeoutMs} ms`, events: [] });
    let chat: ChatInfo | null;
    let guid: string | undefined;
    if ('echo' in answer) {
      guid = answer.echo.guid;
      const chatGuid = answer.echo.chats?.[0]?.guid;
      chat = chatGuid ? await this.chats.fetch(chatGuid) : null;
    } else {
      const { status, body } = answer.answer;
      if (status !== 200 || !body.data) return this.done(action, { ...this.sendFailure(answer.answer as BbAnswer<Partial<BbMessage> | null>), events: [] });
      chat = this.chats.remember(body.data);
      guid = body.data.messages?.find((m) => m.tempGuid === tempGuid)?.guid;
    }
    if (!chat || !guid) return this.done(action, { result: 'accepted_no_echo', detail: 'BlueBubbles created the chat but showed no message matched by the tempGuid', events: [] });
    if (name !== null) chat = await this.nameNewGroup(chat, name);
    return this.proveSent(action, chat.guid, guid, [this.chats.appeared(chat, action.commandId)]);
  }

  /** A new group's name (PUT /api/v1/chat/:guid); the group exists either way, so a failed rename only leaves it unnamed. */
  private async nameNewGroup(chat: ChatInfo, name: string): Promise<ChatInfo> {
    const answer = await this.api.call<BbChat>('PUT', `/chat/${encodeURIComponent(chat.guid)}`, { body: { displayName: name }, timeoutMs: this.settings.updateTimeoutMs }).catch(() => null);
    if (answer?.status === 200 && answer.body.data) return this.chats.renamed(chat, answer.body.data);
    this.context.log.warn({ chatGuid: chat.guid }, 'the new group could not be named');
    return chat;
  }

  async createGroup(action: ActionRef, participants: string[], text: string, name: string | null): Promise<Outcome> {
    const unreachable = await this.unreachable(participants);
    if (unreachable.length > 0) return fail('invalid_target', `iMessage cannot reach: ${unreachable.join(', ')}`);
    // AppleScript cannot create groups since Big Sur: only the Private API can.
    return this.createChat(action, [...new Set(participants)], text, 'private-api', name);
  }

  // Reactions and the contact card

  /** POST /api/v1/message/react (Private API); its answer is the reaction's row from the database. */
  private async react(action: ActionRef, chatGuid: string, messageGuid: string, tapback: Tapback, remove: boolean): Promise<Outcome> {
    const answer = await this.api.call<BbMessage>('POST', '/message/react', {
      body: { chatGuid, selectedMessageGuid: messageGuid, reaction: remove ? `-${tapback}` : tapback },
      timeoutMs: this.settings.echoTimeoutMs,
    }).catch((error: unknown) => {
      if (error instanceof BlueBubblesUnreachable && error.timedOut) return null;
      throw error;
    });
    if (answer === null) return this.done(action, { result: 'accepted_no_echo', detail: `the reaction showed nothing within ${this.settings.echoTimeoutMs} ms`, events: [] });
    if (answer.status === 200 && answer.body.data?.guid) return this.done(action, { result: 'confirmed', events: [] }, answer.body.data.guid);
    if (answer.status === 400 && /does not exist/i.test(answer.body.error?.message ?? '')) return fail('no_message_to_react_to', describe(answer));
    return fail('send_not_ok', describe(answer));
  }

  async tapback(action: ActionRef, conversation: ConversationRef, messageExternalId: string, tapback: Tapback, remove: boolean): Promise<Outcome> {
    const chat = await this.usable(conversation);
    if (isOutcome(chat)) return chat;
    const target = await this.api.find<BbMessage>(`/message/${encodeURIComponent(messageExternalId)}`, { with: 'chats' });
    if (!target || !(target.chats ?? []).some((c) => c.guid === chat.guid) || target.associatedMessageType != null) {
      return fail('no_message_to_react_to', `no message "${messageExternalId}" in this chat`);
    }
    return this.react(action, chat.guid, messageExternalId, tapback, remove);
  }

  async reactToNewestIncoming(action: ActionRef, conversation: ConversationRef, tapback: Tapback): Promise<Outcome> {
    const chat = await this.usable(conversation, 'direct');
    if (isOutcome(chat)) return chat;
    const newest = (await this.recent(chat.guid)).find((m) => !m.isFromMe && m.itemType === 0 && m.associatedMessageType == null);
    if (!newest) return fail('no_message_to_react_to', 'the direct chat has no incoming message');
    return this.react(action, chat.guid, newest.guid, tapback, false);
  }

  async shareNamePhoto(action: ActionRef, conversation: ConversationRef): Promise<Outcome> {
    const chat = await this.usable(conversation, 'direct');
    if (isOutcome(chat)) return chat;
    const answer = await this.api.call('POST', `/chat/${encodeURIComponent(chat.guid)}/share/contact`);
    if (answer.status === 200) return this.done(action, { result: 'confirmed', events: [] });
    return fail('send_not_ok', describe(answer));
  }

  // Group changes: each waits, in BlueBubbles, for the change to show in the Messages database.

  private async update<T>(method: string, path: string, body: unknown): Promise<BbAnswer<T> | null> {
    const payload = isMultipart(body) ? { form: body } : { body };
    return this.api.call<T>(method, path, { ...payload, timeoutMs: this.settings.updateTimeoutMs }).catch((error: unknown) => {
      if (error instanceof BlueBubblesUnreachable && error.timedOut) return null;
      throw error;
    });
  }

  private unverified(answer: BbAnswer<unknown> | null): Outcome {
    if (answer === null) return fail('group_update_unverified', `the change did not show within ${this.settings.updateTimeoutMs} ms`);
    if (answer.status === 404) return fail('invalid_target', describe(answer));
    return fail('group_update_unverified', describe(answer));
  }

  async renameGroup(action: ActionRef, conversation: ConversationRef, name: string): Promise<Outcome> {
    const chat = await this.usable(conversation, 'group');
    if (isOutcome(chat)) return chat;
    const answer = await this.update<BbChat>('PUT', `/chat/${encodeURIComponent(chat.guid)}`, { displayName: name });
    if (answer?.status !== 200 || answer.body.data?.displayName !== name) return this.unverified(answer);
    this.chats.renamed(chat, answer.body.data);
    return this.done(action, { result: 'confirmed', events: [{ type: 'group.renamed', conversationExternalId: chat.guid, name, commandId: action.commandId }] });
  }

  private async toggle(action: ActionRef, conversation: ConversationRef, participant: string, change: 'add' | 'remove'): Promise<Outcome> {
    const chat = await this.usable(conversation, 'group');
    if (isOutcome(chat)) return chat;
    if (change === 'add' && (await this.unreachable([participant])).length > 0) return fail('invalid_target', `iMessage cannot reach "${participant}"`);
    if (chat.participants.includes(participant) === (change === 'add')) {
      return this.done(action, { result: 'confirmed', detail: 'the membership already matched', events: [] });
    }
    const answer = await this.update<BbChat>('POST', `/chat/${encodeURIComponent(chat.guid)}/participant/${change}`, { address: participant });
    if (answer?.status !== 200 || !answer.body.data) return this.unverified(answer);
    const after = this.chats.remember(answer.body.data);
    if (after.participants.includes(participant) !== (change === 'add')) return this.unverified(answer);
    return this.done(action, {
      result: 'confirmed',
      events: [{
        type: 'group.participants_changed', conversationExternalId: chat.guid,
        added: change === 'add' ? [participant] : [], removed: change === 'remove' ? [participant] : [],
        participants: after.participants, commandId: action.commandId,
      }],
    });
  }

  addParticipant(action: ActionRef, conversation: ConversationRef, participant: string): Promise<Outcome> {
    return this.toggle(action, conversation, participant, 'add');
  }

  /** On macOS 26 Messages takes the removal and never shows it: BlueBubbles waits, then answers 500, which settles group_update_unverified. */
  removeParticipant(action: ActionRef, conversation: ConversationRef, participant: string): Promise<Outcome> {
    return this.toggle(action, conversation, participant, 'remove');
  }

  /**
   * POST /api/v1/chat/:guid/icon (Private API; multipart, the image as `icon`). BlueBubbles
   * answers once its helper took the icon, with no data; the change is confirmed when the chat's
   * `properties` name a group photo (`groupPhotoGuid`) other than before, within UPDATE_TIMEOUT_MS.
   */
  async setGroupPhoto(action: ActionRef, conversation: ConversationRef, photo: Media): Promise<Outcome> {
    const chat = await this.usable(conversation, 'group');
    if (isOutcome(chat)) return chat;
    const before = await this.groupPhotoGuid(chat.guid);
    const form = multipart({}, { name: 'icon', ...photo });
    const deadline = Date.now() + this.settings.updateTimeoutMs;
    const answer = await this.update('POST', `/chat/${encodeURIComponent(chat.guid)}/icon`, form);
    if (answer?.status !== 200) return this.unverified(answer);
    for (;;) {
      const now = await this.groupPhotoGuid(chat.guid);
      if (now !== null && now !== before) return this.done(action, { result: 'confirmed', events: [] });
      if (Date.now() >= deadline) break;
      await delay(PROOF_POLL_MS);
    }
    return fail('group_update_unverified', `BlueBubbles took the icon, and the chat named no new group photo within ${this.settings.updateTimeoutMs} ms`);
  }

  /** The chat's group photo as ChatInterface.getGroupChatIcon finds it: the last `groupPhotoGuid` in its properties. */
  private async groupPhotoGuid(chatGuid: string): Promise<string | null> {
    const chat = await this.api.find<BbChat>(`/chat/${encodeURIComponent(chatGuid)}`);
    return (chat?.properties ?? []).map((p) => p.groupPhotoGuid).filter((g): g is string => typeof g === 'string' && g !== '').at(-1) ?? null;
  }

  async leaveGroup(action: ActionRef, conversation: ConversationRef): Promise<Outcome> {
    const chat = await this.usable(conversation, 'group');
    if (isOutcome(chat)) return chat;
    const answer = await this.api.call('POST', `/chat/${encodeURIComponent(chat.guid)}/leave`);
    if (answer.status === 200) return this.done(action, { result: 'confirmed', events: [] });
    return fail('send_not_ok', describe(answer));
  }

  subscribe(listener: FeedListener): FeedSubscription {
    return this.inbound.subscribe(listener);
  }

  async close(): Promise<void> {
    await this.inbound.close();
    this.journal.close();
  }
}

/** What the row alone (without `is_sent`, which BlueBubbles does not serialize) shows: a delivery, or an error. */
function leftOrFailed(m: BbMessage): boolean {
  return (m.error ?? 0) !== 0 || m.isDelivered === true || !!m.dateDelivered;
}

/**
 * Whether a row's attachment is the file a send carries: its name, byte size and media type (a
 * type BlueBubbles does not know matches). A common name alone (image.png) is not enough to adopt
 * another send's message after a failover.
 */
function isSameFile(attachment: BbAttachment, media: Media): boolean {
  const type = attachment.mimeType?.toLowerCase() ?? media.mimeType;
  return attachment.transferName === media.fileName && attachment.totalBytes === media.bytes.byteLength && type === media.mimeType;
}

function isMultipart(body: unknown): body is Multipart {
  return typeof body === 'object' && body !== null && 'contentType' in body && 'body' in body && body.body instanceof ReadableStream;
}
