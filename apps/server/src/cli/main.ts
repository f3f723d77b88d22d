#!/usr/bin/env node
// The operator CLI's entry, small on purpose. `tail` runs until Ctrl-C, so it takes Ctrl-C first
// (terminal.ts), before the rest of the CLI loads: pressed meanwhile, it still ends `tail` with
// exit 0 rather than killing pnpm's `sh -c`. Then Node's compile cache is turned on, so the next
// call compiles less, and the CLI itself (run.ts) loads.
import module from 'node:module';
import { parse } from './options.ts';
import { takeInterrupts, type Interrupt } from './terminal.ts';

const argv = process.argv.slice(2);
let interrupt: Interrupt | undefined;
try {
  if (parse(argv).positionals[0] === 'tail') interrupt = takeInterrupts();
} catch {
  // A command line that does not parse: run.ts says so.
}
module.enableCompileCache?.();
const { main } = await import('./run.ts');
await main(argv, interrupt);
