import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { parseArgs } from 'node:util';
import { simulatorDbPath } from '../config.ts';
import { SimulatedPlatform, type GroupChangeInput, type InboundInput } from '../driver/simulator/platform.ts';
import { voteOf } from './vote.ts';

const MIME_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.heic': 'image/heic',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.mp4': 'video/mp4',
  '.m4a': 'audio/mp4',
  '.vcf': 'text/vcard',
};

export const injectUsage = `switchboard-connector inject --account <accountId> --from <address> [options]

Makes someone write to the account on the simulated platform. The live host of the account
reports it (message.received, and conversation.appeared for a new conversation) within
SWITCHBOARD_SIM_FEED_POLL_MS.

  --account <id>            the Switchboard account (the simulator keeps one platform per account)
  --from <address>          the sender; without --conversation or --group, the direct conversation with them
  --conversation <id>       an existing conversation: its Switchboard id ($DM, $GROUP, a conversationId),
                            known here once a command to it ran, or its platform id (see: platform conversations)
  --group <a,b,...>         start a new group with these people (must include --from)
  --group-name <name>       the new group's name
  --text <text>             the message text (may be omitted when attaching)
  --attach <path>           attach a file (repeatable); its media type is guessed from the extension
  --rename <name>           instead of a message: --from renames the group --conversation
  --add <address>           instead of a message: --from adds someone to the group --conversation
  --remove <address>        instead of a message: --from removes someone from the group --conversation
  --poll <messageExtId>     instead of a message: --from votes on the account's poll with this
                            messageExternalId (the poll's message.sent), with --vote or --withdraw
  --vote <index>            the option, by its position in the poll's options (from 0); voting
                            again changes the vote
  --withdraw                withdraw --from's vote
  --sim-db <path>           the platform file (default: SWITCHBOARD_SIM_DB, or simulator.db in SWITCHBOARD_DATA_DIR)

Prints {conversationExternalId, messageExternalId, attachmentIds} as JSON (a group change prints
{conversationExternalId}; a vote prints the poll.voted event the host will report).`;

/** `switchboard-connector inject`: an inbound message, for exercising agents against the simulator. */
export function runInject(args: string[]): number {
  const { values } = parseArgs({
    args,
    options: {
      account: { type: 'string' },
      from: { type: 'string' },
      conversation: { type: 'string' },
      group: { type: 'string' },
      'group-name': { type: 'string' },
      text: { type: 'string' },
      attach: { type: 'string', multiple: true },
      rename: { type: 'string' },
      add: { type: 'string' },
      remove: { type: 'string' },
      poll: { type: 'string' },
      vote: { type: 'string' },
      withdraw: { type: 'boolean' },
      'sim-db': { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${injectUsage}\n`);
    return 0;
  }
  const vote = voteOf(values);
  if (typeof vote === 'string') {
    process.stderr.write(`${vote}\n\n${injectUsage}\n`);
    return 2;
  }
  const groupChange = values.rename !== undefined || values.add !== undefined || values.remove !== undefined;
  if (!values.account || !values.from || (vote === null && (groupChange ? values.conversation === undefined : values.text === undefined && !values.attach?.length))) {
    process.stderr.write(`--account, --from and --text or --attach (or --conversation with --rename, --add or --remove) are required\n\n${injectUsage}\n`);
    return 2;
  }
  const platform = new SimulatedPlatform(values['sim-db'] ?? simulatorDbPath(), values.account);
  try {
    if (values.conversation !== undefined) values.conversation = platformId(platform, values.conversation);
    if (vote !== null) {
      process.stdout.write(`${JSON.stringify(platform.vote({ from: values.from, ...vote }))}\n`);
      return 0;
    }
    if (groupChange) {
      const change: GroupChangeInput = { from: values.from, conversationExternalId: values.conversation as string };
      if (values.rename !== undefined) change.rename = values.rename;
      if (values.add !== undefined) change.add = values.add;
      if (values.remove !== undefined) change.remove = values.remove;
      platform.changeGroup(change);
      process.stdout.write(`${JSON.stringify({ conversationExternalId: change.conversationExternalId })}\n`);
      return 0;
    }
    process.stdout.write(`${JSON.stringify(platform.receive(inbound(values.from, values)))}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 1;
  } finally {
    platform.close();
  }
}

/** The inbound message the options describe. */
function inbound(from: string, values: { text?: string; attach?: string[]; conversation?: string; group?: string; 'group-name'?: string }): InboundInput {
  const input: InboundInput = {
    from,
    text: values.text ?? null,
    attachments: (values.attach ?? []).map((path) => ({
      fileName: basename(path),
      mimeType: MIME_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream',
      bytes: new Uint8Array(readFileSync(path)),
    })),
  };
  if (values.conversation !== undefined) input.conversationExternalId = values.conversation;
  if (values.group !== undefined) input.group = { participants: values.group.split(',').map((s) => s.trim()).filter(Boolean), name: values['group-name'] ?? null };
  return input;
}

/** The platform id of the conversation `--conversation` names, by either id. */
function platformId(platform: SimulatedPlatform, id: string): string {
  const found = platform.externalIdOf(id);
  if (found !== null) return found;
  throw new Error(
    `the platform knows no conversation "${id}". A Switchboard conversationId is known here once a command to the conversation ran;` +
      ` until then give its platform id (switchboard-connector platform conversations --account ${platform.account}).`,
  );
}
