import { parseArgs } from 'node:util';
import { simulatorDbPath } from '../config.ts';
import { SimulatedPlatform } from '../driver/simulator/platform.ts';

export const platformUsage = `switchboard-connector platform <what> --account <accountId> [options]

Shows the simulated platform's state for an account, as JSON.

  conversations                          every conversation, with its platform id (externalId)
  messages --conversation <extId>        a conversation's messages, reactions and group changes, oldest first
  action --logical-action-id <id>        what one logical action did on the platform, and its execution record

  --sim-db <path>   the platform file (default: SWITCHBOARD_SIM_DB, or simulator.db in SWITCHBOARD_DATA_DIR)`;

/** `switchboard-connector platform`: what the simulated platform shows. */
export function runPlatform(args: string[]): number {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      account: { type: 'string' },
      conversation: { type: 'string' },
      'logical-action-id': { type: 'string' },
      'sim-db': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  const [what] = positionals;
  if (values.help || !what) {
    process.stdout.write(`${platformUsage}\n`);
    return values.help ? 0 : 2;
  }
  if (!values.account) {
    process.stderr.write(`--account is required\n\n${platformUsage}\n`);
    return 2;
  }
  const platform = new SimulatedPlatform(values['sim-db'] ?? simulatorDbPath(), values.account);
  try {
    let result: unknown;
    if (what === 'conversations') result = platform.conversations();
    else if (what === 'messages' && values.conversation) result = platform.messages(values.conversation);
    else if (what === 'action' && values['logical-action-id']) {
      const id = values['logical-action-id'];
      result = { execution: platform.execution(id), messages: platform.messagesOfAction(id) };
    } else {
      process.stderr.write(`${platformUsage}\n`);
      return 2;
    }
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } finally {
    platform.close();
  }
}
