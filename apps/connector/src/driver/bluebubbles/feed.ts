import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { ConversationAppeared, FeedEvent, FeedListener, FeedSubscription, InboundAttachment, MessageChangedByOthers, MessageSent, MessageStateChanged } from '../types.ts';
import type { BlueBubblesApi } from './api.ts';
import type { Chats } from './chats.ts';
import type { Journal } from './journal.ts';
import type { BlueBubblesSettings } from './settings.ts';
import { chatOf, isPlainMessage, othersChanges, ownStates, reactionOf, type Keyed } from './rows.ts';
import { isLeave, WEBHOOK_EVENTS, type BbMessage, type WebhookBody } from './wire.ts';

const CURSOR = 'inbound';
/** Set on the first catch-up: the states sweep never reaches before it (what came before Switchboard is not reported). */
const STATES_FLOOR = 'states-floor';
/**
 * How far back the states sweep reads. BlueBubbles' message query filters on `dateCreated` only
 * (MessageRepository.getMessages: `after` is `message.date`), so a delivery, read, edit or
 * unsend of an older message is found only by reading that message again: the sweep reads every
 * message created this far back, as BlueBubbles' own MessagePoller reads a week back for the same
 * reason. A change to an older message whose webhook was lost is not reported.
 */
export const STATES_LOOKBACK_MS = 24 * 60 * 60 * 1000;
/** The catch-up reads again this far behind its cursor: rows can land in the database out of date order. */
const OVERLAP_MS = 5_000;
const PAGE = 500;
/** Remembered message guids, so the overlap is not reported (and its attachments uploaded) again. */
const SEEN_MAX = 10_000;
/** Remembered states (delivered, read, failed, an edit, an unsend), so the sweep reports each once per host life; the server ignores a repeat. */
const REPORTED_MAX = 50_000;
/** What BlueBubbles is asked to include with a row read again (webhook `updated-message`, `message-send-error`). */
const ROW_WITH = 'chats,message-summary-info';
/** Tries of an attachment's download, this far apart, before its message goes without it. */
const ATTACHMENT_ATTEMPTS = 4;
const ATTACHMENT_RETRY_MS = 500;

/** An echo of one of this host's sends: BlueBubbles' new-message event for a message from the Mac that carries the send's tempGuid. */
export type EchoListener = (message: BbMessage) => void;
/** A row of the account's own message read again after `updated-message` or `message-send-error`: a send waiting for proof it left the Mac looks at it. */
export type UpdateListener = (message: BbMessage) => void;
/** The `message.sent` of one of this host's sends, by message guid, or null for a message it did not send. */
export type SentLookup = (messageGuid: string) => MessageSent | null;

/** How a row reached the feed: new (a `new-message` or group webhook, the cursor's query) or read again for what changed (`updated-message`, `message-send-error`, the states sweep). */
type Arrival = 'new' | 'update';

/**
 * What other people do, from BlueBubbles: its webhooks for what happens now, and its message
 * query for what happened while no host listened (and for the webhooks it lost: it posts each
 * once and never retries). Messages from the Mac itself are never inbound messages; an echo of
 * one of this host's sends goes to the echo listener.
 */
export class Inbound {
  private readonly api: BlueBubblesApi;
  private readonly chats: Chats;
  private readonly journal: Journal;
  private readonly settings: BlueBubblesSettings;
  private readonly log: Logger;
  private readonly onEcho: EchoListener;
  private readonly onUpdate: UpdateListener;
  private readonly sentOf: SentLookup;
  private readonly seen = new Set<string>();
  private readonly reported = new Set<string>();
  private server: Server | null = null;
  private receiver: Promise<void> | null = null;
  /** The live subscription's webhook handler; null between leases. */
  private onWebhook: ((body: WebhookBody) => void) | null = null;

  constructor(
    api: BlueBubblesApi, chats: Chats, journal: Journal, settings: BlueBubblesSettings, log: Logger, onEcho: EchoListener,
    onUpdate: UpdateListener = () => undefined, sentOf: SentLookup = () => null,
  ) {
    this.api = api;
    this.chats = chats;
    this.journal = journal;
    this.settings = settings;
    this.log = log;
    this.onEcho = onEcho;
    this.onUpdate = onUpdate;
    this.sentOf = sentOf;
  }

  /** The webhook path carries a token only BlueBubbles is told: its webhooks are not signed. */
  private get path(): string {
    return `/bluebubbles/webhook/${createHash('sha256').update(`switchboard:${this.settings.password}`).digest('hex').slice(0, 32)}`;
  }

  subscribe(listener: FeedListener): FeedSubscription {
    let stopped = false;
    let timer: NodeJS.Timeout | null = null;
    // One queue: webhook batches and catch-ups are reported one at a time, in arrival order.
    let queue: Promise<void> = Promise.resolve();
    const enqueue = (work: () => Promise<void>) => {
      queue = queue.then(async () => {
        if (stopped) return;
        try {
          await work();
        } catch (error) {
          this.log.warn({ err: error }, 'BlueBubbles inbound not delivered; the catch-up reads it again');
        }
      });
      return queue;
    };
    const catchUp = () => {
      timer = null;
      void enqueue(() => this.catchUp(listener)).then(() => {
        if (!stopped) timer = setTimeout(catchUp, this.settings.catchUpIntervalMs);
      });
    };
    const onWebhook = (body: WebhookBody) => void enqueue(() => this.fromWebhook(body, listener));
    this.onWebhook = onWebhook;
    this.receiver ??= this.listen().catch((error: unknown) => {
      this.log.error({ err: error }, 'BlueBubbles webhook not registered; inbound comes from the catch-up alone');
    });
    void this.receiver.then(catchUp);
    return {
      stop: async () => {
        stopped = true;
        if (this.onWebhook === onWebhook) this.onWebhook = null;
        if (timer) clearTimeout(timer);
        await queue;
      },
    };
  }

  /** Stops the webhook receiver; the registration stays, for the next start. */
  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /**
   * Starts the receiver, once for the driver's life (leases come and go; the port stays), and
   * registers it with BlueBubbles (POST /api/v1/webhook, server 1.9.9+) unless it is already.
   */
  private async listen(): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.method !== 'POST' || req.url !== this.path) {
          res.writeHead(404).end();
          return;
        }
        res.writeHead(200).end();
        try {
          this.onWebhook?.(JSON.parse(Buffer.concat(chunks).toString('utf8')) as WebhookBody);
        } catch (error) {
          this.log.warn({ err: error }, 'BlueBubbles webhook not understood');
        }
      });
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.settings.webhookPort, this.settings.webhookHost, resolve);
    });
    const { port } = server.address() as { port: number };
    const url = this.settings.webhookUrl ? `${this.settings.webhookUrl.replace(/\/+$/, '')}${this.path}` : `http://${this.settings.webhookHost}:${port}${this.path}`;
    // GET /webhook?url= answers 500 for an unknown URL (WebhookRouter.get parses a null row's events).
    const found = await this.api.call<Array<{ id: number; url: string; events: string[] } | null>>('GET', '/webhook', { query: { url } });
    const existing = found.status === 200 ? (found.body.data ?? []).find((w) => w?.url === url) : undefined;
    if (existing && (existing.events.includes('*') || WEBHOOK_EVENTS.every((e) => existing.events.includes(e)))) return;
    // POST /webhook returns a URL's registration as it is (ServerRepository.addWebhook), so one
    // made for fewer events (by an older host) is replaced.
    if (existing) await this.api.call('DELETE', `/webhook/${existing.id}`);
    const created = await this.api.call('POST', '/webhook', { body: { url, events: WEBHOOK_EVENTS } });
    if (created.status !== 200) throw new Error(`BlueBubbles did not register the webhook (${created.status} ${created.body.message}); register ${url} for ${WEBHOOK_EVENTS.join(', ')} in its settings`);
    this.log.info({ webhook: url.replace(this.path, '/bluebubbles/webhook/…') }, 'BlueBubbles webhook registered');
  }

  private async fromWebhook(body: WebhookBody, listener: FeedListener): Promise<void> {
    if (!(WEBHOOK_EVENTS as readonly string[]).includes(body.type)) return;
    const data = body.data as BbMessage;
    if (body.type !== 'updated-message' && body.type !== 'message-send-error') {
      await this.report([data], listener, 'new');
      return;
    }
    // `updated-message` carries no chats (Server.handleUpdatedMessage: includeChats false), and
    // neither carries the message summary an unsend is told by: the row is read again.
    const row = await this.api.find<BbMessage>(`/message/${encodeURIComponent(data.guid)}`, { with: ROW_WITH });
    if (!row) return;
    if (row.isFromMe) this.onUpdate(row);
    await this.report([row], listener, 'update');
  }

  /** Reports what the messages mean; they count as seen only once the listener took them. */
  private async report(messages: BbMessage[], listener: FeedListener, arrival: Arrival): Promise<void> {
    const { events, guids, keys } = await this.eventsOf(messages, arrival);
    if (events.length > 0) await listener(events);
    for (const guid of guids) this.remember(guid);
    for (const key of keys) {
      this.reported.add(key);
      if (this.reported.size > REPORTED_MAX) this.reported.delete(this.reported.values().next().value!);
    }
  }

  /** The catch-up behind the webhooks: new rows from the cursor on, then the states of recent ones. */
  private async catchUp(listener: FeedListener): Promise<void> {
    if (this.journal.cursor(STATES_FLOOR) === null) this.journal.advance(STATES_FLOOR, Date.now() - this.settings.catchUpWindowMs);
    await this.catchUpNew(listener);
    await this.catchUpStates(listener);
  }

  /** POST /api/v1/message/query from the cursor on, oldest first, page by page. */
  private async catchUpNew(listener: FeedListener): Promise<void> {
    const cursor = this.journal.cursor(CURSOR);
    let after = cursor === null ? Date.now() - this.settings.catchUpWindowMs : cursor - OVERLAP_MS;
    for (;;) {
      const answer = await this.api.call<BbMessage[]>('POST', '/message/query', {
        body: { after, sort: 'ASC', limit: PAGE, with: ['chat', 'chat.participants', 'attachment', 'message-summary-info'] },
      });
      if (answer.status !== 200) throw new Error(`message query: ${answer.status} ${answer.body.message}`);
      const messages = answer.body.data ?? [];
      await this.report(messages, listener, 'new');
      const newest = messages.reduce((max, m) => Math.max(max, m.dateCreated), after);
      // Past the page only once it was reported: a host that dies here leaves it to the next start.
      this.journal.advance(CURSOR, newest);
      if (messages.length < PAGE || newest === after) return;
      after = newest;
    }
  }

  /**
   * The states sweep: every message created in the last STATES_LOOKBACK_MS (not before the
   * floor) read again for what changed since: the account's messages delivered, read or failed,
   * other people's edited or unsent. Nothing is reported as new from here.
   */
  private async catchUpStates(listener: FeedListener): Promise<void> {
    const after = Math.max(this.journal.cursor(STATES_FLOOR) ?? 0, Date.now() - STATES_LOOKBACK_MS);
    for (let offset = 0; ; offset += PAGE) {
      const answer = await this.api.call<BbMessage[]>('POST', '/message/query', {
        body: { after, sort: 'ASC', limit: PAGE, offset, with: ['chat', 'message-summary-info'] },
      });
      if (answer.status !== 200) throw new Error(`message query: ${answer.status} ${answer.body.message}`);
      const messages = answer.body.data ?? [];
      await this.report(messages, listener, 'update');
      if (messages.length < PAGE) return;
    }
  }

  /**
   * Feed events for BlueBubbles messages, each chat's preceded by its conversation (the server
   * ignores a repeat). A new row from someone else is a message, a tapback or a group change,
   * once; any row may also show a state not reported yet.
   */
  private async eventsOf(messages: BbMessage[], arrival: Arrival): Promise<{ events: FeedEvent[]; guids: string[]; keys: string[] }> {
    const events: FeedEvent[] = [];
    const guids: string[] = [];
    const keys: string[] = [];
    const announced = new Set<string>();
    const announce = async (chatGuid: string): Promise<boolean> => {
      if (announced.has(chatGuid)) return true;
      const appeared = await this.appeared(chatGuid);
      if (!appeared) return false;
      announced.add(chatGuid);
      events.push(appeared);
      return true;
    };
    const states = async (chatGuid: string, found: Array<Keyed<MessageStateChanged | MessageChangedByOthers>>, sent: MessageSent | null = null) => {
      const fresh = found.filter((s) => !this.reported.has(s.key) && !keys.includes(s.key));
      if (fresh.length === 0 || !(await announce(chatGuid))) return;
      // The send's own message.sent first (the server ignores a repeat), so a state reported while
      // its command is still settling is tied to the command on the stream.
      if (sent) events.push(sent);
      for (const s of fresh) {
        events.push(s.event);
        keys.push(s.key);
      }
    };
    for (const m of messages) {
      const chat = chatOf(m);
      if (m.isFromMe) {
        // An echo loop stops here: the account's own messages are never inbound.
        if (m.tempGuid) this.onEcho(m);
        if (chat) await states(chat.guid, ownStates(m, chat, Date.now()), this.sentOf(m.guid));
        continue;
      }
      if (!chat) continue;
      if (arrival === 'new' && !this.seen.has(m.guid)) {
        const event = await this.eventOf(m, chat.guid);
        if (event && (await announce(chat.guid))) {
          events.push(event);
          guids.push(m.guid);
        }
      }
      if (isPlainMessage(m)) await states(chat.guid, othersChanges(m, chat));
    }
    return { events, guids, keys };
  }

  private remember(guid: string): void {
    this.seen.add(guid);
    if (this.seen.size > SEEN_MAX) this.seen.delete(this.seen.values().next().value!);
  }

  private async appeared(chatGuid: string): Promise<ConversationAppeared | null> {
    const chat = this.chats.known(chatGuid) ?? (await this.chats.fetch(chatGuid));
    return chat ? this.chats.appeared(chat) : null;
  }

  private async eventOf(m: BbMessage, chatGuid: string): Promise<FeedEvent | null> {
    if (isPlainMessage(m)) {
      const attachments = await this.attachments(m);
      return {
        type: 'message.received',
        conversationExternalId: chatGuid,
        messageExternalId: m.guid,
        senderExternalId: m.handle?.address ?? 'unknown',
        text: m.text,
        attachments,
        receivedAt: new Date(m.dateCreated).toISOString(),
      };
    }
    if (m.associatedMessageType != null) {
      // A tapback (a sticker and the newer emoji tapbacks have no stream event).
      const chat = chatOf(m);
      return chat ? reactionOf(m, chat) : null;
    }
    if (m.itemType === 2 && m.groupTitle !== null) {
      return { type: 'group.renamed', conversationExternalId: chatGuid, name: m.groupTitle };
    }
    if (m.itemType === 1 || isLeave(m)) {
      // The row names the member by handle row id, so the change is read off the chat's members.
      const before = this.chats.known(chatGuid);
      const after = await this.chats.fetch(chatGuid);
      if (!after) return null;
      const was = before?.participants ?? [];
      return {
        type: 'group.participants_changed',
        conversationExternalId: chatGuid,
        added: after.participants.filter((p) => !was.includes(p)),
        removed: was.filter((p) => !after.participants.includes(p)),
        participants: after.participants,
      };
    }
    // Group photo changes and other rows have no stream event.
    return null;
  }

  /**
   * A message's attachments that could be downloaded. BlueBubbles answers 500 while Messages has
   * not written a file yet (often when `new-message` fires), so each is tried a few times; one
   * that never comes is left out and logged, rather than holding every later message back.
   */
  private async attachments(m: BbMessage): Promise<InboundAttachment[]> {
    const found: InboundAttachment[] = [];
    for (const a of m.attachments) {
      for (let attempt = 1; attempt <= ATTACHMENT_ATTEMPTS; attempt++) {
        if (attempt > 1) await sleep(ATTACHMENT_RETRY_MS);
        try {
          found.push(await this.attachment(a.guid, a.transferName, a.mimeType));
          break;
        } catch (error) {
          if (attempt === ATTACHMENT_ATTEMPTS) this.log.warn({ err: error, messageGuid: m.guid, attachmentGuid: a.guid }, 'an attachment could not be downloaded; the message is reported without it');
        }
      }
    }
    return found;
  }

  private async attachment(guid: string, fileName: string, mimeType: string | null): Promise<InboundAttachment> {
    const { bytes, mimeType: served } = await this.api.download(guid);
    const attachmentId = guid.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 128);
    return { attachmentId, fileName: fileName || guid, mimeType: mimeType ?? served, bytes };
  }
}
