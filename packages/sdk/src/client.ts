import createClient from 'openapi-fetch';
import type { paths } from '@switchboard/contracts';
import { isEventId } from '@switchboard/contracts/catalog';
import { linkedController, randomId, systemClock, type Clock } from './clock.ts';
import { streamEvents, type EventsOptions } from './events.ts';
import { call, type Context } from './http.ts';
import { parseCommand } from './parse.ts';
import { sendRichToNewContact, type NewContact, type RichToNewContactOptions, type RichToNewContactResult } from './recipe.ts';
import { defaultRetry, isRetryable, type RetryOptions } from './retry.ts';
import { routingPathOfTarget } from './routing.ts';
import { awaitSettlement, type CommandOutcome, type SettledOptions } from './settled.ts';
import type { Delivery, DeliveredOptions } from './delivered.ts';
import type {
  Acknowledgement,
  AgentTurnOptions,
  Attachment,
  CapabilityReport,
  Command,
  CommandType,
  Conversation,
  ConversationPage,
  EventPage,
  MessagePage,
  OptInEvent,
  OptInEventType,
  Poll,
  GroupCreateRequest,
  GroupLeaveRequest,
  GroupUpdateRequest,
  NamePhotoShareRequest,
  ReactionRequest,
  RequestOptions,
  RichPayload,
  SendToConversation,
  SendToRecipient,
  StreamItem,
  TapbackRequest,
  Transfers,
  WebhookDeliveryPage,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointUpdate,
  WebhookEndpointWithSecret,
} from './types.ts';

export interface ClientOptions {
  /** The service's base URL, e.g. `http://127.0.0.1:7300`. */
  baseUrl: string;
  /** An account API key (`Authorization: Bearer <API_KEY>`). */
  apiKey: string;
  /** Defaults to the global fetch. Called with a Request. */
  fetch?: ((request: Request) => Promise<Response>) | undefined;
  /** Automatic retries; see the README for which failures are retried on which routing path. */
  retry?: RetryOptions | undefined;
  /** Per attempt, until the response headers arrive. Default 30 s. */
  timeoutMs?: number | undefined;
  /** Check payloads locally against the contracts' schemas before sending. Default false. */
  validate?: boolean | undefined;
  /** Time source (tests). */
  clock?: Clock | undefined;
  /** Uniform in [0, 1), for backoff jitter (tests). */
  random?: (() => number) | undefined;
  /** Makes an Idempotency-Key for an agent-turn command sent without one. Default: a random UUID. */
  idempotencyKey?: (() => string) | undefined;
}

/**
 * The Switchboard client. Commands return the acknowledgement (202): the command is queued, not
 * done. Await its outcome with `settled()`, or read it from `events()`.
 */
export class SwitchboardClient {
  readonly #ctx: Context;
  readonly #validate: boolean;
  readonly #newKey: () => string;

  /** Media uploads for `attachment`, `sticker` and `set_photo`, on a server with transfers turned on. */
  readonly transfers: Transfers;

  constructor(options: ClientOptions) {
    const api = createClient<paths>({
      baseUrl: options.baseUrl,
      headers: { Authorization: `Bearer ${options.apiKey}` },
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    this.#ctx = {
      api,
      clock: options.clock ?? systemClock,
      random: options.random ?? Math.random,
      retry: { ...defaultRetry, ...options.retry },
      timeoutMs: options.timeoutMs ?? 30_000,
    };
    this.#validate = options.validate ?? false;
    this.#newKey = options.idempotencyKey ?? randomId;
    // Loaded on first use, like delivered(): a client that never uploads does not download it.
    // `call` and `isRetryable` are handed over, not imported there, so they stay in the main chunk.
    this.transfers = { upload: async (body, options) => (await import('./transfers.ts')).upload({ ...this.#ctx, call, isRetryable }, body, options) };
  }

  async #command(type: CommandType, body: { target: { kind: string } }, options: AgentTurnOptions): Promise<Acknowledgement> {
    if (this.#validate) await parseCommand(type, body);
    const path = routingPathOfTarget(type, body.target);
    // Decided once, before the first attempt, so every retry carries the same key.
    const key = path === 'agent-turn' ? (options.idempotencyKey ?? this.#newKey()) : undefined;
    const { data } = await call(
      this.#ctx,
      path,
      (signal) =>
        // One generic call for the seven endpoints; the public methods carry the precise types.
        this.#ctx.api.POST(`/v1/commands/${type}` as '/v1/commands/message.send', {
          body: body as SendToConversation,
          params: key === undefined ? {} : { header: { 'Idempotency-Key': key } },
          signal,
        }),
      options.signal,
    );
    return data;
  }

  /** message.send to a conversation: the agent-turn path (honours Idempotency-Key, retried safely). */
  sendMessage(request: SendToConversation, options?: AgentTurnOptions): Promise<Acknowledgement>;
  /**
   * message.send to a recipient (a new contact): the admin path. Plain text only; not retried
   * once the service may have acted, because a retry would send the message twice.
   */
  sendMessage(request: SendToRecipient, options?: RequestOptions): Promise<Acknowledgement>;
  sendMessage(request: SendToConversation | SendToRecipient, options: AgentTurnOptions = {}): Promise<Acknowledgement> {
    return this.#command('message.send', request, options);
  }

  /**
   * Any command, its body built at run time (typed `unknown`: a form, a model's output). The body
   * is checked against the command's schema first, whatever `validate` says (`parseCommand`), and
   * sent on the routing path its target implies; an Idempotency-Key is sent only on agent-turn.
   * Rejects with PayloadValidationError, sending nothing, when the body does not match.
   */
  async sendCommand(type: CommandType, body: unknown, options: AgentTurnOptions = {}): Promise<Acknowledgement> {
    return this.#command(type, await parseCommand(type, body), options);
  }

  /** reaction.tapback: react to any message, in a DM or a group (agent-turn). */
  applyTapback(request: TapbackRequest, options: AgentTurnOptions = {}): Promise<Acknowledgement> {
    return this.#command('reaction.tapback', request, options);
  }

  /** reaction.apply: react to the newest incoming message of a DM (agent-turn). */
  applyReaction(request: ReactionRequest, options: AgentTurnOptions = {}): Promise<Acknowledgement> {
    return this.#command('reaction.apply', request, options);
  }

  /** name_photo.share: offer the account's contact card in a DM (agent-turn). */
  shareNamePhoto(request: NamePhotoShareRequest, options: AgentTurnOptions = {}): Promise<Acknowledgement> {
    return this.#command('name_photo.share', request, options);
  }

  /** group.create (admin path: a retry would create a second group). */
  createGroup(request: GroupCreateRequest, options: RequestOptions = {}): Promise<Acknowledgement> {
    return this.#command('group.create', request, options);
  }

  /** group.update: rename, add or remove a participant (admin path). */
  updateGroup(request: GroupUpdateRequest, options: RequestOptions = {}): Promise<Acknowledgement> {
    return this.#command('group.update', request, options);
  }

  /** group.leave (admin path). */
  leaveGroup(request: GroupLeaveRequest, options: RequestOptions = {}): Promise<Acknowledgement> {
    return this.#command('group.leave', request, options);
  }

  /**
   * A command's current status and settlement and, for a send (message.send, group.create's first
   * message), `message`: what became of the message (sent, delivered, read, or failed after it
   * settled), null until the platform confirmed it.
   */
  async getCommand(commandId: string, options: RequestOptions = {}): Promise<Command> {
    const { api } = this.#ctx;
    const { data } = await call(this.#ctx, 'read', (signal) => api.GET('/v1/commands/{commandId}', { params: { path: { commandId } }, signal }), options.signal);
    return data;
  }

  /** A page of the account's conversations, newest first. Pass `nextCursor` as `cursor` for the next. */
  async listConversations(query: { limit?: number | undefined; cursor?: string | undefined } = {}, options: RequestOptions = {}): Promise<ConversationPage> {
    const { api } = this.#ctx;
    const { data } = await call(this.#ctx, 'read', (signal) => api.GET('/v1/conversations', { params: { query }, signal }), options.signal);
    return data;
  }

  /**
   * A page of a conversation's messages, newest first, each with its state (sent, delivered,
   * read, failed and why, edited, unsent). Pass `nextCursor` as `cursor` for the next page.
   * Kept as long as the stream's events (7 days by default).
   */
  async listMessages(conversationId: string, query: { limit?: number | undefined; cursor?: string | undefined } = {}, options: RequestOptions = {}): Promise<MessagePage> {
    const { api } = this.#ctx;
    const { data } = await call(this.#ctx, 'read', (signal) => api.GET('/v1/conversations/{conversationId}/messages', { params: { path: { conversationId }, query }, signal }), options.signal);
    return data;
  }

  async getConversation(conversationId: string, options: RequestOptions = {}): Promise<Conversation> {
    const { api } = this.#ctx;
    const { data } = await call(this.#ctx, 'read', (signal) => api.GET('/v1/conversations/{conversationId}', { params: { path: { conversationId } }, signal }), options.signal);
    return data;
  }

  /** What the account's live connector host declared. `no_live_connector` (503) when none holds a lease. */
  async getCapabilities(options: RequestOptions = {}): Promise<CapabilityReport> {
    const { api } = this.#ctx;
    const { data } = await call(this.#ctx, 'read', (signal) => api.GET('/v1/capabilities', { signal }), options.signal);
    return data;
  }

  /**
   * A poll the account sent: its question, each option's tally and each voter's choice.
   * `pollId` is the commandId of the message.send that sent it; 404 `poll_not_found` until the
   * platform confirmed it sent, and for any id that is not one of the account's polls.
   */
  async getPoll(pollId: string, options: RequestOptions = {}): Promise<Poll> {
    const { api } = this.#ctx;
    const { data } = await call(this.#ctx, 'read', (signal) => api.GET('/v1/polls/{pollId}', { params: { path: { pollId } }, signal }), options.signal);
    return data;
  }

  /** Downloads an inbound attachment (see `message.received` → `data.attachments`). */
  async getAttachment(attachmentId: string, options: RequestOptions = {}): Promise<Attachment> {
    const { api } = this.#ctx;
    const { data, response } = await call(
      this.#ctx,
      'read',
      (signal) => api.GET('/v1/attachments/{attachmentId}', { params: { path: { attachmentId } }, parseAs: 'arrayBuffer', signal }),
      options.signal,
    );
    const disposition = response.headers.get('content-disposition') ?? '';
    const fileName = /filename="([^"]*)"/.exec(disposition)?.[1];
    return { bytes: new Uint8Array(data), mimeType: response.headers.get('content-type') ?? 'application/octet-stream', fileName };
  }

  /**
   * One page of the stream's JSON form: at most `limit` events after `after` (an event id, or
   * `'now'`: no events and the head's cursor as `nextAfter`). For runtimes that cannot hold a
   * connection open; `events()` is the live form.
   */
  async eventPage(query: { after?: string | undefined; limit?: number | undefined } = {}, options: RequestOptions = {}): Promise<EventPage> {
    if (query.after !== undefined && query.after !== 'now' && !isEventId(query.after)) throw new TypeError(`after must be an event id or "now", got "${query.after}"`);
    const { api } = this.#ctx;
    const { data } = await call(
      this.#ctx,
      'read',
      (signal) => api.GET('/v1/events', { params: { query }, headers: { accept: 'application/json' }, signal }),
      options.signal,
    );
    // The OpenAPI document types page items loosely; their shapes are the stream's (AsyncAPI).
    return data as EventPage;
  }

  /**
   * The response stream: every event of the account, in order, each once, across reconnects.
   * `reset` is yielded when the resume point was older than retention.
   *
   * ```ts
   * for await (const event of client.events({ after: savedCursor, signal })) {
   *   if (event.type === 'message.received') ...
   * }
   * ```
   *
   * Opt-in event types arrive only when named in `include` (`{ include: ['poll.voted'] }`),
   * and the yielded type includes exactly those.
   */
  events(options?: EventsOptions): AsyncGenerator<StreamItem, void, undefined>;
  events<const I extends OptInEventType>(options: EventsOptions<I> & { include: readonly I[] }): AsyncGenerator<StreamItem | OptInEvent<I>, void, undefined>;
  events<I extends OptInEventType>(options: EventsOptions<I> = {}): AsyncGenerator<StreamItem | OptInEvent<I>, void, undefined> {
    return streamEvents(this.#ctx, options);
  }

  // Webhook endpoints. Changes are not retried once the service may have acted (like the admin path).

  async listWebhookEndpoints(options: RequestOptions = {}): Promise<WebhookEndpoint[]> {
    const { api } = this.#ctx;
    const { data } = await call(this.#ctx, 'read', (signal) => api.GET('/v1/webhook-endpoints', { signal }), options.signal);
    return data.endpoints;
  }

  /** The answer carries the signing secret, shown this once. */
  async createWebhookEndpoint(request: WebhookEndpointCreate, options: RequestOptions = {}): Promise<WebhookEndpointWithSecret> {
    const { api } = this.#ctx;
    const { data } = await call(this.#ctx, 'admin', (signal) => api.POST('/v1/webhook-endpoints', { body: request, signal }), options.signal);
    return data;
  }

  async getWebhookEndpoint(endpointId: string, options: RequestOptions = {}): Promise<WebhookEndpoint> {
    const { api } = this.#ctx;
    const { data } = await call(this.#ctx, 'read', (signal) => api.GET('/v1/webhook-endpoints/{endpointId}', { params: { path: { endpointId } }, signal }), options.signal);
    return data;
  }

  /** Change the url, description or filter; `enabled: false` disables, `true` enables (resuming at the cursor). */
  async updateWebhookEndpoint(endpointId: string, change: WebhookEndpointUpdate, options: RequestOptions = {}): Promise<WebhookEndpoint> {
    const { api } = this.#ctx;
    const { data } = await call(this.#ctx, 'admin', (signal) => api.PATCH('/v1/webhook-endpoints/{endpointId}', { params: { path: { endpointId } }, body: change, signal }), options.signal);
    return data;
  }

  async deleteWebhookEndpoint(endpointId: string, options: RequestOptions = {}): Promise<void> {
    const { api } = this.#ctx;
    // 204 has no body: stand in `true` so an answer without one is not taken for a broken response.
    await call(this.#ctx, 'admin', (signal) => api.DELETE('/v1/webhook-endpoints/{endpointId}', { params: { path: { endpointId } }, signal })
      .then((r) => ({ ...r, data: r.response.ok ? true : undefined })), options.signal);
  }

  /** A new secret (shown once); the old one keeps signing alongside it for 24 hours. */
  async rotateWebhookSecret(endpointId: string, options: RequestOptions = {}): Promise<WebhookEndpointWithSecret> {
    const { api } = this.#ctx;
    const { data } = await call(this.#ctx, 'admin', (signal) => api.POST('/v1/webhook-endpoints/{endpointId}/rotate-secret', { params: { path: { endpointId } }, signal }), options.signal);
    return data;
  }

  /** The delivery log, newest attempt first. */
  async listWebhookDeliveries(endpointId: string, query: { limit?: number; cursor?: string } = {}, options: RequestOptions = {}): Promise<WebhookDeliveryPage> {
    const { api } = this.#ctx;
    const { data } = await call(this.#ctx, 'read', (signal) => api.GET('/v1/webhook-endpoints/{endpointId}/deliveries', { params: { path: { endpointId }, query }, signal }), options.signal);
    return data;
  }

  /** Re-deliver every event after the stream cursor `after`. */
  async replayWebhookEndpoint(endpointId: string, after: string, options: RequestOptions = {}): Promise<WebhookEndpoint> {
    const { api } = this.#ctx;
    const { data } = await call(this.#ctx, 'admin', (signal) => api.POST('/v1/webhook-endpoints/{endpointId}/replay', { params: { path: { endpointId } }, body: { after }, signal }), options.signal);
    return data;
  }

  /** Appends a `webhook.test` event that only this endpoint receives; returns its event id. */
  async testWebhookEndpoint(endpointId: string, options: RequestOptions = {}): Promise<string> {
    const { api } = this.#ctx;
    const { data } = await call(this.#ctx, 'admin', (signal) => api.POST('/v1/webhook-endpoints/{endpointId}/test', { params: { path: { endpointId } }, signal }), options.signal);
    return data.eventId;
  }

  /**
   * Awaits a command's settlement: `succeeded`, or `failed` with its settlement code. Throws
   * SettlementTimeoutError after `timeoutMs`.
   */
  settled(commandId: string, options: SettledOptions = {}): Promise<CommandOutcome> {
    return awaitSettlement(this, this.#ctx.clock, commandId, options);
  }

  /**
   * Awaits a state of the message a command sent (message.send, or group.create's first
   * message): `until: 'delivered'` (the default) or `'read'`, for at most `timeoutMs` (60 s).
   * Resolves, and never throws for time running out, with the furthest state reached, so code
   * that waits cannot mistake "not yet" for "not sent" and send again:
   *
   * - `state`: `'queued'` (not settled yet), `'sent'`, `'delivered'`, `'read'`, or `'failed'`
   *   (the message never left the device after the platform took it; `message.failure` says
   *   why, and the command stays `succeeded`);
   * - `reached`: whether `until` was reached; `timedOut`: whether time ran out first (the
   *   message may still move on: read it later with `getCommand`, do not send it again);
   * - `message`: the message with its timestamps.
   *
   * A state reached before the call is answered at once (the command is read first). Rejects
   * with `CommandFailedError` when the command settled `failed` (no message was sent: branch on
   * its `errorCode`), with TypeError for a command that sends no message, and with the signal's
   * reason when it aborts. In a group, `until: 'read'` answers at `delivered` (`reached: false`,
   * `timedOut: false`): iMessage keeps no read receipts in groups.
   *
   * ```ts
   * const { state, reached, timedOut } = await client.delivered(ack.commandId, { until: 'read', timeoutMs: 30_000 });
   * ```
   */
  async delivered(commandId: string, options: DeliveredOptions = {}): Promise<Delivery> {
    // Loaded on first use, like the zod schemas: a client that never waits for one does not download it.
    const { awaitDelivery } = await import('./delivered.ts');
    const stop = linkedController(options.signal);
    try {
      return await awaitDelivery(this, this.#ctx.clock, commandId, options, stop.signal);
    } finally {
      stop.abort();
    }
  }

  /**
   * Rich content to someone the account has no conversation with: sends `contact.text` as a
   * recipient send, waits for the conversation to appear on the stream, then sends `payload`
   * into it.
   */
  sendRichToNewContact(contact: NewContact, payload: RichPayload, options: RichToNewContactOptions = {}): Promise<RichToNewContactResult> {
    return sendRichToNewContact(this, this.#ctx.clock, contact, payload, options);
  }
}
