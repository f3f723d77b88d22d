import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { paint, UsageError } from './format.ts';
import type { Account, Operator } from './operator.ts';

/**
 * `switchboard tail`: follows the account's response stream until Ctrl-C, which is how a user
 * ends it: it stops following, says so in one line on stderr and exits 0.
 *
 * Ctrl-C in a terminal signals the whole foreground process group. Run as the README runs it
 * (`npx -y pnpm@10.34.9 switchboard tail acme`) that group holds, besides this process, npm's and
 * pnpm's `sh -c` (dash on Debian and Ubuntu), which die of SIGINT whatever their child does; pnpm
 * then prints `ELIFECYCLE Command failed` and exits 130. So when this process owns the terminal
 * (stdin a TTY, this process group in the foreground) Ctrl-C is read as a key, in raw mode, and
 * never becomes a signal, as `pnpm start` does. Elsewhere SIGINT and SIGTERM stop it the same way,
 * each time it gets one: pnpm passes a SIGINT on to its child once more after the group's.
 */
export async function tailCommand(operator: Operator, target: Account, from: string, json: boolean): Promise<void> {
  if (from !== 'now' && !/^\d{1,15}$/.test(from)) throw new UsageError('--after takes an event id or now');
  let after = from === 'now' ? await operator.newestEventId(target.id) : String(Number(from));
  const stop = new AbortController();
  const release = onInterrupt(() => stop.abort());
  try {
    console.error(paint('dim', `following ${target.name}'s stream after ${after} (Ctrl-C to stop)`));
    for await (const event of operator.events(target.id, after, stop.signal)) {
      console.log(json ? JSON.stringify(event) : `${paint('dim', event.id.padStart(6))} ${paint('cyan', event.type.padEnd(26))} ${JSON.stringify(event.data)}`);
      after = event.id;
    }
  } finally {
    release();
  }
  console.error(paint('dim', `stopped (--after ${after} goes on from here)`));
  // A second signal sent with the first (pnpm passes the group's SIGINT on) may arrive once the
  // process has begun to exit, when Node has put the default action back: it would end it by
  // SIGINT. Lingering a moment with the handlers in place takes it in.
  if (stop.signal.aborted) await sleep(200);
}

/**
 * Calls `stop` on Ctrl-C (a key in a terminal this process owns), SIGINT or SIGTERM; the returned
 * function gives the terminal back. The signal handlers stay until the process exits: a second
 * SIGINT already on its way (pnpm passes one on after the group's) must not kill it as it ends.
 */
function onInterrupt(stop: () => void): () => void {
  const signals = ['SIGINT', 'SIGTERM'] as const;
  for (const signal of signals) process.on(signal, stop);
  const stdin = process.stdin;
  const keys = stdin.isTTY && inForeground();
  const onKey = (key: Buffer) => {
    // Ctrl-C, or Ctrl-D as the end of input.
    if (key.includes(0x03) || key.includes(0x04)) stop();
  };
  if (keys) {
    stdin.setRawMode(true);
    stdin.on('data', onKey);
  }
  return () => {
    if (keys) {
      stdin.off('data', onKey);
      stdin.setRawMode(false);
      // Nothing more to read: let the process exit.
      stdin.destroy();
    }
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
    const [pgid, tpgid] = execFileSync('ps', ['-o', 'pgid=,tpgid=', '-p', String(process.pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim().split(/\s+/);
    return Number(pgid) > 0 && pgid === tpgid;
  } catch {
    return false;
  }
}
