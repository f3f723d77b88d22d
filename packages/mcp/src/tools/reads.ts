import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { eventSchemas, schemas } from '@switchboard/contracts';
import { errorCatalog, type StreamEvent } from '@switchboard/sdk';
import type { Context } from '../context.ts';
import { ok, settlementMeaning, toolError } from '../results.ts';
import { inbound, retainedEvents, streamHead } from './stream.ts';
import { toolInput } from './input.ts';
import { timeoutMs, waitBounds } from './wait.ts';

/**
 * The stream answers a cursor it does not hold (older than retention, or past its newest event)
 * with a reset and continues from its oldest event; for an agent waiting for the next message
 * that would replay old ones as new, so the tool says so instead.
 */
function expired(requestedAfter: string, oldestId: string) {
  const { status, retry, description } = errorCatalog.cursor_expired;
  const replay = (BigInt(oldestId) - 1n).toString();
  return toolError({
    error: 'cursor_expired',
    message: `the cursor "${requestedAfter}" is not in the account's log: call again without after to wait from now, or with after "${replay}" to read from the oldest retained event`,
    retry,
    meaning: description,
    status,
  });
}

const readOnly = { readOnlyHint: true, openWorldHint: true } as const;

export function registerReadTools(server: McpServer, ctx: Context): void {
  const { client } = ctx;

  server.registerTool(
    'list_conversations',
    {
      title: 'List conversations',
      description:
        "A page of the account's conversations, newest first: conversationId, kind (direct or group), name, participants. Pass nextCursor as cursor for the next page. A conversation listed here takes message_send.",
      inputSchema: toolInput(schemas.zListConversationsQuery.shape),
      annotations: readOnly,
    },
    (args) => ctx.run('list_conversations', async () => ok({ ...(await client.listConversations(args)) })),
  );

  server.registerTool(
    'list_messages',
    {
      title: "A conversation's messages and their state",
      description: [
        "A page of a conversation's messages, newest first, each with its state: direction (outbound: the account's; inbound: someone else's), text, attachments, commandId (for the account's sends),",
        'sentAt, deliveredAt, readAt (direct conversations only), failedAt and failure {reason, platformMessage} (a message the platform took that never left the device), editedAt and unsentAt.',
        'Use it to see whether a message was delivered or read before sending again: a message sent and not yet delivered is not lost. Pass nextCursor as cursor for the next page.',
        'Kept as long as the stream (7 days by default).',
      ].join(' '),
      inputSchema: toolInput({ conversationId: schemas.zConversationTarget.shape.conversationId, ...schemas.zListMessagesQuery.shape }),
      annotations: readOnly,
    },
    ({ conversationId, ...query }) => ctx.run('list_messages', async () => ok({ ...(await client.listMessages(conversationId, query)) })),
  );

  server.registerTool(
    'recent_messages',
    {
      title: "A conversation's recent messages",
      description: [
        'The newest messages of a conversation, oldest first, read from the response stream (retained 7 days):',
        'inbound ones with their text and sender, outbound ones with what was sent (the command\'s payload) and their commandId.',
        'cursor is the stream\'s newest event: pass it to wait_for_message to wait for what comes next.',
        'Whether a message was delivered, read or failed: list_messages.',
      ].join(' '),
      inputSchema: toolInput({
        conversationId: schemas.zConversationTarget.shape.conversationId,
        limit: z.number().int().min(1).max(100).optional().describe('How many messages (1-100, default 20).'),
      }),
      annotations: readOnly,
    },
    ({ conversationId, limit = 20 }) =>
      ctx.run('recent_messages', async () => {
        const conversation = await client.getConversation(conversationId);
        const found: StreamEvent[] = [];
        let cursor = '0';
        for await (const event of retainedEvents(client)) {
          cursor = event.id;
          if ((event.type === 'message.received' || event.type === 'message.sent') && event.data.conversationId === conversationId) {
            found.push(event);
            if (found.length > limit) found.shift();
          }
        }
        const messages = await Promise.all(
          found.map(async (event) => {
            if (event.type === 'message.received') return inbound(event);
            const { messageExternalId, commandId } = event.data as { messageExternalId: string; commandId: string };
            const command = await client.getCommand(commandId);
            return { eventId: event.id, direction: 'outbound' as const, conversationId, messageExternalId, commandId, payload: command.payload, at: event.time };
          }),
        );
        return ok({ conversation, messages, cursor });
      }),
  );

  server.registerTool(
    'command_status',
    {
      title: "A command's status",
      description:
        'A command\'s current status: queued, held (a line policy holds it: heldBy), succeeded, or failed with its settlement code (errorCode) and the code\'s meaning; for a send, message: what became of the message once the platform took it (sentAt, deliveredAt, readAt, or failedAt with failure), null before. Use it after a send answered "queued" or a wait timed out, before deciding to send again.',
      inputSchema: toolInput({ commandId: schemas.zCommandId }),
      annotations: readOnly,
    },
    ({ commandId }) =>
      ctx.run('command_status', async () => {
        const command = await client.getCommand(commandId);
        return ok({ ...command, ...(command.errorCode ? { errorMeaning: settlementMeaning(command.errorCode) } : {}) });
      }),
  );

  server.registerTool(
    'poll_results',
    {
      title: "A poll's votes",
      description: [
        'A poll the account sent, read back: its question, each option with its tally (votes), and each voter with the option they hold now.',
        'pollId is the commandId message_send answered for the poll. It is poll_not_found until the poll is on the platform (its send succeeded), and for a command that was not a poll.',
      ].join(' '),
      inputSchema: toolInput({ pollId: schemas.zCommandId.describe('The commandId of the message_send that sent the poll.') }),
      annotations: readOnly,
    },
    ({ pollId }) => ctx.run('poll_results', async () => ok({ ...(await client.getPoll(pollId)) })),
  );

  server.registerTool(
    'capabilities',
    {
      title: 'Capabilities of the live connector host',
      description:
        "What the account's live connector host declared: its capabilities (which rich kinds message_send may use, which group changes group_update may make) and osMajorVersion (26 means remove_participant stalls and fails). Fails with no_live_connector when no host holds a lease: commands would queue without being executed.",
      annotations: readOnly,
    },
    () => ctx.run('capabilities', async () => ok({ ...(await client.getCapabilities()) })),
  );

  server.registerTool(
    'wait_for_message',
    {
      title: 'Wait for the next inbound message',
      description: [
        'Waits for the next message someone sends to the account after `after` (a cursor: the eventId or cursor of an earlier answer; default: now), optionally only in one conversation.',
        'Answers with the message and its eventId; pass that as `after` next time to hold a conversation without missing or repeating a message.',
        `Answers message: null when nothing arrived within timeoutMs (default ${waitBounds.default} ms), with the cursor to continue from.`,
      ].join(' '),
      inputSchema: toolInput({
        after: eventSchemas.zEventId.optional().describe('Wait for a message after this event id.'),
        conversationId: schemas.zConversationTarget.shape.conversationId.optional().describe('Only a message in this conversation.'),
        timeoutMs,
      }),
      annotations: readOnly,
    },
    ({ after, conversationId, timeoutMs: waitMs = waitBounds.default }, extra) =>
      ctx.run('wait_for_message', async () => {
        let cursor = after ?? (await streamHead(client));
        const stop = AbortSignal.any([AbortSignal.timeout(waitMs), extra.signal]);
        for await (const item of client.events({ after: cursor, signal: stop })) {
          if (item.type === 'reset') return expired(item.data.requestedAfter, item.data.oldestId);
          cursor = item.id;
          if (item.type === 'message.received' && (conversationId === undefined || item.data.conversationId === conversationId)) {
            return ok({ message: inbound(item), cursor });
          }
        }
        return ok({ message: null, cursor, note: `no message within ${waitMs} ms; call again with after: "${cursor}"` });
      }),
  );
}
