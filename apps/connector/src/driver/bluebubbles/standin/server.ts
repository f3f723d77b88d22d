import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { Random } from '../../simulator/random.ts';
import { drawSendFault } from '../../simulator/settings.ts';
import { isUnreachable, SimulatedPlatform, type ConversationState, type PlatformMessage, type SendFault } from '../../simulator/platform.ts';
import type { ActionRef, ConversationRef, FeedEvent, Outcome, OutgoingContent, ScreenEffect, Tapback } from '../../types.ts';
import { EFFECT_ID, REACTIONS, type BbChat, type BbMessage, type BbServerInfo } from '../wire.ts';
import { chatGuidOf, errorCodeOf, platformIdOf, serializeChat, serializeMessage } from './serialize.ts';
import { matchesWhere, type WhereItem } from './where.ts';

/** How the stand-in's Mac behaves; `faults` and the rest may be changed while it runs. */
export interface StandInOptions {
  dbPath: string;
  /** The Switchboard account whose simulated platform backs this Mac. */
  account: string;
  password: string;
  port?: number;
  osVersion?: string;
  serverVersion?: string;
  privateApi?: boolean;
  helperConnected?: boolean;
  /** Probabilities (0 to 1) per send or group change. */
  faults?: Partial<StandInFaults>;
  /** Before Messages takes a send. */
  sendLatencyMs?: number;
  /** After Messages took a send, before its row shows in the database (and BlueBubbles answers). */
  answerDelayMs?: number;
  /**
   * After a send's row shows, before Messages marks it sent (`is_sent`): 0 at once; Infinity
   * never on its own (a test sends it with `markSent`, or fails it on the platform).
   */
  sentDelayMs?: number;
  /** Webhooks are posted into the void, as when the receiver is down: BlueBubbles never retries them. */
  dropWebhooks?: boolean;
  /** How long a send whose message never shows in the database waits before failing (BlueBubbles: 60 s). */
  echoWaitMs?: number;
  /** How long a group change that never shows waits before failing (BlueBubbles: 30 s). */
  updateWaitMs?: number;
  /** How often the platform is read for what other people did. */
  feedPollMs?: number;
  /**
   * How many downloads of each attachment answer 500 "Attachment does not exist in disk!" before
   * it is served, as while Messages has not written the file yet (Infinity: it never is).
   */
  attachmentMisses?: number;
  /** Seeds the fault draws, so a run can be replayed. */
  seed?: number;
}

export interface StandInFaults {
  /** The message lands in the database with a non-zero `error`: Messages refused it. */
  gatewayRejected: number;
  /** The Private API (or AppleScript) call itself fails. */
  sendNotOk: number;
  /** The message is sent but never shows in the database. */
  echoLost: number;
  /** A rename or membership change never shows in the database. */
  groupUpdateUnverified: number;
}

interface Webhook {
  id: number;
  url: string;
  events: string[];
}

class HttpError extends Error {
  readonly status: number;
  readonly body: Record<string, unknown>;
  constructor(status: number, body: Record<string, unknown>) {
    super(String(body.message));
    this.status = status;
    this.body = body;
  }
}

// responses/errors.ts
const badRequest = (error: string) => new HttpError(400, { status: 400, message: "You've made a bad request! Please check your request params & body", error: { type: 'Validation Error', message: error } });
const notFound = (error: string) => new HttpError(404, { status: 404, message: 'The requested resource was not found', error: { type: 'Database Error', message: error } });
const imessageError = (message: string, error: string, data?: unknown) =>
  new HttpError(500, { status: 500, message, error: { type: 'iMessage Error', message: error }, ...(data === undefined ? {} : { data }) });
/** ErrorMiddleware: a plain Error thrown by an interface. */
const serverError = (error: string) => new HttpError(500, { status: 500, message: 'An unhandled error has occurred!', error: { type: 'Server Error', message: error } });
const privateApiError = () => imessageError('Please make sure you have completed the setup for the Private API, and your helper is connected!', 'Private API is not enabled or the helper is not connected!');

const REACTION_NAMES = [...REACTIONS, ...REACTIONS.map((r) => `-${r}`)];
/** api/http/constants.ts webhookEventOptions. */
const WEBHOOK_EVENT_OPTIONS = [
  '*', 'new-message', 'updated-message', 'message-send-error', 'group-name-change', 'group-icon-changed', 'group-icon-removed',
  'participant-removed', 'participant-added', 'participant-left', 'chat-read-status-changed', 'typing-indicator', 'scheduled-message-error',
  'server-update', 'new-server', 'new-findmy-location', 'hello-world', 'incoming-facetime', 'ft-call-status-changed', 'imessage-alias-removed',
  'theme-backup-created', 'theme-backup-updated', 'theme-backup-deleted', 'settings-backup-created', 'settings-backup-updated', 'settings-backup-deleted',
];
const EFFECT_BY_ID = new Map(Object.entries(EFFECT_ID).map(([effect, id]) => [id, effect as ScreenEffect]));

/**
 * A local stand-in for BlueBubbles Server: its HTTP API (paths, bodies, envelope, error
 * statuses) and its webhooks, backed by the simulated platform so sends, echoes, inbound
 * messages and group changes are real events. Every deviation is listed in FIDELITY.md.
 */
export class BlueBubblesStandIn {
  readonly platform: SimulatedPlatform;
  readonly options: Required<Omit<StandInOptions, 'faults' | 'port' | 'seed'>> & { faults: StandInFaults };
  private readonly random: Random;
  private readonly server: Server;
  private readonly port: number;
  /** Registered with POST /api/v1/webhook. */
  readonly webhooks: Webhook[] = [];
  /** HttpService.sendCache: tempGuids of sends in flight. */
  private readonly sendCache = new Set<string>();
  private nextWebhookId = 1;
  private feedTimer: NodeJS.Timeout | null = null;
  /** Every webhook posted (or dropped), for tests that check what BlueBubbles sent. */
  readonly delivered: Array<{ url: string; body: unknown }> = [];

  /** Downloads answered as not on disk yet, per attachment (`attachmentMisses`). */
  private readonly downloadMisses = new Map<string, number>();
  /** The account's messages Messages has not sent yet (`is_sent` 0), from `sentDelayMs`. */
  private readonly unsent = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(options: StandInOptions) {
    this.options = {
      dbPath: options.dbPath,
      account: options.account,
      password: options.password,
      osVersion: options.osVersion ?? '15.5',
      serverVersion: options.serverVersion ?? '1.9.9',
      privateApi: options.privateApi ?? true,
      helperConnected: options.helperConnected ?? true,
      faults: { gatewayRejected: 0, sendNotOk: 0, echoLost: 0, groupUpdateUnverified: 0, ...options.faults },
      sendLatencyMs: options.sendLatencyMs ?? 0,
      answerDelayMs: options.answerDelayMs ?? 0,
      sentDelayMs: options.sentDelayMs ?? 0,
      dropWebhooks: options.dropWebhooks ?? false,
      echoWaitMs: options.echoWaitMs ?? 60_000,
      updateWaitMs: options.updateWaitMs ?? 30_000,
      feedPollMs: options.feedPollMs ?? 20,
      attachmentMisses: options.attachmentMisses ?? 0,
    };
    this.port = options.port ?? 0;
    this.random = new Random(options.seed ?? 1);
    this.platform = new SimulatedPlatform(options.dbPath, options.account);
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async start(): Promise<this> {
    // A port in use fails the start (the CLI exits saying so) instead of an unhandled 'error'.
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.port, '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    this.pumpFeed();
    return this;
  }

  async stop(): Promise<void> {
    if (this.feedTimer) clearTimeout(this.feedTimer);
    this.feedTimer = null;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.platform.close();
  }

  /** A send of this tempGuid is in BlueBubbles' send cache. */
  inFlight(tempGuid: string): boolean {
    return this.sendCache.has(tempGuid);
  }

  private get privateApiReady(): boolean {
    return this.options.privateApi && this.options.helperConnected;
  }

  private requirePrivateApi(): void {
    if (!this.privateApiReady) throw privateApiError();
  }

  // HTTP

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    try {
      const raw = await readBody(req);
      let body: Record<string, any> = {};
      let files: Files = {};
      const type = req.headers['content-type'] ?? '';
      if (/^multipart\/form-data/i.test(type)) {
        // koa-body (formidable): the text fields are ctx.request.body, the files ctx.request.files.
        ({ body, files } = await readForm(raw, type));
      } else if (raw.length > 0) {
        try {
          body = JSON.parse(raw.toString('utf8')) as Record<string, any>;
        } catch {
          throw badRequest('Invalid JSON body');
        }
      }
      this.authorize(url);
      const answer = await this.route(req.method ?? 'GET', url, body, res, files);
      if (answer === 'sent') return;
      send(res, 200, { status: 200, message: answer.message, ...(answer.data === undefined ? {} : { data: answer.data }), ...(answer.metadata ? { metadata: answer.metadata } : {}) });
    } catch (error) {
      if (error instanceof HttpError) send(res, error.status, error.body);
      else send(res, 500, { status: 500, message: 'An unhandled error has occurred!', error: { type: 'Server Error', message: String(error) } });
    }
  }

  /** AuthMiddleware: `?password=` (or `guid`, `token`). */
  private authorize(url: URL): void {
    const token = url.searchParams.get('guid') ?? url.searchParams.get('password') ?? url.searchParams.get('token');
    if (!token) throw new HttpError(401, { status: 401, message: 'You are not authorized to access this resource', error: { type: 'Authentication Error', message: 'Missing server password!' } });
    if (token.trim() !== this.options.password.trim()) {
      throw new HttpError(401, { status: 401, message: 'You are not authorized to access this resource', error: { type: 'Authentication Error', message: 'Unauthorized' } });
    }
  }

  private async route(method: string, url: URL, body: Record<string, any>, res: ServerResponse, files: Files): Promise<Answer | 'sent'> {
    const path = url.pathname.replace(/\/+$/, '');
    const q = url.searchParams;
    const m = (pattern: RegExp) => pattern.exec(path);
    let match: RegExpExecArray | null;
    if (method === 'GET' && path === '/api/v1/server/info') return { message: 'Successfully fetched metadata', data: this.info() };
    if (method === 'GET' && path === '/api/v1/ping') return { message: 'Ping received!', data: 'pong' };
    if (method === 'POST' && path === '/api/v1/message/text') return this.sendText(body);
    if (method === 'POST' && path === '/api/v1/message/attachment') return this.sendAttachment(body, files);
    if ((match = m(/^\/api\/v1\/chat\/([^/]+)\/icon$/)) && (method === 'POST' || method === 'GET')) {
      return method === 'POST' ? this.setGroupIcon(decodeURIComponent(match[1]!), files) : this.groupIcon(decodeURIComponent(match[1]!), res);
    }
    if (method === 'POST' && path === '/api/v1/message/react') return this.react(body);
    if (method === 'POST' && path === '/api/v1/message/query') return this.query(body);
    if (method === 'POST' && path === '/api/v1/chat/new') return this.createChat(body);
    if (method === 'GET' && path === '/api/v1/handle/availability/imessage') {
      this.requirePrivateApi();
      const address = q.get('address');
      if (!address) throw badRequest('The address field is required.');
      return { message: 'Success', data: { available: !isUnreachable(address) } };
    }
    if (method === 'GET' && path === '/api/v1/webhook') return { message: 'Successfully fetched webhooks!', data: this.webhooks.filter((w) => !q.get('url') || w.url === q.get('url')) };
    if (method === 'POST' && path === '/api/v1/webhook') return this.addWebhook(body);
    if (method === 'DELETE' && (match = m(/^\/api\/v1\/webhook\/(\d+)$/))) {
      const at = this.webhooks.findIndex((w) => w.id === Number(match![1]));
      if (at < 0) throw notFound('Webhook does not exist!');
      this.webhooks.splice(at, 1);
      return { message: 'Successfully deleted webhook!' };
    }
    if (method === 'GET' && (match = m(/^\/api\/v1\/attachment\/([^/]+)\/download$/))) return this.download(decodeURIComponent(match[1]!), res);
    if (method === 'GET' && (match = m(/^\/api\/v1\/message\/([^/]+)$/))) {
      const found = this.platform.message(decodeURIComponent(match[1]!));
      const withs = withList(q.get('with'));
      const data = found && this.serialize(found, withs.some((w) => w === 'chat' || w === 'chats'), withs.includes('message-summary-info') || withs.includes('messagesummaryinfo'));
      if (!data) throw notFound('Message does not exist!');
      return { message: 'Success', data };
    }
    if ((match = m(/^\/api\/v1\/chat\/([^/]+)(\/.*)?$/))) return this.chatRoute(method, decodeURIComponent(match[1]!), match[2] ?? '', q, body);
    throw new HttpError(404, { status: 404, message: 'Not Found' });
  }

  private async chatRoute(method: string, guid: string, rest: string, q: URLSearchParams, body: Record<string, any>): Promise<Answer> {
    const state = this.platform.conversation(platformIdOf(guid));
    if (!state) throw notFound('Chat does not exist!');
    if (method === 'GET' && rest === '') return { message: 'Successfully fetched chat!', data: serializeChat(state, (q.get('with') ?? '').includes('participants')) };
    if (method === 'GET' && rest === '/message') {
      const sort = q.get('sort') === 'ASC' ? 'ASC' : 'DESC';
      const limit = Number(q.get('limit') ?? 100);
      let list = this.platform.messages(state.externalId).map((m) => this.serialize(m, false)).filter((x): x is BbMessage => x !== null);
      if (sort === 'DESC') list = list.reverse();
      return { message: 'Successfully fetched messages!', data: list.slice(0, limit) };
    }
    if (method === 'PUT' && rest === '') return this.rename(state, body);
    if (method === 'POST' && (rest === '/participant/add' || rest === '/participant/remove')) return this.toggleParticipant(state, body, rest.endsWith('add') ? 'add' : 'remove');
    if (method === 'POST' && rest === '/leave') {
      this.requirePrivateApi();
      const outcome = this.platform.leaveGroup(this.action(), 'bluebubbles', refOf(state));
      if (outcome.result !== 'confirmed') throw serverError(outcome.detail ?? 'Failed to leave chat!');
      return { message: 'Successfully left chat!' };
    }
    if (method === 'POST' && rest === '/share/contact') {
      this.requirePrivateApi();
      const outcome = this.platform.shareNamePhoto(this.action(), 'bluebubbles', refOf(state));
      if (outcome.result !== 'confirmed') throw serverError(outcome.detail ?? 'Failed to share contact info!');
      return { message: 'Successfully shared contact info!' };
    }
    throw new HttpError(404, { status: 404, message: 'Not Found' });
  }

  private info(): BbServerInfo & Record<string, unknown> {
    return {
      computer_id: 'switchboard-stand-in',
      os_version: this.options.osVersion,
      server_version: this.options.serverVersion,
      private_api: this.options.privateApi,
      proxy_service: 'lan-url',
      helper_connected: this.options.privateApi && this.options.helperConnected,
      detected_icloud: 'stand-in@icloud.com',
      detected_imessage: 'stand-in@icloud.com',
      macos_time_sync: null,
      local_ipv4s: ['127.0.0.1'],
      local_ipv6s: [],
    };
  }

  /** A fresh platform action per call: BlueBubbles itself keeps no idempotency key beyond its send cache. */
  private action(tempGuid?: string): ActionRef {
    return { commandId: tempGuid ?? randomUUID(), logicalActionId: `bb-${randomUUID()}` };
  }

  private serialize(m: PlatformMessage, withChat: boolean, summary = false): BbMessage | null {
    const ids = (m.body.attachmentIds as string[] | undefined) ?? [];
    const attachments = ids.map((id) => {
      const a = this.platform.attachment(id);
      return { guid: id, mimeType: a.mimeType, transferName: a.fileName, totalBytes: a.bytes.length };
    });
    const state = withChat ? this.platform.conversation(m.conversationExternalId) : null;
    return serializeMessage(m, attachments, state ? serializeChat(state, true) : undefined, errorCodeOf(m), summary);
  }

  /** The columns a `where` of the message query may name, as the Messages database holds them. */
  private columns(m: PlatformMessage): Record<string, string | number | null> {
    const out = m.direction === 'out';
    return {
      guid: m.externalId,
      is_from_me: out ? 1 : 0,
      // A failed message never left the Mac.
      is_sent: out && m.failedAt === null && !this.unsent.has(m.externalId) ? 1 : 0,
      is_delivered: m.deliveredAt !== null || !out ? 1 : 0,
      error: errorCodeOf(m),
      date_edited: m.unsentAt ?? m.editedAt ?? 0,
      date_retracted: 0,
    };
  }

  private later(ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    this.timers.add(timer);
  }

  /**
   * Messages hands the account's message to Apple (`is_sent` 1), for a send made with
   * `sentDelayMs` Infinity. No webhook: IMessagePoller's message state has no is_sent, so
   * MessagePoller posts nothing for it. Deliveries, reads, failures, tapbacks, edits and unsends
   * are the platform's (`platform.changeMessage`), posted as BlueBubbles posts them (`announce`).
   */
  markSent(guid: string): void {
    this.unsent.delete(guid);
  }

  /** MessageRouter.sendText with MessageValidator.validateText in front of it. */
  private async sendText(body: Record<string, any>): Promise<Answer> {
    const { chatGuid, tempGuid, message, effectId, subject, selectedMessageGuid } = body;
    if (typeof chatGuid !== 'string' || chatGuid === '') throw badRequest('The chatGuid field is required.');
    if (body.method !== undefined && !['apple-script', 'private-api'].includes(body.method)) throw badRequest('The selected method is invalid.');
    let method: string = body.method ?? 'apple-script';
    if (effectId || subject || selectedMessageGuid) method = 'private-api';
    if (method === 'apple-script' && !tempGuid) throw badRequest("A 'tempGuid' is required when sending via AppleScript");
    if (method === 'apple-script' && !message) throw badRequest("A 'message' is required when sending via AppleScript");
    if (method === 'private-api' && !message && !subject) throw badRequest("A 'message' or 'subject' is required when sending via the Private API");
    if (tempGuid && this.sendCache.has(tempGuid)) throw badRequest(`Message is already queued to be sent! (Temp GUID: ${tempGuid})`);
    if (tempGuid) this.sendCache.add(tempGuid);
    try {
      if (method === 'private-api' && !this.privateApiReady) throw imessageError('Message Send Error', 'Private API is not enabled or the helper is not connected!');
      const state = this.platform.conversation(platformIdOf(chatGuid));
      if (!state) throw imessageError('Message Send Error', `Failed to send message! Chat not found: ${chatGuid}`);
      const effect = effectId ? EFFECT_BY_ID.get(effectId) : undefined;
      const content: OutgoingContent = method === 'private-api'
        ? { kind: 'rich_text', text: message, ...(subject ? { subject } : {}), ...(effect ? { effect } : {}), ...(selectedMessageGuid ? { replyToMessageExternalId: selectedMessageGuid } : {}) }
        : { kind: 'text', text: message };
      const sent = await this.deliver(tempGuid, (action, fault) => this.platform.send(action, 'bluebubbles', refOf(state), content, fault));
      return { message: 'Message sent!', data: sent };
    } finally {
      if (tempGuid) this.sendCache.delete(tempGuid);
    }
  }

  /**
   * Puts a send on the platform after the send latency, then answers as BlueBubbles does: the
   * message from the database once it shows (with the tempGuid injected, and the same as a
   * new-message webhook), or the error it gives up with.
   */
  private async deliver(tempGuid: string | undefined, act: (action: ActionRef, fault: SendFault) => Outcome, what: 'message' | 'attachment' = 'message'): Promise<BbMessage> {
    // MessageRouter.sendAttachment's wording; only sendText injects the tempGuid into its answer.
    const label = what === 'attachment' ? 'Attachment Send Error' : 'Message Send Error';
    const failedTo = what === 'attachment' ? 'Failed to send attachment!' : 'Failed to send message!';
    if (this.options.sendLatencyMs > 0) await delay(this.options.sendLatencyMs);
    const fault = drawSendFault(this.random, this.options.faults);
    const outcome = act(this.action(tempGuid), fault);
    const sent = outcome.events.find((e) => e.type === 'message.sent');
    if (outcome.result === 'confirmed' && sent && sent.type === 'message.sent') {
      const guid = sent.messageExternalId;
      if (this.options.sentDelayMs > 0) {
        this.unsent.add(guid);
        if (Number.isFinite(this.options.sentDelayMs)) this.later(this.options.sentDelayMs, () => this.markSent(guid));
      }
      if (this.options.answerDelayMs > 0) await delay(this.options.answerDelayMs);
      const data = this.serialize(this.platform.message(sent.messageExternalId)!, true)!;
      // Server.emitMessageMatch: the echo, as a new-message event carrying the tempGuid.
      this.dispatch('new-message', tempGuid ? { ...data, tempGuid } : data);
      if (tempGuid && what === 'message') data.tempGuid = tempGuid;
      return data;
    }
    if (outcome.result === 'accepted_no_echo') {
      await delay(this.options.echoWaitMs);
      // sendAttachmentPrivateApi's wait; AppleScript's MessagePromise rejects after 20 minutes instead ("See attached message error code", no row).
      throw imessageError(label, `${failedTo} ${what === 'attachment' ? 'Attachment' : 'Message'} not found in database after ${this.options.echoWaitMs / 1000} seconds!`);
    }
    if (outcome.result === 'gateway_rejected') {
      // The row Messages writes for a refused send: error 22, never delivered.
      const failed = { guid: randomUUID().toUpperCase(), tempGuid, text: null, error: 22, isFromMe: true, dateCreated: Date.now() };
      this.dispatch('message-send-error', failed);
      throw imessageError(label, `${failedTo} See attached message error code.`, failed);
    }
    throw imessageError(label, outcome.result === 'send_not_ok' ? failedTo : (outcome.detail ?? failedTo));
  }

  /**
   * MessageRouter.sendAttachment with MessageValidator.validateAttachment in front of it: a
   * multipart form with the file as `attachment` and its name (the one the recipient sees) as
   * `name`. The answer is the row, without the tempGuid (only sendText injects it); the echo
   * webhook carries it (MessagePromise.emitMessageMatch).
   */
  private async sendAttachment(body: Record<string, any>, files: Files): Promise<Answer> {
    const { chatGuid, tempGuid, name, effectId, subject, selectedMessageGuid } = body;
    if (typeof chatGuid !== 'string' || chatGuid === '') throw badRequest('The chatGuid field is required.');
    if (body.method !== undefined && !['apple-script', 'private-api'].includes(body.method)) throw badRequest('The selected method is invalid.');
    if (typeof name !== 'string' || name === '') throw badRequest('The name field is required.');
    let method: string = body.method ?? 'apple-script';
    if (effectId || subject || selectedMessageGuid || body.attributedBody) method = 'private-api';
    if (method === 'apple-script' && !tempGuid) throw badRequest("A 'tempGuid' is required when sending via AppleScript");
    if (tempGuid && this.sendCache.has(tempGuid)) throw badRequest('Attachment is already queued to be sent!');
    const file = files.attachment;
    if (!file || file.size === 0) throw badRequest('Attachment not provided or was empty!');
    if (tempGuid) this.sendCache.add(tempGuid);
    try {
      // checkPrivateApiStatus's Error, caught by sendAttachment.
      if (method === 'private-api' && !this.privateApiReady) throw imessageError('Attachment Send Error', this.options.privateApi ? 'iMessage Private API Helper is not connected!' : 'iMessage Private API is not enabled!');
      const state = this.platform.conversation(platformIdOf(chatGuid));
      if (!state) throw imessageError('Attachment Send Error', `Failed to send attachment! Chat not found: ${chatGuid}`);
      // FileSystem.copyAttachment names the copy Messages sends after `name`: its transferName.
      const media = { fileName: name, mimeType: file.type || 'application/octet-stream', bytes: new Uint8Array(await file.arrayBuffer()) };
      const sent = await this.deliver(tempGuid, (action, fault) => this.platform.send(action, 'bluebubbles', refOf(state), { kind: 'attachment', media }, fault), 'attachment');
      return { message: 'Attachment sent!', data: sent };
    } finally {
      if (tempGuid) this.sendCache.delete(tempGuid);
    }
  }

  /**
   * ChatRouter.setGroupChatIcon (PrivateApiMiddleware, ChatValidator.validateGroupChatIcon,
   * ChatInterface.setGroupChatIcon): a multipart form with the image as `icon`. BlueBubbles
   * answers once the helper took it, with no data; the chat's `properties` then name the photo.
   */
  private async setGroupIcon(guid: string, files: Files): Promise<Answer> {
    this.requirePrivateApi();
    const icon = files.icon;
    if (!icon || icon.size === 0) throw badRequest('Icon not provided or was empty!');
    const state = this.platform.conversation(platformIdOf(guid));
    if (!state) throw notFound('Chat does not exist!');
    if (state.participants.length === 1) throw serverError('Chat is not a group chat!');
    if (this.options.sendLatencyMs > 0) await delay(this.options.sendLatencyMs);
    const unverified = this.random.chance(this.options.faults.groupUpdateUnverified) ? 'unverified' : 'none';
    const photo = { fileName: `${state.externalId.split(';').at(-1)}-${icon.name || 'icon'}`, mimeType: icon.type || 'application/octet-stream', bytes: new Uint8Array(await icon.arrayBuffer()) };
    const outcome = this.platform.setGroupPhoto(this.action(), 'bluebubbles', refOf(state), photo, unverified);
    if (outcome.result !== 'confirmed') {
      // The helper never answers: the TransactionPromise rejects with a string after its wait.
      await delay(this.options.updateWaitMs);
      throw serverError('Transaction timeout');
    }
    const after = this.platform.conversation(state.externalId)!;
    this.dispatchChange(after, 'group-icon-changed', { itemType: 3, groupActionType: 1 });
    return { message: 'Successfully set group chat icon!' };
  }

  /** ChatRouter.getGroupIcon: the file the chat's `groupPhotoGuid` names. */
  private groupIcon(guid: string, res: ServerResponse): 'sent' {
    const state = this.platform.conversation(platformIdOf(guid));
    if (!state) throw notFound('Chat does not exist!');
    if (!state.photoAttachmentId) throw new HttpError(404, { status: 404, message: 'The requested resource was not found', error: { type: 'Database Error', message: 'Unable to find icon for the selected chat' } });
    const icon = this.platform.attachment(state.photoAttachmentId);
    res.writeHead(200, { 'content-type': icon.mimeType, 'content-length': icon.bytes.length });
    res.end(icon.bytes);
    return 'sent';
  }

  /** MessageRouter.react. */
  private async react(body: Record<string, any>): Promise<Answer> {
    this.requirePrivateApi();
    const { chatGuid, selectedMessageGuid, reaction } = body;
    if (typeof chatGuid !== 'string' || !chatGuid) throw badRequest('The chatGuid field is required.');
    if (typeof selectedMessageGuid !== 'string' || !selectedMessageGuid) throw badRequest('The selectedMessageGuid field is required.');
    if (!REACTION_NAMES.includes(reaction)) throw badRequest('The selected reaction is invalid.');
    const target = this.platform.message(selectedMessageGuid);
    if (!target) throw badRequest('Selected message does not exist!');
    const state = this.platform.conversation(platformIdOf(chatGuid));
    if (!state) throw imessageError('Reaction Send Error', `Chat not found: ${chatGuid}`);
    const remove = (reaction as string).startsWith('-');
    const tapback = (remove ? reaction.slice(1) : reaction) as Tapback;
    if (this.options.sendLatencyMs > 0) await delay(this.options.sendLatencyMs);
    const outcome = this.platform.tapback(this.action(), 'bluebubbles', refOf(state), selectedMessageGuid, tapback, remove);
    if (outcome.result !== 'confirmed') throw imessageError('Reaction Send Error', outcome.detail ?? 'Failed to send reaction!');
    const mine = this.platform.messages(state.externalId).filter((m) => m.kind === 'tapback' && m.associatedMessage === selectedMessageGuid).at(-1)!;
    const data = this.serialize(mine, true)!;
    this.dispatch('new-message', data);
    return { message: 'Reaction sent!', data };
  }

  /**
   * MessageRouter.query: `after`/`before` are dateCreated in ms; `sort` defaults to DESC; each
   * `where` statement is ANDed (MessageRepository.getMessages), here for the columns `columns`
   * names (where.ts).
   */
  private query(body: Record<string, any>): Answer {
    const limit = Number(body.limit ?? 100);
    const offset = Number(body.offset ?? 0);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw badRequest('The limit must be between 1 and 1000.');
    if (body.where !== undefined && (!Array.isArray(body.where) || body.where.some((w: any) => typeof w?.statement !== 'string' || !('args' in w)))) {
      throw badRequest('The where.0.statement field is required.');
    }
    const withs = Array.isArray(body.with) ? (body.with as unknown[]).filter((w): w is string => typeof w === 'string').map((w) => w.trim().toLowerCase()) : [];
    const withChats = withs.some((w) => ['chat', 'chats', 'chat.participants', 'chats.participants'].includes(w));
    const summary = withs.some((w) => ['messagesummaryinfo', 'message-summary-info'].includes(w));
    const chatId = typeof body.chatGuid === 'string' ? platformIdOf(body.chatGuid) : null;
    if (chatId && !this.platform.conversation(chatId)) return { message: `No chat found with GUID: ${body.chatGuid}`, data: [] };
    const after = body.after === undefined ? 0 : Number(body.after) + 1;
    const before = body.before === undefined ? Infinity : Number(body.before);
    const where = (body.where ?? []) as WhereItem[];
    // getMessages binds the chat as `chat.guid = :guid`; TypeORM keeps one value per parameter
    // name, so a `where` that names its own `:guid` replaces the chat's.
    const chatParam = where.reduce<unknown>((value, w) => (w.args && 'guid' in w.args ? w.args.guid : value), body.chatGuid);
    const chatFilter = chatId && typeof chatParam === 'string' ? platformIdOf(chatParam) : chatId;
    let rows = this.platform.messagesSince(after, 100_000).filter((m) => m.at < before && (!chatFilter || m.conversationExternalId === chatFilter));
    try {
      rows = rows.filter((m) => where.every((w) => matchesWhere(w, this.columns(m))));
    } catch (error) {
      // SQLite's error for a statement it cannot run, through ErrorMiddleware.
      throw serverError(String((error as Error).message));
    }
    if (body.sort !== 'ASC') rows = rows.reverse();
    const data = rows.map((m) => this.serialize(m, withChats, summary)).filter((x): x is BbMessage => x !== null);
    const page = data.slice(offset, offset + limit);
    return { message: 'Successfully fetched messages!', data: page, metadata: { offset, limit, total: data.length, count: page.length } };
  }

  /** ChatRouter.create (ChatInterface.create). */
  private async createChat(body: Record<string, any>): Promise<Answer> {
    const { addresses, message, tempGuid } = body;
    if (!Array.isArray(addresses)) throw badRequest('The addresses field is required.');
    const method = body.method ?? 'apple-script';
    if (addresses.length === 0) throw serverError('No addresses provided!');
    if (method === 'apple-script' && addresses.length > 1) throw serverError('Cannot create group chats on macOS Big Sur or newer!');
    if (!message) throw serverError('A message is required when creating chats on macOS Big Sur or newer!');
    if (method === 'private-api' && !this.privateApiReady) throw serverError('Private API is not enabled or the helper is not connected!');
    let chatId: string | null = null;
    let unreachable = false;
    let unseen = false;
    const sent = await this.deliver(tempGuid, (action, fault) => {
      const outcome = addresses.length === 1
        ? this.platform.sendToRecipient(action, 'bluebubbles', addresses[0], message, fault)
        : this.platform.createGroup(action, 'bluebubbles', addresses, message, null, fault);
      const appeared = outcome.events.find((e) => e.type === 'conversation.appeared');
      if (appeared && appeared.type === 'conversation.appeared') chatId = appeared.externalId;
      unreachable = outcome.result === 'invalid_target';
      unseen = outcome.result === 'accepted_no_echo';
      return outcome;
    }).catch((error: unknown) => {
      // An address iMessage cannot reach: Messages writes the send's row with an error, as for
      // any refused send (ChatRouter.create's "Failed to create chat!" is a send that went out
      // with no chat seen after it).
      if (unreachable) {
        const failed = { guid: randomUUID().toUpperCase(), tempGuid, text: null, error: 22, isFromMe: true, dateCreated: Date.now() };
        throw imessageError('Message Send Error', 'Failed to send message! See attached message error code.', failed);
      }
      // Sent, and never seen: ChatInterface.createWithPrivateApi's wait for the message, or the
      // AppleScript send's wait for its chat (ChatRouter.create).
      if (unseen && method === 'private-api') throw serverError(`Failed to create new chat! Message not found after ${this.options.echoWaitMs / 1000} seconds!`);
      if (unseen) throw imessageError('iMessage has encountered an error', 'Failed to create chat!');
      throw error;
    });
    const state = this.platform.conversation(chatId!)!;
    return { message: 'Successfully created chat!', data: { ...serializeChat(state, true), messages: [sent] } };
  }

  /** ChatRouter.update (ChatInterface.setDisplayName): waits for the new name to show. */
  private async rename(state: ConversationState, body: Record<string, any>): Promise<Answer> {
    this.requirePrivateApi();
    const { displayName } = body;
    if (displayName !== undefined && (typeof displayName !== 'string' || displayName.length < 1)) throw badRequest('The displayName must be at least 1 characters.');
    if (!displayName) return { message: 'Chat not updated! No update information provided!', data: serializeChat(state, true) };
    if (state.participants.length <= 1) throw imessageError('Cannot rename a non-group chat!', 'Chat is not a group');
    if ((state.name ?? '') === displayName) return { message: 'Successfully updated the following fields: displayName', data: serializeChat(state, true) };
    if (this.options.sendLatencyMs > 0) await delay(this.options.sendLatencyMs);
    const unverified = this.random.chance(this.options.faults.groupUpdateUnverified);
    const outcome = this.platform.renameGroup(this.action(), 'bluebubbles', refOf(state), displayName, unverified ? 'unverified' : 'none');
    if (outcome.result !== 'confirmed') {
      await delay(this.options.updateWaitMs);
      throw imessageError('Chat update executed with errors!', `Failed to set new display name! Operation took longer than ${this.options.updateWaitMs / 1000} seconds!`);
    }
    const after = this.platform.conversation(state.externalId)!;
    this.dispatchChange(after, 'group-name-change', { itemType: 2, groupTitle: displayName });
    // ChatInterface.setDisplayName reads the chat back with withParticipants: false.
    return { message: 'Successfully updated the following fields: displayName', data: serializeChat(after, false) };
  }

  /** ChatRouter.toggleParticipant (ChatInterface.toggleParticipant): waits for the member count to change. */
  private async toggleParticipant(state: ConversationState, body: Record<string, any>, action: 'add' | 'remove'): Promise<Answer> {
    this.requirePrivateApi();
    const { address } = body;
    if (typeof address !== 'string' || !address) throw badRequest('The address field is required.');
    if (state.participants.length === 1) throw serverError('Chat is not a group chat!');
    if (this.options.sendLatencyMs > 0) await delay(this.options.sendLatencyMs);
    const failure = () => serverError(`Failed to ${action} participant to chat! Operation took longer than 5 seconds!`);
    if (action === 'remove' && Number.parseInt(this.options.osVersion, 10) === 26) {
      // Messages on macOS 26 takes the removal and never shows it.
      await delay(this.options.updateWaitMs);
      throw failure();
    }
    const unverified = this.random.chance(this.options.faults.groupUpdateUnverified) ? 'unverified' : 'none';
    const outcome = action === 'add'
      ? this.platform.addParticipant(this.action(), 'bluebubbles', refOf(state), address, unverified)
      : this.platform.removeParticipant(this.action(), 'bluebubbles', refOf(state), address, unverified);
    const changed = outcome.events.some((e) => e.type === 'group.participants_changed');
    if (outcome.result !== 'confirmed' || !changed) {
      // The count never changes (also when it already matched), so BlueBubbles waits and gives up.
      await delay(this.options.updateWaitMs);
      throw failure();
    }
    const after = this.platform.conversation(state.externalId)!;
    this.dispatchChange(after, action === 'add' ? 'participant-added' : 'participant-removed', { itemType: 1, groupActionType: action === 'add' ? 0 : 1, otherHandle: address });
    return { message: 'Success', data: serializeChat(after, true) };
  }

  private addWebhook(body: Record<string, any>): Answer {
    const { url, events } = body;
    if (typeof url !== 'string') throw badRequest('The url field is required.');
    if (!Array.isArray(events)) throw badRequest('The events field is required.');
    if (url.length === 0) throw badRequest('Webhook URL is required!');
    if (!url.startsWith('http')) throw badRequest('Webhook URL must include an HTTP scheme!');
    for (const event of events) {
      if (typeof event !== 'string') throw badRequest('Webhook events must be strings!');
      if (!WEBHOOK_EVENT_OPTIONS.includes(event)) throw badRequest(`Invalid webhook event: ${event}! Webhook must be one of: ${WEBHOOK_EVENT_OPTIONS}`);
    }
    // ServerRepository.addWebhook: a URL registered already is returned as it is.
    const existing = this.webhooks.find((w) => w.url === url);
    if (existing) return { message: 'Successfully created webhook!', data: existing };
    const webhook = { id: this.nextWebhookId++, url, events };
    this.webhooks.push(webhook);
    return { message: 'Successfully created webhook!', data: webhook };
  }

  private download(guid: string, res: ServerResponse): 'sent' {
    let attachment;
    try {
      attachment = this.platform.attachment(guid);
    } catch {
      throw notFound('Attachment does not exist!');
    }
    const misses = this.downloadMisses.get(guid) ?? 0;
    if (misses < this.options.attachmentMisses) {
      this.downloadMisses.set(guid, misses + 1);
      throw serverError('Attachment does not exist in disk!');
    }
    res.writeHead(200, { 'content-type': attachment.mimeType, 'content-length': attachment.bytes.length });
    res.end(attachment.bytes);
    return 'sent';
  }

  // Webhooks

  /** WebhookService.dispatch: one POST per matching webhook, not awaited, not retried. */
  private dispatch(type: string, data: unknown): void {
    for (const webhook of this.webhooks) {
      if (!webhook.events.includes('*') && !webhook.events.includes(type)) continue;
      const body = { type, data };
      this.delivered.push({ url: webhook.url, body });
      if (this.options.dropWebhooks) continue;
      fetch(webhook.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
        .then((r) => r.body?.cancel())
        .catch(() => undefined);
    }
  }

  /** A group event as the Messages database row that carries it. */
  private dispatchChange(state: ConversationState, type: string, fields: Partial<BbMessage>, from: string | null = null): void {
    const chat: BbChat = serializeChat(state, false);
    const data: BbMessage = {
      guid: randomUUID().toUpperCase(), text: null, subject: null, error: 0, dateCreated: Date.now(), isFromMe: from === null,
      handle: from ? { address: from, service: 'iMessage' } : null, itemType: 0, groupTitle: null, groupActionType: 0,
      associatedMessageGuid: null, associatedMessageType: null, expressiveSendStyleId: null, threadOriginatorGuid: null, attachments: [],
      ...fields, chats: [chat],
    };
    this.dispatch(type, data);
  }

  /** What other people did on the platform becomes the webhooks BlueBubbles' database listeners emit. */
  private pumpFeed(): void {
    const tick = () => {
      try {
        const batch = this.platform.readFeed(200);
        for (const event of batch.events) this.announce(event);
        if (batch.events.length > 0) this.platform.ackFeed(batch.through);
      } catch {
        // the file is busy or closing; the next tick reads it again
      }
      this.feedTimer = setTimeout(tick, this.options.feedPollMs);
    };
    this.feedTimer = setTimeout(tick, 0);
  }

  private announce(event: FeedEvent): void {
    switch (event.type) {
      case 'message.received':
      case 'message.reaction': {
        // A tapback is a row of its own: new-message, like any row (Server.handleNewMessage).
        const m = this.platform.message(event.type === 'message.received' ? event.messageExternalId : event.reactionExternalId);
        const data = m && this.serialize(m, true);
        if (data) this.dispatch('new-message', data);
        return;
      }
      case 'message.delivered':
      case 'message.read':
      case 'message.edited':
      case 'message.unsent': {
        // IMessagePoller.getMessageEvent: a newer dateDelivered, dateRead or dateEdited is an
        // update; Server.handleUpdatedMessage posts the row without its chats.
        const m = this.platform.message(event.messageExternalId);
        const data = m && this.serialize(m, false);
        if (data) this.dispatch('updated-message', data);
        return;
      }
      case 'message.failed': {
        // MessagePoller.handlePreviouslyUnsent: a row it saw unsent now has an error; the send
        // was answered long ago, so Server.emitMessageError posts it without a tempGuid, with its
        // chats (no participants).
        const m = this.platform.message(event.messageExternalId);
        const data = m && this.serialize(m, false);
        const state = this.platform.conversation(event.conversationExternalId);
        if (data) this.dispatch('message-send-error', { ...data, ...(state ? { chats: [serializeChat(state, false)] } : {}) });
        return;
      }
      case 'group.renamed':
      case 'group.participants_changed': {
        const state = this.platform.conversation(event.conversationExternalId);
        if (!state) return;
        if (event.type === 'group.renamed') this.dispatchChange(state, 'group-name-change', { itemType: 2, groupTitle: event.name }, state.participants[0] ?? null);
        else {
          for (const address of event.added) this.dispatchChange(state, 'participant-added', { itemType: 1, groupActionType: 0, otherHandle: address }, state.participants[0] ?? null);
          for (const address of event.removed) this.dispatchChange(state, 'participant-removed', { itemType: 1, groupActionType: 1, otherHandle: address }, state.participants[0] ?? null);
        }
        return;
      }
      default:
        return;
    }
  }
}

interface Answer {
  message: string;
  data?: unknown;
  metadata?: Record<string, unknown>;
}

/** parseWithQuery for `?with=a,b`, lowercased as arrayHasOne compares. */
function withList(query: string | null): string[] {
  return (query ?? '').split(',').map((w) => w.trim().toLowerCase()).filter((w) => w.length > 0);
}

function refOf(state: ConversationState): ConversationRef {
  return { externalId: state.externalId, kind: state.kind, participants: state.participants, membershipVersion: state.membershipVersion };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** The files of a multipart form, by field name (formidable's `ctx.request.files`). */
type Files = Record<string, File | undefined>;

/** A multipart/form-data body as koa-body hands it on: text fields, and files by field name (the last of a name wins). */
async function readForm(raw: Buffer, contentType: string): Promise<{ body: Record<string, any>; files: Files }> {
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(raw), { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw badRequest('Invalid multipart body');
  }
  const body: Record<string, any> = {};
  const files: Files = {};
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') body[name] = value;
    else files[name] = value;
  }
  return { body, files };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export { chatGuidOf, platformIdOf };
