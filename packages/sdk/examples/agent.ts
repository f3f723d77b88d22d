/**
 * An agent that answers every inbound message: reads `message.received` from the response
 * stream and replies into the conversation, threaded under the message.
 *
 *   SWITCHBOARD_URL=http://127.0.0.1:7300 SWITCHBOARD_API_KEY=sb_... npx -y pnpm@10.34.9 exec node examples/agent.ts
 *
 * It keeps its place in SWITCHBOARD_CURSOR_FILE (default: switchboard-agent/cursor in
 * $XDG_STATE_HOME, else ~/.local/state, never in the checkout): restarted, it carries on from the
 * last event it handled. Each reply's Idempotency-Key is derived from the message it answers, so a
 * reply sent just before a crash and sent again after the restart is adopted by the service, not
 * delivered twice.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { SwitchboardError, type MessageReceivedEvent } from '@switchboard/sdk';
import { clientFromEnv, streamHead } from './env.ts';

const client = clientFromEnv();
const cursorFile = process.env.SWITCHBOARD_CURSOR_FILE ?? join(process.env.XDG_STATE_HOME ?? join(homedir(), '.local/state'), 'switchboard-agent/cursor');
mkdirSync(dirname(cursorFile), { recursive: true });

function savedCursor(): string | undefined {
  try {
    return readFileSync(cursorFile, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

function replyTo(message: MessageReceivedEvent['data']): string {
  return message.text ? `You said: ${message.text}` : `Thanks for the ${message.attachments.length} attachment(s).`;
}

const stop = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort());

const after = savedCursor() ?? (await streamHead(client));
console.log(JSON.stringify({ msg: 'agent listening', after, cursorFile }));

for await (const event of client.events({ after, signal: stop.signal })) {
  if (event.type === 'reset') {
    // The saved cursor was older than the stream's retention: messages were missed.
    console.warn(JSON.stringify({ msg: 'stream reset; events were missed', ...event.data }));
    continue;
  }
  if (event.type === 'message.received') {
    const message = event.data;
    try {
      const acknowledgement = await client.sendMessage(
        {
          target: { kind: 'conversation', conversationId: message.conversationId },
          payload: { kind: 'rich_text', text: replyTo(message), replyToMessageExternalId: message.messageExternalId },
        },
        { idempotencyKey: `reply-${message.messageExternalId}` },
      );
      console.log(JSON.stringify({ msg: 'replied', conversationId: message.conversationId, commandId: acknowledgement.commandId, disposition: acknowledgement.disposition }));
    } catch (error) {
      // A reply the service refuses (e.g. no_live_connector after the retries) is logged, not fatal:
      // the next message gets its own chance.
      if (!(error instanceof SwitchboardError)) throw error;
      console.error(JSON.stringify({ msg: 'reply refused', code: error.code, requestId: error.requestId }));
    }
  }
  if (event.type === 'command.settled' && event.data.status === 'failed') {
    console.error(JSON.stringify({ msg: 'command failed', commandId: event.data.commandId, errorCode: event.data.errorCode, errorMessage: event.data.errorMessage }));
  }
  writeFileSync(cursorFile, event.id);
}
console.log(JSON.stringify({ msg: 'agent stopped' }));
