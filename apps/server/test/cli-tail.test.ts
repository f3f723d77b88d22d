// `switchboard tail` ends the way a user ends it, with Ctrl-C: quietly, with a line saying it
// stopped, exit 0. Run as the README runs it, through npx and pnpm, whose `sh -c` die of a SIGINT
// to the terminal's process group and then report `ELIFECYCLE Command failed` (exit 130).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exited, paths, removeDataDir, startServer, type ServerProcess } from '@switchboard/testkit';

const root = resolve(import.meta.dirname, '../../..');
let dataDir: string;
let server: ServerProcess;
let account: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'switchboard-cli-tail-'));
  server = await startServer({}, dataDir);
  account = (await server.cli<{ name: string }>('accounts', 'create', `tail-${process.pid}`)).name;
});
afterAll(async () => {
  await server?.stop();
  removeDataDir(dataDir);
});

/**
 * The environment of a user's terminal, not of the pnpm and turbo that run this test: none of
 * their variables, and no node_modules/.bin on the PATH (where the pinned Node would run the
 * system's npx, which then hangs in a terminal).
 */
function userEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm_|pnpm_|PNPM_|TURBO_|INIT_CWD$|NODE$|NODE_PATH$)/.test(name)));
  env.PATH = (process.env.PATH ?? '').split(':').filter((dir) => !dir.includes('node_modules') && !dir.includes('/_npx/')).join(':');
  return env;
}

interface Run { child: ChildProcess; output: () => string; code: Promise<number | null> }

function run(command: string, args: string[]): Run {
  // A process group of its own, as a terminal gives a command line.
  const child = spawn(command, args, { cwd: root, env: { ...userEnv(), ...server.storeEnv, NO_COLOR: '1' }, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  let text = '';
  child.stdout!.on('data', (d) => (text += d));
  child.stderr!.on('data', (d) => (text += d));
  const code = new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
  return { child, output: () => text, code };
}

async function until(what: string, test: () => boolean, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('switchboard tail stopped with Ctrl-C', { timeout: 120_000 }, () => {
  it('in a terminal, through npx and pnpm as the README runs it: exit 0, a stopped line, no ELIFECYCLE', async () => {
    // script(1) gives the command a terminal; \x03 is the key a user presses.
    const terminal = run('script', ['-qfec', `npx -y pnpm@10.34.9 switchboard tail ${account}`, '/dev/null']);
    try {
      await until('the tail to start following', () => terminal.output().includes(`following ${account}'s stream`));
      terminal.child.stdin!.write('\x03');
      expect(await terminal.code, terminal.output()).toBe(0);
      expect(terminal.output()).toMatch(/stopped \(--after \d+ goes on from here\)/);
      expect(terminal.output()).not.toMatch(/ELIFECYCLE|Command failed/);
    } finally {
      if (terminal.child.exitCode === null) process.kill(-terminal.child.pid!, 'SIGKILL');
    }
  });

  it('by signal, as pnpm passes it on (the group\'s SIGINT, then its own): exit 0 and the stopped line on stderr', async () => {
    const tail = run(process.execPath, [paths.cli, 'tail', account]);
    let stderr = '';
    tail.child.stderr!.on('data', (d) => (stderr += d));
    try {
      await until('the tail to start following', () => tail.output().includes('following'));
      process.kill(tail.child.pid!, 'SIGINT');
      process.kill(tail.child.pid!, 'SIGINT');
      expect(await tail.code, tail.output()).toBe(0);
      expect(stderr).toMatch(/stopped \(--after \d+ goes on from here\)/);
    } finally {
      if (tail.child.exitCode === null) {
        tail.child.kill('SIGKILL');
        await exited(tail.child);
      }
    }
  });

  it('a second SIGINT a few milliseconds after the first, as the tail exits, still ends it with exit 0', async () => {
    // pnpm passes its own SIGINT on a moment after the group's: it may reach the tail as it exits,
    // when Node has put SIGINT's default action back (it used to end it by SIGINT, 4 times in 30).
    for (let delayMs = 0; delayMs <= 42; delayMs += 3) {
      const tail = run(process.execPath, [paths.cli, 'tail', account]);
      try {
        await until('the tail to start following', () => tail.output().includes('following'));
        process.kill(tail.child.pid!, 'SIGINT');
        await new Promise((r) => setTimeout(r, delayMs));
        if (tail.child.exitCode === null && tail.child.signalCode === null) process.kill(tail.child.pid!, 'SIGINT');
        expect(await tail.code, `second SIGINT after ${delayMs} ms: ${tail.output()}`).toBe(0);
      } finally {
        if (tail.child.exitCode === null && tail.child.signalCode === null) {
          tail.child.kill('SIGKILL');
          await exited(tail.child);
        }
      }
    }
  });
});
