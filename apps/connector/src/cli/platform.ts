import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { simulatorDbPath } from '../config.ts';
import { NOT_DELIVERED, TAPBACKS, type FailureReason, type MessageChange } from '../driver/simulator/life.ts';
import { SimulatedPlatform } from '../driver/simulator/platform.ts';
import type { Tapback } from '../driver/types.ts';

const REASONS: readonly FailureReason[] = ['not_delivered', 'recipient_unreachable'];
/** `platformMessage` of PlatformMessageFailed (specs/openapi/connector.yaml). */
const MAX_PLATFORM_MESSAGE = 1_024;

export const platformUsage = `switchboard-connector platform <what> --account <accountId> [options]

Shows the simulated platform's state for an account, as JSON, and makes things happen to messages
there now. The account's live host reports each change within SWITCHBOARD_SIM_FEED_POLL_MS (the
next holder of the lease, if no host runs).

What the platform shows:
  conversations                      every conversation, with its platform id (externalId)
  messages --conversation <extId>    a conversation's messages, oldest first, with when each was delivered,
                                     read, failed, edited or unsent; tapbacks and group changes are rows too
  action --logical-action-id <id>    what one logical action did on the platform, and its execution record
  attachment --attachment-id <id> [--out <path>]
                                     a file on the platform: one someone sent, or one the account sent (an
                                     attachment's or sticker's attachmentIds, a group's photoAttachmentId):
                                     its name, type, size and sha256; --out writes its bytes there
  pending                            what the platform will do to messages, and when (dueAt, ms since the epoch)

What becomes of the account's messages (--message <messageExternalId>, from the stream's message.sent,
or --command <commandId>: the message that command sent):
  deliver                            message.delivered
  read                               message.read, and message.delivered first if it was not;
                                     direct conversations only (iMessage has no read receipts in groups)
  fail [--reason <reason>] [--platform-message <text>]
                                     message.failed, after the echo; a delivered message does not fail.
                                     --reason not_delivered (default) or recipient_unreachable;
                                     --platform-message defaults to "${NOT_DELIVERED}"

What other people do (--message <messageExternalId>):
  react --from <address> --tapback <tapback> [--remove]
                                     a member of the conversation adds a tapback to any message (replacing
                                     their own), or removes theirs; tapbacks: ${TAPBACKS.join(', ')}
  edit --text <text>                 the sender edits a message they sent to the account
  unsend                             the sender unsends a message they sent to the account

  --sim-db <path>   the platform file (default: SWITCHBOARD_SIM_DB, or simulator.db in SWITCHBOARD_DATA_DIR)

A change prints the platform events the host will report, as a JSON array. A change the message
does not allow (a group message read, a delivered message failing, a tapback that is not there to
remove, an unknown message) changes nothing, says why on stderr and exits 1; a usage error exits 2.

Examples:
  switchboard-connector platform deliver --account <id> --message <messageExternalId>
  switchboard-connector platform read --account <id> --command <commandId>
  switchboard-connector platform fail --account <id> --message <messageExternalId>
  switchboard-connector platform react --account <id> --message <messageExternalId> --from +14155550123 --tapback love
  switchboard-connector platform react --account <id> --message <messageExternalId> --from +14155550123 --tapback love --remove
  switchboard-connector platform edit --account <id> --message <messageExternalId> --text 'on my way, 5 min'
  switchboard-connector platform unsend --account <id> --message <messageExternalId>`;

class UsageError extends Error {}

/** `switchboard-connector platform`: what the simulated platform shows, and changes to its messages. */
export function runPlatform(args: string[]): number {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        account: { type: 'string' },
        conversation: { type: 'string' },
        'logical-action-id': { type: 'string' },
        'attachment-id': { type: 'string' },
        out: { type: 'string' },
        message: { type: 'string' },
        command: { type: 'string' },
        reason: { type: 'string' },
        'platform-message': { type: 'string' },
        from: { type: 'string' },
        tapback: { type: 'string' },
        remove: { type: 'boolean' },
        text: { type: 'string' },
        'sim-db': { type: 'string' },
        help: { type: 'boolean' },
      },
    });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${platformUsage}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [what, ...extra] = positionals;
  if (values.help || !what) {
    process.stdout.write(`${platformUsage}\n`);
    return values.help ? 0 : 2;
  }
  if (extra.length > 0) {
    process.stderr.write(`unexpected argument "${extra[0]}"\n\n${platformUsage}\n`);
    return 2;
  }
  if (!values.account) {
    process.stderr.write(`--account is required\n\n${platformUsage}\n`);
    return 2;
  }
  let change: MessageChange | null;
  try {
    change = changeOf(what, values);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${platformUsage}\n`);
    return 2;
  }
  const platform = new SimulatedPlatform(values['sim-db'] ?? simulatorDbPath(), values.account);
  try {
    let result: unknown;
    if (change) {
      result = platform.changeMessage(messageOf(platform, values), change);
    } else if (what === 'conversations') {
      result = platform.conversations();
    } else if (what === 'messages' && values.conversation) {
      // The platform as it is now: whatever came due while no host read the feed is applied first.
      platform.release();
      result = platform.messages(values.conversation);
    } else if (what === 'pending') {
      platform.release();
      result = platform.pending();
    } else if (what === 'attachment' && values['attachment-id']) {
      const { attachmentId, fileName, mimeType, bytes } = platform.attachment(values['attachment-id']);
      if (values.out) writeFileSync(values.out, bytes);
      result = { attachmentId, fileName, mimeType, byteSize: bytes.byteLength, sha256: createHash('sha256').update(bytes).digest('hex') };
    } else if (what === 'action' && values['logical-action-id']) {
      const id = values['logical-action-id'];
      result = { execution: platform.execution(id), messages: platform.messagesOfAction(id) };
    } else {
      const needs: Record<string, string> = { messages: '--conversation', action: '--logical-action-id', attachment: '--attachment-id' };
      process.stderr.write(`${needs[what] ? `${what} needs ${needs[what]}` : `unknown platform command "${what}"`}\n\n${platformUsage}\n`);
      return 2;
    }
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n\n${platformUsage}\n`);
      return 2;
    }
    process.stderr.write(`${(error as Error).message}\n`);
    return 1;
  } finally {
    platform.close();
  }
}

type Values = Partial<Record<'message' | 'command' | 'reason' | 'platform-message' | 'from' | 'tapback' | 'text', string>> & { remove?: boolean };

/** The change a subcommand makes, with its options checked; null for the subcommands that only show. Throws on a usage error. */
function changeOf(what: string, values: Values): MessageChange | null {
  const byCommand = what === 'deliver' || what === 'read' || what === 'fail';
  const changes = ['deliver', 'read', 'fail', 'react', 'edit', 'unsend'];
  if (!changes.includes(what)) return null;
  if (byCommand ? (values.message === undefined) === (values.command === undefined) : values.message === undefined) {
    throw new UsageError(byCommand ? `${what} needs exactly one of --message <messageExternalId> and --command <commandId>` : `${what} needs --message <messageExternalId>`);
  }
  if (!byCommand && values.command !== undefined) throw new UsageError(`${what} takes --message, not --command: it acts on a message someone may have sent`);
  switch (what) {
    case 'deliver':
      return { change: 'delivered' };
    case 'read':
      return { change: 'read' };
    case 'fail': {
      const reason = values.reason ?? 'not_delivered';
      if (!REASONS.includes(reason as FailureReason)) throw new UsageError(`--reason must be one of ${REASONS.join(', ')}, got "${reason}"`);
      const platformMessage = values['platform-message'] ?? NOT_DELIVERED;
      // The protocol's bound: the server would refuse the host's whole report, other events with it.
      if (platformMessage.length > MAX_PLATFORM_MESSAGE) throw new UsageError(`--platform-message takes at most ${MAX_PLATFORM_MESSAGE} characters`);
      return { change: 'failed', reason: reason as FailureReason, platformMessage };
    }
    case 'react': {
      if (values.from === undefined || values.tapback === undefined) throw new UsageError('react needs --from <address> and --tapback <tapback>');
      if (!TAPBACKS.includes(values.tapback as Tapback)) throw new UsageError(`--tapback must be one of ${TAPBACKS.join(', ')}, got "${values.tapback}"`);
      return { change: 'reaction', from: values.from, tapback: values.tapback as Tapback, action: values.remove ? 'removed' : 'added' };
    }
    case 'edit':
      if (values.text === undefined) throw new UsageError('edit needs --text <text>');
      return { change: 'edited', text: values.text };
    default:
      return { change: 'unsent' };
  }
}

/** The message `--message` names, or the one `--command` sent. */
function messageOf(platform: SimulatedPlatform, values: Values): string {
  if (values.message !== undefined) return values.message;
  const sent = platform.messageOfCommand(values.command!);
  if (!sent) throw new Error(`command "${values.command}" put no message on the platform (it has not run here, or it sent none)`);
  return sent.externalId;
}
