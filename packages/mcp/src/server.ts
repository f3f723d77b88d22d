import { readFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Config } from './config.ts';
import type { Context } from './context.ts';
import { registerCommandTools } from './tools/commands.ts';
import { registerFileTool } from './tools/files.ts';
import { registerReadTools } from './tools/reads.ts';
import { registerRecipeTool } from './tools/recipe.ts';

// package.json sits one level above both src/ and dist/.
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
export const serverInfo = { name: 'switchboard', version };

const instructions = [
  'Switchboard acts on a messaging account through commands. A command answered "queued" is accepted, not done: it settles later as succeeded or failed with a settlement code (wait: "settled", or command_status). One answered "held" is accepted and held by the account\'s line policies (quiet hours, first-contact approval): it goes out when released; never send it again.',
  'A send that succeeded was taken by the platform; wait: "delivered" or "read" (or list_messages) says whether it arrived. A message sent and not yet delivered is not lost: do not send it again.',
  'Agent-turn tools (message_send, message_send_file, reaction_tapback, reaction_apply, name_photo_share) are safe to call again: a repeat is adopted, not sent twice.',
  'Admin tools (message_send_to_new_contact, group_create, group_update, group_leave) are not: a repeat acts again.',
  'To hold a conversation: recent_messages, then wait_for_message with the cursor, reply with message_send, and wait again from the message\'s eventId.',
].join(' ');

/** One MCP server with every Switchboard tool, over the shared context. */
export function createServer(config: Config, ctx: Context): McpServer {
  const server = new McpServer(serverInfo, { instructions });
  registerCommandTools(server, ctx, config.idempotencyWindowMs);
  registerFileTool(server, ctx, config.idempotencyWindowMs);
  registerRecipeTool(server, ctx);
  registerReadTools(server, ctx);
  return server;
}
