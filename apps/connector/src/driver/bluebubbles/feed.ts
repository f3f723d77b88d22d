import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { ConversationAppeared, FeedEvent, FeedListener, FeedSubscription, InboundAttachment } from '../types.ts';
import type { BlueBubblesApi } from './api.ts';
import type { Chats } from './chats.ts';
import type { Journal } from './journal.ts';
import type { BlueBubblesSettings } from './settings.ts';
import { isLeave, WEBHOOK_EVENTS, type BbMessage, type WebhookBody } from './wire.ts';

const CURSOR = 'inbound';
/** The catch-up reads again this far behind its cursor: rows can land in the database out of date order. */
const OVERLAP_MS = 5_000;
const PAGE = 500;
/** Remembered message guids, so the overlap is not reported (and its attachments uploaded) again. */
const SEEN_MAX = 10_000;
/** Tries of an attachment's download, this far apart, before its message goes without it. */
const ATTACHMENT_ATTEMPTS = 4;
const ATTACHMENT_RETRY_MS = 500;

/** An echo of one of this host's sends: BlueBubbles' new-message event for a message from the Mac that carries the send's tempGuid. */
export type EchoListener = (message: BbMessage) => void;

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
  private readonly seen = new Set<string>();
  private server: Server | null = null;
  private receiver: Promise<void> | null = null;
  /** The live subscription's webhook handler; null between leases. */
  private onWebhook: ((body: WebhookBody) => void) | null = null;

  constructor(api: BlueBubblesApi, chats: Chats, journal: Journal, settings: BlueBubblesSettings, log: Logger, onEcho: EchoListener) {
    this.api = api;
    this.chats = chats;
    this.journal = journal;
    this.settings = settings;
    this.log = log;
    this.onEcho = onEcho;
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
    const found = await this.api.call<Array<{ url: string }>>('GET', '/webhook', { query: { url } });
    if (found.status === 200 && (found.body.data ?? []).some((w) => w.url === url)) return;
    const created = await this.api.call('POST', '/webhook', { body: { url, events: WEBHOOK_EVENTS } });
    if (created.status !== 200) throw new Error(`BlueBubbles did not register the webhook (${created.status} ${created.body.message}); register ${url} for ${WEBHOOK_EVENTS.join(', ')} in its settings`);
    this.log.info({ webhook: url.replace(this.path, '/bluebubbles/webhook/…') }, 'BlueBubbles webhook registered');
  }

  private async fromWebhook(body: WebhookBody, listener: FeedListener): Promise<void> {
    if (!(WEBHOOK_EVENTS as readonly string[]).includes(body.type)) return;
    await this.report([body.data as BbMessage], listener);
  }

  /** Reports what the messages mean; they count as seen only once the listener took them. */
  private async report(messages: BbMessage[], listener: FeedListener): Promise<void> {
    const { events, guids } = await this.eventsOf(messages);
    if (events.length > 0) await listener(events);
    for (const guid of guids) this.remember(guid);
  }

  /** POST /api/v1/message/query from the cursor on, oldest first, page by page. */
  private async catchUp(listener: FeedListener): Promise<void> {
    const cursor = this.journal.cursor(CURSOR);
    let after = cursor === null ? Date.now() - this.settings.catchUpWindowMs : cursor - OVERLAP_MS;
    for (;;) {
      const answer = await this.api.call<BbMessage[]>('POST', '/message/query', {
        body: { after, sort: 'ASC', limit: PAGE, with: ['chat', 'chat.participants', 'attachment'] },
      });
      if (answer.status !== 200) throw new Error(`message query: ${answer.status} ${answer.body.message}`);
      const messages = answer.body.data ?? [];
      await this.report(messages, listener);
      const newest = messages.reduce((max, m) => Math.max(max, m.dateCreated), after);
      // Past the page only once it was reported: a host that dies here leaves it to the next start.
      this.journal.advance(CURSOR, newest);
      if (messages.length < PAGE || newest === after) return;
      after = newest;
    }
  }

  /** Feed events for BlueBubbles messages, each preceded by its conversation (the server ignores a repeat). */
  private async eventsOf(messages: BbMessage[]): Promise<{ events: FeedEvent[]; guids: string[] }> {
    const events: FeedEvent[] = [];
    const guids: string[] = [];
    const announced = new Set<string>();
    for (const m of messages) {
      if (m.isFromMe) {
        // An echo loop stops here: the account's own messages are never inbound.
        if (m.tempGuid) this.onEcho(m);
        continue;
      }
      const chatGuid = m.chats?.[0]?.guid;
      if (!chatGuid || this.seen.has(m.guid)) continue;
      const event = await this.eventOf(m, chatGuid);
      if (!event) continue;
      if (!announced.has(chatGuid)) {
        const appeared = await this.appeared(chatGuid);
        if (!appeared) continue;
        announced.add(chatGuid);
        events.push(appeared);
      }
      events.push(event);
      guids.push(m.guid);
    }
    return { events, guids };
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
    if (m.itemType === 0 && m.associatedMessageType == null) {
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
    // Tapbacks from others, group photo changes and other rows have no stream event.
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
