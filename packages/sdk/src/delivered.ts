import type { Clock } from './clock.ts';
import { CommandFailedError } from './errors.ts';
import type { EventsOptions } from './events.ts';
import type { Command, Conversation, EventPage, Message, MessageFailure, MessageStateEventType, OptInEvent, OptInEventType, RequestOptions, StreamItem } from './types.ts';

export interface DeliveredOptions {
  /**
   * The state to wait for: `'delivered'` (the default; a message already read counts) or
   * `'read'`. Direct conversations only send read receipts: in a group the wait for `'read'`
   * answers as soon as the message is delivered, with `reached: false` and `timedOut: false`.
   */
  until?: 'delivered' | 'read' | undefined;
  /** Stop waiting after this long and answer the state reached so far (`timedOut: true`); nothing is thrown. Default 60 s. */
  timeoutMs?: number | undefined;
  /** Aborting rejects with the signal's reason, as `settled()` does. */
  signal?: AbortSignal | undefined;
  /**
   * A stream cursor from before the command was sent, or `'now'`. With it, the command is read
   * once and then the stream (with `include: ['message.delivered', 'message.read',
   * 'message.failed']`) says when to read it again; without it, GET /v1/commands/{id} is polled
   * (100 ms, doubling to 2 s). The stream holds one of the key's five connections for the wait.
   */
  after?: string | undefined;
}

/**
 * How far a sent message got: `queued` (the command has not settled: nothing sent yet), `sent`
 * (the platform took it), `delivered`, `read`, or `failed` (it never left the device, after the
 * platform took it; its command stays `succeeded`).
 */
export type DeliveryState = 'queued' | 'sent' | 'delivered' | 'read' | 'failed';

interface DeliveryFlags {
  commandId: string;
  /** Whether the state waited for (`until`) was reached; a message read counts as delivered. */
  reached: boolean;
  /**
   * True when the time ran out first: the message may still move on, so read it again later
   * (`getCommand(commandId).message`) rather than send it again. False when the wait ended
   * because the state is reached or is as far as the message will get.
   */
  timedOut: boolean;
}

/**
 * What `delivered()` answers, discriminated by `state`: the furthest state the message reached
 * before the wait ended, and the message as the service holds it (`message` is null only before
 * the platform confirmed the send, or from a service that does not report messages).
 */
export type Delivery = DeliveryFlags &
  (
    | { state: 'queued'; message: null }
    | { state: 'sent'; message: Message | null }
    | { state: 'delivered' | 'read'; message: Message }
    | { state: 'failed'; message: Message & { failedAt: string; failure: MessageFailure } }
  );

/** What waiting for a delivery reads of the client: the command, its conversation, the stream. */
export interface DeliveryReader {
  getCommand(commandId: string, options: RequestOptions): Promise<Command>;
  getConversation(conversationId: string, options: RequestOptions): Promise<Conversation>;
  eventPage(query: { after?: string | undefined; limit?: number | undefined }, options: RequestOptions): Promise<EventPage>;
  events<const I extends OptInEventType>(options: EventsOptions<I> & { include: readonly I[] }): AsyncIterable<StreamItem | OptInEvent<I>>;
}

/** The command types whose command sends a message (and so has a `message`). */
const SENDS_MESSAGE = new Set(['message.send', 'group.create']);
const RANK: Record<DeliveryState, number> = { queued: 0, sent: 1, delivered: 2, read: 3, failed: 4 };

function stateOf(message: Message | null, settled: boolean): DeliveryState {
  if (!settled) return 'queued';
  if (!message) return 'sent';
  if (message.failedAt !== null) return 'failed';
  if (message.readAt !== null) return 'read';
  return message.deliveredAt !== null ? 'delivered' : 'sent';
}

/** The wait's view of the command and its message, from reads and (with `after`) events. */
class Progress {
  settled = false;
  message: Message | null = null;
  group: boolean | undefined;
  private readonly commandId: string;
  private readonly until: 'delivered' | 'read';

  constructor(commandId: string, until: 'delivered' | 'read') {
    this.commandId = commandId;
    this.until = until;
  }

  get state(): DeliveryState {
    return stateOf(this.message, this.settled);
  }

  /** Takes a read of the command; throws when it sends no message or settled `failed`. */
  read(command: Command): void {
    if (!SENDS_MESSAGE.has(command.type)) throw new TypeError(`command ${this.commandId} is a ${command.type}, which sends no message: await settled() instead`);
    if (command.status === 'failed') throw new CommandFailedError(this.commandId, command.errorCode!, command.errorMessage, command.errorPath);
    this.settled ||= command.status === 'succeeded';
    // A read never takes a state back: a read that raced an event keeps what the event said.
    const message = command.message ?? null;
    if (message && (!this.message || RANK[stateOf(message, true)] >= RANK[this.state])) this.message = message;
  }

  /** Takes a state event of the message onto the message read before it. */
  event(item: OptInEvent<MessageStateEventType>): void {
    const m = this.message;
    if (!m) return;
    if (item.type === 'message.delivered') this.message = { ...m, deliveredAt: m.deliveredAt ?? item.data.deliveredAt };
    else if (item.type === 'message.read') this.message = { ...m, readAt: m.readAt ?? item.data.readAt };
    else if (m.failedAt === null) this.message = { ...m, failedAt: item.data.failedAt, failure: { reason: item.data.reason, platformMessage: item.data.platformMessage } };
  }

  /** Whether the wait is over: the state reached, or one the message will not move on from. */
  async done(conversationOf: (conversationId: string) => Promise<Conversation>): Promise<boolean> {
    const { state } = this;
    if (state === 'failed' || state === 'read' || (state === 'delivered' && this.until === 'delivered')) return true;
    if (state !== 'delivered') return false;
    // Waiting for `read` in a group would wait out the timeout: iMessage keeps no read receipts there.
    this.group ??= (await conversationOf(this.message!.conversationId)).kind === 'group';
    return this.group;
  }

  result(timedOut: boolean): Delivery {
    const { state } = this;
    const reached = state === this.until || (state === 'read' && this.until === 'delivered');
    return { commandId: this.commandId, state, reached, timedOut, message: this.message } as Delivery;
  }
}

async function poll(client: DeliveryReader, clock: Clock, progress: Progress, commandId: string, signal: AbortSignal): Promise<void> {
  const conversationOf = (id: string) => client.getConversation(id, { signal });
  for (let interval = 100; ; interval = Math.min(2_000, interval * 2)) {
    progress.read(await client.getCommand(commandId, { signal }));
    if (await progress.done(conversationOf)) return;
    await clock.sleep(interval, signal);
  }
}

async function watch(client: DeliveryReader, progress: Progress, commandId: string, after: string, signal: AbortSignal): Promise<void> {
  const conversationOf = (id: string) => client.getConversation(id, { signal });
  // The head first, then the command: a state reached after the read has an event past the head.
  if (after === 'now') after = (await client.eventPage({ after: 'now', limit: 1 }, { signal })).nextAfter;
  progress.read(await client.getCommand(commandId, { signal }));
  if (await progress.done(conversationOf)) return;
  for await (const item of client.events({ after, include: ['message.delivered', 'message.read', 'message.failed'], signal })) {
    if (item.type === 'reset' || (item.data as { commandId?: string | null }).commandId !== commandId) continue;
    if (item.type === 'message.delivered' || item.type === 'message.read' || item.type === 'message.failed') {
      // A state of a message not read yet: read it, then take the event onto it.
      if (!progress.message) progress.read(await client.getCommand(commandId, { signal }));
      progress.event(item);
    } else if ((item.type === 'command.settled' || item.type === 'message.sent') && !(progress.settled && progress.message)) {
      // The settlement or the echo, of a message not read yet.
      progress.read(await client.getCommand(commandId, { signal }));
    } else continue;
    if (await progress.done(conversationOf)) return;
  }
  // The iteration only ends when the signal aborts.
  throw signal.reason;
}

/**
 * Awaits a state of the message `commandId` sent; see SwitchboardClient.delivered. `stop` ends
 * every read and sleep of the wait: the caller aborts it when the wait is over (and links it to
 * the caller's signal), which keeps this lazily loaded module from sharing a chunk with the client.
 */
export async function awaitDelivery(client: DeliveryReader, clock: Clock, commandId: string, options: DeliveredOptions, stop: AbortSignal): Promise<Delivery> {
  const progress = new Progress(commandId, options.until ?? 'delivered');
  const waiting = options.after === undefined ? poll(client, clock, progress, commandId, stop) : watch(client, progress, commandId, options.after, stop);
  return Promise.race([clock.sleep(options.timeoutMs ?? 60_000, stop).then(() => progress.result(true)), waiting.then(() => progress.result(false))]);
}
