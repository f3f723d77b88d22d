#!/usr/bin/env node
import { injectUsage, runInject } from './cli/inject.ts';
import { platformUsage, runPlatform } from './cli/platform.ts';
import { runHost } from './cli/run.ts';

const usage = `switchboard-connector [run]              run one connector host (configured from the environment)
switchboard-connector inject ...          a message from someone, on the simulated platform
switchboard-connector platform ...        what the simulated platform shows

${injectUsage}

${platformUsage}`;

const [command = 'run', ...args] = process.argv.slice(2);
let code: number;
switch (command) {
  case 'run':
    code = await runHost();
    break;
  case 'inject':
    code = runInject(args);
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
