/**
 * `message_send_file`: a local file into a conversation, as an attachment or a sticker. It takes a
 * path, never a URL: the MCP server runs beside the agent with the user's own file access, while
 * fetching a URL a model was handed would let a prompt-injected agent make this process fetch
 * internal addresses (a metadata service, a router's admin page) and send what came back.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, extname, isAbsolute, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { schemas } from '@switchboard/contracts';
import { SwitchboardError, type Transfer } from '@switchboard/sdk';
import type { Context } from '../context.ts';
import { ok, toolError } from '../results.ts';
import { toolInput } from './input.ts';
import { messageWaitInput, outcomeOf } from './wait.ts';

/** The media type of each extension sent: the service's default allowed types, nothing else. */
export const mediaTypes: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.heic': 'image/heic',
  '.heif': 'image/heif',
  '.webp': 'image/webp',
  '.mp4': 'video/mp4',
  '.mov': 'video/quicktime',
  '.m4v': 'video/x-m4v',
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/mp4',
  '.wav': 'audio/wav',
  '.aac': 'audio/aac',
  '.caf': 'audio/x-caf',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.vcf': 'text/vcard',
};

const TOOL = 'message_send_file';
const refuse = (error: string, message: string): CallToolResult => toolError({ error, message, retry: 'never' });

/** The local path `input` names (a path, `~/…` or a file: URL), or why it is refused. */
export function localPath(input: string): { path: string } | { refused: CallToolResult } {
  // Two letters at least before the colon: `C:\…` is a Windows path, not a URL.
  if (/^[a-z][a-z\d+.-]+:/i.test(input)) {
    if (/^file:/i.test(input)) return { path: fileURLToPath(input) };
    return {
      refused: refuse(
        'url_refused',
        'path must be a file on this machine, not a URL: this tool does not fetch URLs, since fetching an address it was handed could reach internal services and send what they answer. Download the file yourself (to a place you chose), then pass its path; or send the link as a message (message_send with kind rich_link).',
      ),
    };
  }
  const path = input === '~' || input.startsWith('~/') ? join(homedir(), input.slice(1)) : input;
  if (!isAbsolute(path)) return { refused: refuse('path_not_absolute', `path must be absolute (or start with ~/), got "${input}": this server's working directory is not yours.`) };
  return { path };
}

/** The SHA-256 of a file, lower-case hex, read as a stream. */
async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

const description = (minutes: number) =>
  [
    'Send a file from this machine into an existing conversation, as an attachment (a photo, a video, a PDF...) or, for an image, a sticker (message.send with kind attachment or sticker: the agent-turn path).',
    'path is an absolute path (or ~/...) to a local file. URLs are refused: download the file first, then pass its path.',
    `The type comes from the extension: ${Object.keys(mediaTypes).join(' ')}; any other is refused.`,
    'Needs a server with transfers turned on: otherwise the answer is the tool error transfers_disabled and nothing is sent.',
    `Safe to call again: the Idempotency-Key is derived from the conversation, the file's content and name, and kind for ${minutes} minutes, so a repeat answers disposition "adopted" (the file is uploaded again, and that copy is never sent).`,
    'wait works as in message_send: "settled", "delivered" or "read".',
  ].join(' ');

export function registerFileTool(server: McpServer, ctx: Context, windowMs: number): void {
  server.registerTool(
    TOOL,
    {
      title: 'Send a file into a conversation',
      description: description(Math.round(windowMs / 60_000)),
      inputSchema: toolInput({
        conversationId: schemas.zConversationTarget.shape.conversationId.describe('The conversation (a UUID from list_conversations, recent_messages or wait_for_message).'),
        path: z.string().min(1).max(4096).describe('The file: an absolute path on this machine (or ~/...). Not a URL.'),
        fileName: schemas.zCreateTransferQuery.shape.fileName.optional().describe('The name the recipient sees; default the file\'s own name.'),
        kind: z.enum(['attachment', 'sticker']).optional().describe('attachment (the default), or sticker for an image.'),
        ...messageWaitInput,
        idempotencyKey: schemas.zIdempotencyKey.optional().describe('Optional. Your own Idempotency-Key instead of the derived one: calls with the same key send once.'),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true, idempotentHint: true },
    },
    (args, extra) =>
      ctx.run(TOOL, async () => {
        const local = localPath(args.path);
        if ('refused' in local) return local.refused;
        const { path } = local;
        const info = await stat(path).catch(() => undefined);
        if (!info?.isFile()) return refuse('file_not_found', `no file at ${path} that this server can read${info ? ' (it is not a regular file)' : ''}.`);
        const mimeType = mediaTypes[extname(path).toLowerCase()];
        if (!mimeType) return refuse('file_type_unsupported', `cannot tell the media type of "${basename(path)}" from its extension; supported: ${Object.keys(mediaTypes).join(' ')}.`);
        const kind = args.kind ?? 'attachment';
        if (kind === 'sticker' && !mimeType.startsWith('image/')) return refuse('file_type_unsupported', `a sticker is an image; "${basename(path)}" is ${mimeType}: send it as an attachment.`);
        const fileName = args.fileName ?? basename(path);
        const sha256 = await sha256Of(path);
        const target = { kind: 'conversation' as const, conversationId: args.conversationId };
        // The content, not the upload: each upload has a transferId of its own, and a repeat must be adopted.
        const key = args.idempotencyKey ?? ctx.keys.keyOf(TOOL, { target, file: { sha256, fileName, mimeType }, kind });

        let transfer: Transfer;
        try {
          transfer = await ctx.client.transfers.upload(createReadStream(path), { fileName, contentType: mimeType, ...(extra.signal ? { signal: extra.signal } : {}) });
        } catch (error) {
          if (error instanceof SwitchboardError && error.code === 'transfers_disabled') {
            return toolError({ error: error.code, status: error.status, retry: 'never', message: 'this Switchboard server has transfers turned off, so it cannot send files; nothing was uploaded or sent. Its operator turns them on (SWITCHBOARD_TRANSFERS=enabled); until then, send text or a link (message_send).' });
          }
          throw error;
        }
        if (transfer.sha256 !== sha256) return toolError({ error: 'file_changed', retry: 'backoff', message: `${path} changed while it was uploaded (the service stored other bytes than were hashed); nothing was sent. Call again once the file is complete.` });

        const ack = await ctx.client.sendMessage({ target, payload: { kind, transferId: transfer.transferId } }, { idempotencyKey: key });
        const outcome = await outcomeOf(ctx.client, ack, args.wait, args.timeoutMs, extra.signal);
        return ok({
          commandId: ack.commandId,
          disposition: ack.disposition,
          routingPath: 'agent-turn',
          idempotent: true,
          idempotencyKey: key,
          transfer: { transferId: transfer.transferId, fileName: transfer.fileName, mimeType: transfer.mimeType, byteSize: transfer.byteSize, sha256: transfer.sha256 },
          ...outcome,
        });
      }),
  );
}
