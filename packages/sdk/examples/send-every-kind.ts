/**
 * Sends one message of every kind into a conversation and prints how each settled.
 *
 *   SWITCHBOARD_URL=http://127.0.0.1:7300 SWITCHBOARD_API_KEY=sb_... \
 *     npx -y pnpm@10.34.9 exec node examples/send-every-kind.ts <conversationId>
 *
 * `attachment` and `sticker` name a transferId that does not exist: they are accepted (202) and
 * settle failed with `transfer_unavailable`, as every transferId does on a server with transfers
 * off (the default). They are sent anyway to show what that looks like. To send media, upload it
 * first with `client.transfers.upload` on a server with transfers on (README: Sending media).
 */
import { SettlementTimeoutError, type MessagePayload } from '@switchboard/sdk';
import { clientFromEnv } from './env.ts';

const conversationId = process.argv[2] ?? process.env.SWITCHBOARD_CONVERSATION_ID;
if (!conversationId) {
  console.error('usage: npx -y pnpm@10.34.9 exec node examples/send-every-kind.ts <conversationId>');
  process.exit(2);
}
const client = clientFromEnv();

const kinds: Array<[string, MessagePayload]> = [
  ['text', { text: 'Plain text.' }],
  ['rich_text', { kind: 'rich_text', text: 'With a subject and confetti.', subject: 'Hello', effect: 'confetti' }],
  ['rich_link', { kind: 'rich_link', url: 'https://example.com' }],
  ['poll', { kind: 'poll', question: 'Lunch?', options: ['Pizza', 'Salad', 'Both'] }],
  ['attachment', { kind: 'attachment', transferId: 'none-exists' }],
  ['sticker', { kind: 'sticker', transferId: 'none-exists' }],
];

let failed = 0;
for (const [name, payload] of kinds) {
  const acknowledgement = await client.sendMessage({ target: { kind: 'conversation', conversationId }, payload });
  try {
    const outcome = await client.settled(acknowledgement.commandId, { timeoutMs: 30_000 });
    console.log(JSON.stringify({ kind: name, commandId: acknowledgement.commandId, status: outcome.status, errorCode: outcome.errorCode, errorMessage: outcome.errorMessage }));
    if (outcome.status === 'failed' && outcome.errorCode !== 'transfer_unavailable') failed++;
  } catch (error) {
    if (!(error instanceof SettlementTimeoutError)) throw error;
    console.log(JSON.stringify({ kind: name, commandId: acknowledgement.commandId, status: 'queued', note: 'not settled within 30 s; is a connector host running?' }));
    failed++;
  }
}
process.exitCode = failed === 0 ? 0 : 1;
