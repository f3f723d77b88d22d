// `switchboard tail` takes Ctrl-C as the CLI starts (main.ts, terminal.ts), not once it follows:
// pressed while it still waits (here for a server that never answers), it ends tail there, with
// exit 0, and pnpm's `sh -c` never sees a SIGINT (no `ELIFECYCLE Command failed`, exit 130).
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../../..');
let silent: Server;
let url: string;
const sockets: Socket[] = [];
let connected: () => void = () => undefined;

beforeAll(async () => {
  // Accepts the CLI's request and never answers: tail waits to find the account.
  silent = createServer((socket) => {
    sockets.push(socket);
    connected();
  });
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((r) => silent.close(r));
});

/** The next request the silent server gets: by then the CLI has loaded, and has taken Ctrl-C. */
const nextRequest = () => new Promise<void>((r) => (connected = r));

/** A user's terminal environment: none of pnpm's variables, no node_modules/.bin on the PATH (as test/cli-tail.test.ts). */
function userEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm_|pnpm_|PNPM_|TURBO_|INIT_CWD$|NODE$|NODE_PATH$)/.test(name)));
  env.PATH = (process.env.PATH ?? '').split(':').filter((dir) => !dir.includes('node_modules') && !dir.includes('/_npx/')).join(':');
  return { ...env, SWITCHBOARD_OPERATOR_KEY: 'sbo_never-checked', NO_COLOR: '1' };
}

function run(command: string, args: string[]): { child: ChildProcess; output: () => string; code: Promise<number | null> } {
  // A process group of its own, as a terminal gives a command line.
  const child = spawn(command, args, { cwd: root, env: userEnv(), stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  let text = '';
  child.stdout!.on('data', (d) => (text += d));
  child.stderr!.on('data', (d) => (text += d));
  return { child, output: () => text, code: new Promise((r) => child.once('exit', (c) => r(c))) };
}

describe('switchboard tail, Ctrl-C before it follows the stream', { timeout: 120_000 }, () => {
  it('in a terminal, through npx and pnpm: exit 0, a stopped line, no ELIFECYCLE', async () => {
    const requested = nextRequest();
    // script(1) gives the command a terminal; \x03 is the key a user presses.
    const terminal = run('script', ['-qfec', `npx -y pnpm@10.34.9 switchboard tail acme --url ${url}`, '/dev/null']);
    try {
      await requested;
      terminal.child.stdin!.write('\x03');
      expect(await terminal.code, terminal.output()).toBe(0);
      expect(terminal.output()).toContain('stopped before following the stream');
      expect(terminal.output()).not.toMatch(/ELIFECYCLE|Command failed|following acme/);
    } finally {
      if (terminal.child.exitCode === null) process.kill(-terminal.child.pid!, 'SIGKILL');
    }
  });

  it('by SIGINT, without a terminal: exit 0 and the stopped line', async () => {
    const requested = nextRequest();
    const tail = run(process.execPath, [join(root, 'apps/server/src/cli/main.ts'), 'tail', 'acme', '--url', url]);
    try {
      await requested;
      process.kill(tail.child.pid!, 'SIGINT');
      expect(await tail.code, tail.output()).toBe(0);
      expect(tail.output()).toContain('stopped before following the stream');
    } finally {
      if (tail.child.exitCode === null) process.kill(-tail.child.pid!, 'SIGKILL');
    }
  });
});
