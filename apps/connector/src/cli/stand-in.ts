import { parseArgs } from 'node:util';
import { simulatorDbPath } from '../config.ts';
import { BlueBubblesStandIn } from '../driver/bluebubbles/standin/server.ts';

export const standInUsage = `switchboard-connector bluebubbles-stand-in --account <accountId> --password <password> [options]

Runs a local stand-in of BlueBubbles Server (its HTTP API and webhooks, see
src/driver/bluebubbles/standin/FIDELITY.md) backed by the simulated platform, so a host with
--driver bluebubbles can run without a Mac. People write to it with \`inject\`.

  --account <id>          the Switchboard account whose simulated platform backs it
  --password <p>          the server password (?password=)
  --port <n>              default 1234
  --os-version <v>        reported macOS version (default 15.5; 26.x has the remove_participant stall)
  --private-api <bool>    Private API enabled and helper connected (default true)
  --sim-db <path>         the platform file (default: SWITCHBOARD_SIM_DB, or simulator.db in SWITCHBOARD_DATA_DIR)

Prints {url} as JSON once listening; runs until SIGTERM or SIGINT.`;

/** \`switchboard-connector bluebubbles-stand-in\`. */
export async function runStandIn(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      account: { type: 'string' },
      password: { type: 'string' },
      port: { type: 'string', default: '1234' },
      'os-version': { type: 'string', default: '15.5' },
      'private-api': { type: 'string', default: 'true' },
      'sim-db': { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${standInUsage}\n`);
    return 0;
  }
  if (!values.account || !values.password) {
    process.stderr.write(`--account and --password are required\n\n${standInUsage}\n`);
    return 2;
  }
  const standIn = await new BlueBubblesStandIn({
    dbPath: values['sim-db'] ?? simulatorDbPath(),
    account: values.account,
    password: values.password,
    port: Number(values.port),
    osVersion: values['os-version'],
    privateApi: values['private-api'] === 'true',
  }).start();
  process.stdout.write(`${JSON.stringify({ url: standIn.url })}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  await standIn.stop();
  return 0;
}
