import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { schemas } from '@switchboard/contracts';
import type { Conversation, RichPayload, SwitchboardClient } from '@switchboard/sdk';
import type { Context } from '../context.ts';
import { ok } from '../results.ts';
import { streamHead } from './stream.ts';
import { toolInput } from './input.ts';
import { messageWaitInput, outcomeOf, timeoutMs, waitBounds } from './wait.ts';

/** How addresses compare: phone numbers without their spacing, email addresses without case. */
function sameAddress(a: string, b: string): boolean {
  const norm = (s: string) => (s.includes('@') ? s.trim().toLowerCase() : s.replace(/[\s().-]/g, ''));
  return norm(a) === norm(b);
}

/** The account's direct conversation with `address`, if it has one. */
async function directWith(client: SwitchboardClient, address: string): Promise<Conversation | undefined> {
  let cursor: string | undefined;
  do {
    const page = await client.listConversations({ limit: 200, ...(cursor ? { cursor } : {}) });
    const found = page.conversations.find((c) => c.kind === 'direct' && c.participants.length === 1 && sameAddress(c.participants[0]!.externalId, address));
    if (found) return found;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return undefined;
}

export function registerRecipeTool(server: McpServer, ctx: Context): void {
  const { client } = ctx;
  server.registerTool(
    'send_rich_to_new_contact',
    {
      title: 'Send rich content to a new contact',
      description: [
        'The way to send rich content (rich_text with an effect or subject, rich_link, poll) to someone the account has no conversation with.',
        'A recipient send carries plain text only, so this sends `text` as plain text first (message.send to the recipient: the admin path), waits for the new conversation to appear on the stream, then sends `payload` into it (the agent-turn path).',
        'If the account already has a direct conversation with the person, the plain-text step is skipped and `payload` goes straight into it, so calling this again after it succeeded does not send the plain text twice; the rich send is idempotent like message_send.',
        'Answers with both commands and the conversationId; wait: "settled" (or true) also waits for the rich send to settle, "delivered" or "read" for its message to be delivered or read (richSend.messageState says how far it got).',
      ].join(' '),
      inputSchema: toolInput({
        recipientExternalId: schemas.zRecipientTarget.shape.recipientExternalId.describe('The person: a phone number (E.164) or an email address.'),
        text: schemas.zRecipientSendPayload.shape.text.describe('The plain-text first message that starts the conversation.'),
        payload: schemas.zRichPayload,
        wait: messageWaitInput.wait.describe(`What to wait for of the rich send before answering. ${messageWaitInput.wait.description}`),
        timeoutMs: timeoutMs.describe(`How long to wait for the conversation to appear, and then for what \`wait\` names, in ms each (${waitBounds.min}-${waitBounds.max}, default ${waitBounds.default}).`),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true, idempotentHint: false },
    },
    (args, extra) =>
      ctx.run('send_rich_to_new_contact', async () => {
        const payload = args.payload as RichPayload;
        const waitMs = args.timeoutMs ?? waitBounds.default;
        // Keyed on the person and the content: a repeat of this call adopts the first rich send.
        const idempotencyKey = ctx.keys.keyOf('send_rich_to_new_contact', { recipientExternalId: args.recipientExternalId, text: args.text, payload });
        const existing = await directWith(client, args.recipientExternalId);
        if (existing) {
          const richSend = await client.sendMessage({ target: { kind: 'conversation', conversationId: existing.conversationId }, payload }, { idempotencyKey });
          return ok({
            conversationId: existing.conversationId,
            recipientSend: null,
            note: 'the account already had a direct conversation with this person: the plain-text step was skipped',
            richSend: { commandId: richSend.commandId, disposition: richSend.disposition, idempotencyKey, ...(await outcomeOf(client, richSend, args.wait, waitMs, extra.signal)) },
          });
        }
        const result = await client.sendRichToNewContact(
          { recipientExternalId: args.recipientExternalId, text: args.text },
          payload,
          { idempotencyKey, timeoutMs: waitMs, after: await streamHead(client) },
        );
        return ok({
          conversationId: result.conversationId,
          recipientSend: { commandId: result.recipientSend.commandId, disposition: result.recipientSend.disposition, routingPath: 'admin', idempotent: false },
          richSend: { commandId: result.richSend.commandId, disposition: result.richSend.disposition, idempotencyKey, ...(await outcomeOf(client, result.richSend, args.wait, waitMs, extra.signal)) },
        });
      }),
  );
}
