import { linkedController, type Clock } from './clock.ts';
import { CommandFailedError, SettlementTimeoutError } from './errors.ts';
import type { EventsOptions } from './events.ts';
import type { Acknowledgement, AgentTurnOptions, RichPayload, SendToConversation, SendToRecipient, StreamItem } from './types.ts';

/** What the recipe uses of the client: two sends and the stream. */
export interface RecipeClient {
  sendMessage(request: SendToRecipient, options?: AgentTurnOptions): Promise<Acknowledgement>;
  sendMessage(request: SendToConversation, options?: AgentTurnOptions): Promise<Acknowledgement>;
  events(options: EventsOptions): AsyncIterable<StreamItem>;
}

export interface NewContact {
  /** The person's address: a phone number or an email address. */
  recipientExternalId: string;
  /** The plain-text first message that starts the conversation. */
  text: string;
}

export interface RichToNewContactOptions extends AgentTurnOptions {
  /** How long to wait for the conversation to appear. Default 60 s. */
  timeoutMs?: number | undefined;
  /**
   * A stream cursor from before this call (e.g. the id of the last event your own loop
   * handled). The conversation is looked for on the stream from there; without it the stream
   * is read from the start of the retained log, which costs a replay on a busy account.
   */
  after?: string | undefined;
}

export interface RichToNewContactResult {
  /** The acknowledgement of the plain-text recipient send (admin path). */
  recipientSend: Acknowledgement;
  conversationId: string;
  /** The acknowledgement of the rich send into the conversation (agent-turn path). */
  richSend: Acknowledgement;
}

/**
 * The conversation the recipient send made: its `conversation.appeared` (matched on
 * `data.commandId`). A contact the account already had a conversation with makes no new one;
 * then the command event's `conversationId` names the existing conversation.
 */
async function conversationOf(client: RecipeClient, clock: Clock, commandId: string, after: string, timeoutMs: number, signal: AbortSignal | undefined): Promise<string> {
  const stop = linkedController(signal);
  const found = (async () => {
    for await (const item of client.events({ after, signal: stop.signal })) {
      if (item.type === 'conversation.appeared' && item.data.commandId === commandId) return item.data.conversationId;
      if (item.type === 'command.settled' && item.data.commandId === commandId) {
        if (item.data.status === 'failed') throw new CommandFailedError(commandId, item.data.errorCode!, item.data.errorMessage ?? null, item.data.errorPath ?? null);
        if (item.data.conversationId) return item.data.conversationId;
      }
    }
    throw stop.signal.reason;
  })();
  try {
    return await Promise.race([
      found,
      clock.sleep(timeoutMs, stop.signal).then(() => {
        throw new SettlementTimeoutError(commandId, 'conversation.appeared', timeoutMs);
      }),
    ]);
  } finally {
    stop.abort();
  }
}

/**
 * The service specification's recipe for rich content to a new contact: a recipient send carries plain text only,
 * so send the text, wait for the conversation to appear on the stream, then send the rich
 * payload into it with a conversation target.
 */
export async function sendRichToNewContact(client: RecipeClient, clock: Clock, contact: NewContact, payload: RichPayload, options: RichToNewContactOptions = {}): Promise<RichToNewContactResult> {
  const { signal, idempotencyKey } = options;
  const after = options.after ?? '0';
  const recipientSend = await client.sendMessage(
    { target: { kind: 'recipient', recipientExternalId: contact.recipientExternalId }, payload: { text: contact.text } },
    signal ? { signal } : {},
  );
  const conversationId = await conversationOf(client, clock, recipientSend.commandId, after, options.timeoutMs ?? 60_000, signal);
  const richSend = await client.sendMessage(
    { target: { kind: 'conversation', conversationId }, payload },
    { ...(signal ? { signal } : {}), ...(idempotencyKey === undefined ? {} : { idempotencyKey }) },
  );
  return { recipientSend, conversationId, richSend };
}
