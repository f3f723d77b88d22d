import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { schemas } from '@switchboard/contracts';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  routingPathOfTarget,
  SwitchboardNetworkError,
  UnexpectedResponseError,
  type Acknowledgement,
  type CommandType,
  type GroupCreateRequest,
  type GroupLeaveRequest,
  type GroupUpdateRequest,
  type NamePhotoShareRequest,
  type ReactionRequest,
  type SendToConversation,
  type SendToRecipient,
  type SwitchboardClient,
  type TapbackRequest,
} from '@switchboard/sdk';
import type { Context } from '../context.ts';
import { ok, toolError } from '../results.ts';
import { toolInput } from './input.ts';
import { messageWaitInput, outcomeOf, waitInput, type Wait } from './wait.ts';

const conversationId = schemas.zConversationTarget.shape.conversationId.describe('The conversation (a UUID from list_conversations, recent_messages or wait_for_message).');

const idempotencyKey = schemas.zIdempotencyKey
  .optional()
  .describe('Optional. Your own Idempotency-Key instead of the one derived from this call (e.g. "reply-" plus the messageExternalId you answer): calls with the same key send once. Reusing a key for a different message returns the first command (disposition "adopted") and the new payload is not sent: use a new key for new content.');

type Target = { kind: 'conversation'; conversationId: string } | { kind: 'recipient'; recipientExternalId: string } | { kind: 'participants'; participantExternalIds: string[] };

interface CommandTool {
  name: string;
  type: CommandType;
  title: string;
  description: (windowMinutes: number) => string;
  /** The target's fields, from the contracts. */
  target: z.ZodRawShape;
  /** The payload, from the contracts. */
  payload: z.ZodType;
  /** The command sends a message, so the tool can also wait for it to be delivered or read. */
  sendsMessage: boolean;
  toTarget(args: Record<string, unknown>): Target;
  send(client: SwitchboardClient, body: { target: Target; payload: unknown }, idempotencyKey: string | undefined): Promise<Acknowledgement>;
}

const inConversation = (args: Record<string, unknown>): Target => ({ kind: 'conversation', conversationId: args.conversationId as string });

const ADMIN_NOTE = 'not idempotent: the admin path ignores Idempotency-Key, so calling this again does it again';
const retryNote = (minutes: number) =>
  `Safe to call again: the call carries an Idempotency-Key derived from this tool call (tool, target, payload) for ${minutes} minutes, so a repeat with the same arguments answers disposition "adopted" with the first command instead of acting twice.`;
const settleNote =
  'An answer of status "queued" means accepted, not done: pass wait: "settled" (or true) to wait (bounded by timeoutMs) for the settlement: succeeded, or failed with a settlement code and its meaning.';
const deliveryNote =
  'A succeeded send means the platform took the message, not that it arrived: wait: "delivered" or "read" answers how far it got (messageState: sent, delivered, read, or failed) by the end of the wait. Sent and not yet delivered is not lost: do not send it again.';

// The casts below name the SDK's request types: the MCP server checked the tool's input against
// the same contracts' schemas before the call.

export const commandTools: CommandTool[] = [
  {
    name: 'message_send',
    type: 'message.send',
    title: 'Send a message into a conversation',
    description: (m) =>
      [
        'Send a message into an existing conversation, direct or group (message.send with a conversation target: the agent-turn path).',
        'payload is plain text {text} with no `kind`, or a rich kind: rich_text {text, subject?, effect?, replyToMessageExternalId?}, rich_link {url}, poll {question, options: 2-12}.',
        'attachment and sticker need a transferId, which exists only on a server with transfers turned on (otherwise they settle failed transfer_unavailable): to send a file, use message_send_file. Poll votes are read back with poll_results (pollId = the commandId of the poll).',
        retryNote(m),
        'To send identical content again on purpose within that window, pass your own idempotencyKey.',
        settleNote,
        deliveryNote,
        'For someone the account has no conversation with: send_rich_to_new_contact (rich content) or message_send_to_new_contact (plain text).',
      ].join(' '),
    target: { conversationId },
    payload: schemas.zMessageSendPayload,
    sendsMessage: true,
    toTarget: inConversation,
    send: (client, body, key) => client.sendMessage(body as SendToConversation, key === undefined ? {} : { idempotencyKey: key }),
  },
  {
    name: 'message_send_to_new_contact',
    type: 'message.send',
    title: 'Send plain text to a new contact',
    description: () =>
      [
        'Start a conversation with someone the account has no conversation with (message.send with a recipient target: the admin path).',
        'PLAIN TEXT ONLY: payload takes text alone, and any other key is refused here, since the service would drop it silently (a rich_text effect would be lost, with no error). For rich content to a new contact use send_rich_to_new_contact.',
        'NOT idempotent: the admin path ignores Idempotency-Key, so calling this again sends a second message. After an error or a timeout, look with list_conversations or recent_messages before calling again.',
        'Once the send settles, the new conversation is listed by list_conversations and can take message_send.',
        settleNote,
        deliveryNote,
      ].join(' '),
    target: { recipientExternalId: schemas.zRecipientTarget.shape.recipientExternalId.describe('The person: a phone number (E.164, e.g. +14155550142) or an email address.') },
    // Strict, unlike the service's schema: a key the service would drop silently is refused.
    payload: z.strictObject(schemas.zRecipientSendPayload.shape),
    sendsMessage: true,
    toTarget: (args) => ({ kind: 'recipient', recipientExternalId: args.recipientExternalId as string }),
    send: (client, body) => client.sendMessage(body as SendToRecipient),
  },
  {
    name: 'reaction_tapback',
    type: 'reaction.tapback',
    title: 'React to a message with a tapback',
    description: (m) =>
      [
        'React with a tapback to any message, in a direct conversation or a group (reaction.tapback: the agent-turn path).',
        'messageExternalId is the message\'s id from recent_messages or wait_for_message; an unknown one settles failed no_message_to_react_to. remove: true takes the tapback back.',
        retryNote(m),
        settleNote,
      ].join(' '),
    target: { conversationId },
    payload: schemas.zReactionTapbackPayload,
    sendsMessage: false,
    toTarget: inConversation,
    send: (client, body, key) => client.applyTapback(body as TapbackRequest, key === undefined ? {} : { idempotencyKey: key }),
  },
  {
    name: 'reaction_apply',
    type: 'reaction.apply',
    title: 'React to the newest incoming message of a DM',
    description: (m) =>
      [
        'React with a tapback to the newest incoming message of a direct conversation (reaction.apply: the agent-turn path).',
        'Aimed at a group it settles failed direct_conversation_required; with no incoming message, no_message_to_react_to. To react to a specific message or in a group, use reaction_tapback.',
        retryNote(m),
        settleNote,
      ].join(' '),
    target: { conversationId },
    payload: schemas.zReactionApplyPayload,
    sendsMessage: false,
    toTarget: inConversation,
    send: (client, body, key) => client.applyReaction(body as ReactionRequest, key === undefined ? {} : { idempotencyKey: key }),
  },
  {
    name: 'name_photo_share',
    type: 'name_photo.share',
    title: "Share the account's contact card",
    description: (m) =>
      [
        "Offer the account's own contact card (name and photo) in a direct conversation (name_photo.share: the agent-turn path). payload is {}.",
        'Aimed at a group it settles failed direct_conversation_required.',
        retryNote(m),
        settleNote,
      ].join(' '),
    target: { conversationId },
    payload: schemas.zNamePhotoSharePayload,
    sendsMessage: false,
    toTarget: inConversation,
    send: (client, body, key) => client.shareNamePhoto(body as NamePhotoShareRequest, key === undefined ? {} : { idempotencyKey: key }),
  },
  {
    name: 'group_create',
    type: 'group.create',
    title: 'Start a group chat',
    description: () =>
      [
        'Start a group chat with participantExternalIds (1-32 phone numbers or email addresses). payload.text is the group\'s first message; payload.name is optional (group.create: the admin path).',
        'NOT safe to retry: the admin path ignores Idempotency-Key, so calling this again creates a second group. After an error or a timeout, look with list_conversations before calling again.',
        'Once it settles, the group is listed by list_conversations.',
        settleNote,
        deliveryNote,
      ].join(' '),
    target: { participantExternalIds: schemas.zParticipantsTarget.shape.participantExternalIds.describe('The members besides the account: phone numbers or email addresses.') },
    payload: schemas.zGroupCreatePayload,
    sendsMessage: true,
    toTarget: (args) => ({ kind: 'participants', participantExternalIds: args.participantExternalIds as string[] }),
    send: (client, body) => client.createGroup(body as GroupCreateRequest),
  },
  {
    name: 'group_update',
    type: 'group.update',
    title: 'Rename a group or change its members',
    description: () =>
      [
        'Change a group conversation (group.update: the admin path). payload.action is rename {name}, add_participant {participantExternalId} or remove_participant {participantExternalId}; set_photo needs a transferId, which exists only on a server with transfers turned on (otherwise it settles transfer_unavailable), and no tool here uploads a group photo: message_send_file sends a file as a message.',
        'Aimed at a direct conversation it fails with group_command_requires_group_conversation.',
        'NOT safe to retry: the admin path ignores Idempotency-Key, so calling this again applies the change again.',
        'After add_participant the group\'s membership changed: commands to it settle failed stale_target until a new message arrives in the group (wait_for_message).',
        'remove_participant may stall on connector hosts at operating system major version 26 and then settle failed (group_update_unverified): see osMajorVersion in capabilities, and do not depend on it.',
        settleNote,
      ].join(' '),
    target: { conversationId: conversationId.describe('The group conversation (a UUID).') },
    payload: schemas.zGroupUpdatePayload,
    sendsMessage: false,
    toTarget: inConversation,
    send: (client, body) => client.updateGroup(body as GroupUpdateRequest),
  },
  {
    name: 'group_leave',
    type: 'group.leave',
    title: 'Leave a group',
    description: () =>
      [
        'Leave a group conversation (group.leave: the admin path). payload is {}.',
        'Not idempotent: the admin path ignores Idempotency-Key; after leaving, commands to the group settle failed invalid_target.',
        settleNote,
      ].join(' '),
    target: { conversationId: conversationId.describe('The group conversation (a UUID).') },
    payload: schemas.zGroupLeavePayload,
    sendsMessage: false,
    toTarget: inConversation,
    send: (client, body) => client.leaveGroup(body as GroupLeaveRequest),
  },
];

/** The input schema of a command tool: its target's fields, the contracts' payload, the wait, and on the agent-turn path the key. */
export function inputOf(tool: CommandTool): z.ZodObject {
  return toolInput({ ...tool.target, payload: tool.payload, ...(tool.sendsMessage ? messageWaitInput : waitInput), ...(isAgentTurn(tool) ? { idempotencyKey } : {}) });
}

/**
 * An admin send, which the service does not deduplicate: when it may have reached the service
 * and its answer was lost, the tool says to look before calling again, not to retry.
 */
async function sendOnce(send: () => Promise<Acknowledgement>): Promise<{ ack: Acknowledgement } | { lost: CallToolResult }> {
  try {
    return { ack: await send() };
  } catch (error) {
    const lost = (error instanceof SwitchboardNetworkError && error.mayHaveReachedServer) || (error instanceof UnexpectedResponseError && error.status >= 500);
    if (!lost) throw error;
    return { lost: toolError({
      error: error instanceof SwitchboardNetworkError ? 'network' : 'unexpected_response',
      message: `${error.message}; the service may have acted on it, and an admin command sent again is done again: look (recent_messages, list_conversations) before calling this again`,
      retry: 'never',
    }) };
  }
}

function isAgentTurn(tool: CommandTool): boolean {
  return routingPathOfTarget(tool.type, tool.toTarget({})) === 'agent-turn';
}

export function registerCommandTools(server: McpServer, ctx: Context, windowMs: number): void {
  const minutes = Math.round(windowMs / 60_000);
  for (const tool of commandTools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description(minutes),
        inputSchema: inputOf(tool),
        annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true, idempotentHint: isAgentTurn(tool) },
      },
      (args: Record<string, unknown>, extra) =>
        ctx.run(tool.name, async () => {
          const target = tool.toTarget(args);
          const body = { target, payload: args.payload };
          const path = routingPathOfTarget(tool.type, target);
          const key = path === 'agent-turn' ? ((args.idempotencyKey as string | undefined) ?? ctx.keys.keyOf(tool.name, body)) : undefined;
          const sent = key === undefined ? await sendOnce(() => tool.send(ctx.client, body, key)) : { ack: await tool.send(ctx.client, body, key) };
          if ('lost' in sent) return sent.lost;
          const { ack } = sent;
          const outcome = await outcomeOf(ctx.client, ack, args.wait as Wait | undefined, args.timeoutMs as number | undefined, extra.signal);
          return ok({
            commandId: ack.commandId,
            disposition: ack.disposition,
            routingPath: path,
            ...(key === undefined ? { idempotent: false, note: ADMIN_NOTE } : { idempotent: true, idempotencyKey: key }),
            ...outcome,
          });
        }),
    );
  }
}
