#!/usr/bin/env node
import { injectUsage, runInject } from './cli/inject.ts';
import { platformUsage, runPlatform } from './cli/platform.ts';
import { runHost } from './cli/run.ts';
import { runStandIn, standInUsage } from './cli/stand-in.ts';

const usage = `switchboard-connector [run] [--flag value]...  run one connector host (configured from the environment;
                                         --driver bluebubbles --bluebubbles-url URL --bluebubbles-password P ...)
switchboard-connector bluebubbles-stand-in ...  a local stand-in of BlueBubbles Server, for tests
switchboard-connector inject ...          a message from someone, on the simulated platform
switchboard-connector platform ...        what the simulated platform shows

${injectUsage}

${platformUsage}

${standInUsage}`;

const argv = process.argv.slice(2);
// Flags alone mean `run`.
const [command = 'run', ...args] = argv[0]?.startsWith('--') && argv[0] !== '--help' ? ['run', ...argv] : argv;
let code: number;
switch (command) {
  case 'run':
    code = await runHost(args);
    break;
  case 'inject':
    code = runInject(args);
    break;
  case 'bluebubbles-stand-in':
    code = await runStandIn(args);
    break;
  case 'platform':
    code = runPlatform(args);
    break;
  case 'help':
  case '--help':
    process.stdout.write(`${usage}\n`);
    code = 0;
    break;
  default:
    process.stderr.write(`unknown command "${command}"\n\n${usage}\n`);
    code = 2;
}
// Exit now rather than when idle keep-alive sockets to the server time out.
process.exit(code);
