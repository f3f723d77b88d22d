import { readFileSync } from 'node:fs';

/**
 * Ctrl-C for a command that runs until the user stops it (`tail`): `signal` aborts on Ctrl-C (a
 * key in a terminal this process owns), SIGINT or SIGTERM; `release` gives the terminal back.
 */
export interface Interrupt {
  readonly signal: AbortSignal;
  release(): void;
}

/**
 * Ctrl-C in a terminal signals the whole foreground process group. Run as the README runs it
 * (`npx -y pnpm@10.34.9 switchboard tail acme`) that group holds, besides this process, npm's and
 * pnpm's `sh -c` (dash on Debian and Ubuntu), which die of SIGINT whatever their child does; pnpm
 * then prints `ELIFECYCLE Command failed` and exits 130. So when this process owns the terminal
 * (stdin a TTY, this process group in the foreground) Ctrl-C is read as a key, in raw mode, and
 * never becomes a signal, as `pnpm start` does. main.ts does this before the rest of the CLI loads,
 * so a Ctrl-C pressed meanwhile is a key too. Elsewhere SIGINT and SIGTERM stop it the same way,
 * each time it gets one: pnpm passes a SIGINT on to its child once more after the group's. The
 * signal handlers stay until the process exits, so that second SIGINT cannot kill it as it ends.
 */
export function takeInterrupts(): Interrupt {
  const stop = new AbortController();
  const abort = () => stop.abort();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, abort);
  const stdin = process.stdin;
  const keys = stdin.isTTY && inForeground();
  const onKey = (key: Buffer) => {
    // Ctrl-C, or Ctrl-D as the end of input.
    if (key.includes(0x03) || key.includes(0x04)) abort();
  };
  if (keys) {
    stdin.setRawMode(true);
    stdin.on('data', onKey);
  }
  let held = keys;
  return {
    signal: stop.signal,
    release() {
      if (!held) return;
      held = false;
      stdin.off('data', onKey);
      stdin.setRawMode(false);
      // Nothing more to read: let the process exit.
      stdin.destroy();
    },
  };
}

/**
 * Whether this process's group is the terminal's foreground group. A background job (`tail ... &`)
 * must not touch the terminal: reading it or changing its mode would stop the job (SIGTTIN, SIGTTOU).
 */
function inForeground(): boolean {
  try {
    // Linux: pgrp and tpgid are fields 5 and 8 of /proc/self/stat, after the parenthesised name.
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[2]) > 0 && fields[2] === fields[5];
  } catch {
    // Elsewhere (macOS): ps says the same.
  }
  try {
    const { execFileSync } = process.getBuiltinModule('node:child_process');
    const [pgid, tpgid] = execFileSync('ps', ['-o', 'pgid=,tpgid=', '-p', String(process.pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim().split(/\s+/);
    return Number(pgid) > 0 && pgid === tpgid;
  } catch {
    return false;
  }
}
