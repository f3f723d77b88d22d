// docs/bluebubbles.md as a reader follows it without a Mac: its commands, read from the page and
// run as written through npx and pnpm. The connector key of step 1, the stand-in of "Without a
// Mac", and the host of step 2 in front of it; then a send settles succeeded, as step 3 says.
// Only what names the reader's own setup is put in the test's place: the server's URL, the key
// step 1 printed, the account's id, the stand-in's port (one the system picks, not 1234).
// Under a loaded CI machine (npx, pnpm and the server's own tests on two cores) each step may
// take long: the waits are generous, and a failure prints every process's output.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { paths, postCommand, removeDataDir, startServer, type ServerProcess } from '@switchboard/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandsOf } from '@switchboard/tooling/readme';
import { openEventStream } from './stream.ts';

const guide = readFileSync(join(paths.root, 'docs/bluebubbles.md'), 'utf8');
const work = mkdtempSync(join(tmpdir(), 'switchboard-bluebubbles-guide-'));
let server: ServerProcess;
const serverOutput: string[] = [];
const running: ChildProcess[] = [];
/** How long one step may take on a loaded machine (a fresh npx and pnpm start included). */
const STEP_MS = 150_000;

beforeAll(async () => {
  server = await startServer({}, join(work, 'server'));
  server.child.stderr?.on('data', (chunk: Buffer) => serverOutput.push(chunk.toString()));
}, STEP_MS);
afterAll(async () => {
  // Each command ran in a process group of its own (npx, pnpm, its sh and node): stop them all.
  await Promise.all(running.map(stop));
  await server?.stop();
  removeDataDir(work);
}, 30_000);

interface Run { child: ChildProcess; output: () => string; exited: Promise<number | null> }

/** Runs one documented command line with bash in the repository, as a terminal would (its own process group). */
function shell(command: string, env: Record<string, string>): Run {
  const child = spawn('bash', ['-c', command], { cwd: paths.root, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  running.push(child);
  let text = '';
  child.stdout!.on('data', (d) => (text += d));
  child.stderr!.on('data', (d) => (text += d));
  return { child, output: () => text, exited: new Promise((r) => child.once('exit', (code) => r(code))) };
}

async function stop(child: ChildProcess): Promise<void> {
  const gone = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', r));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // The group is gone.
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), 10_000);
  await gone;
  clearTimeout(timer);
}

/** Resolves once `test` holds for the run's output; fails if it exits first or takes longer than `ms`. */
async function until(run: Run, what: string, test: (output: string) => boolean, ms = STEP_MS): Promise<void> {
  const started = Date.now();
  while (!test(run.output())) {
    const { exitCode, signalCode } = run.child;
    if (exitCode !== null || signalCode !== null) throw new Error(`no ${what}: the process exited (${exitCode ?? signalCode}) after ${Date.now() - started} ms`);
    if (Date.now() - started > ms) throw new Error(`no ${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Every process's output, for a failure's message: what the test ran, and the server's log. */
function outputs(runs: Record<string, Run>): string {
  const of = Object.entries(runs).map(([name, run]) => `--- ${name} (exit ${run.child.exitCode ?? run.child.signalCode ?? 'running'})\n${run.output()}`);
  return [...of, `--- server (exit ${server.child.exitCode ?? 'running'})\n${serverOutput.join('')}`].join('\n');
}

/** The guide's steps, each process kept in `runs` for a failure's report. */
async function followTheGuide(runs: Record<string, Run>): Promise<void> {
  const [keyStep, hostStep] = commandsOf(guide, 'Steps').map((s) => s.command);
  const [standInStep] = commandsOf(guide, 'Without a Mac').map((s) => s.command);
  expect(keyStep).toBeDefined();
  expect(hostStep).toBeDefined();
  expect(standInStep).toBeDefined();

  // The account the guide names, and a key for this test's own requests.
  const account = /switchboard connector-keys create (\S+)/.exec(keyStep!)?.[1];
  expect(account, keyStep).toBeDefined();
  const { id: accountId } = await server.cli<{ id: string }>('accounts', 'create', account!);
  const { secret: apiKey } = await server.cli<{ secret: string }>('keys', 'create', accountId, '--label', 'guide test');

  // Step 1, on the server's store.
  const key = (runs.key = shell(keyStep!, server.storeEnv));
  const keyExit = await Promise.race([key.exited, new Promise<'running'>((r) => setTimeout(() => r('running'), STEP_MS).unref())]);
  expect(keyExit, `step 1 (within ${STEP_MS} ms)`).toBe(0);
  const connectorKey = /\bsbc_[\w-]+/.exec(key.output())?.[0];
  expect(connectorKey, key.output()).toBeDefined();

  // The stand-in, on the simulated platform of this test, on a port the system picks as it
  // listens (a port probed free beforehand may be taken by the time a slow start binds it).
  const standIn = (runs['stand-in'] = shell(`${standInStep!.replaceAll('<accountId>', accountId)} --port 0`, { SWITCHBOARD_SIM_DB: join(work, 'simulator.db') }));
  await until(standIn, 'stand-in listening', (text) => /\{"url":"[^"]+"\}/.test(text));
  const standInUrl = (JSON.parse(/\{"url":"[^"]+"\}/.exec(standIn.output())![0]) as { url: string }).url;
  const password = /--password (\S+)/.exec(standInStep!)?.[1];
  expect(password, standInStep).toBeDefined();

  // Step 2, pointed at the stand-in as "Without a Mac" says, and at this test's server. Its
  // webhook receiver listens on a free port, its journal in a directory of its own.
  const hostCommand = hostStep!
    .replace('http://127.0.0.1:1234', standInUrl)
    .replace("'<BlueBubbles password>'", password!)
    .replace('https://switchboard.example', server.url)
    .replace('sbc_…', connectorKey!);
  expect(hostCommand).not.toMatch(/<|…|switchboard\.example/);
  const host = (runs.host = shell(hostCommand, { SWITCHBOARD_DATA_DIR: join(work, 'host'), SWITCHBOARD_BLUEBUBBLES_WEBHOOK_LISTEN: '127.0.0.1:0', SWITCHBOARD_HOST_ID: 'guide-mac' }));
  await until(host, 'lease acquired', (text) => text.includes('"lease acquired"'));

  // What it declared, read from the stand-in's server info (the Private API on: tapbacks too).
  const capabilities = await fetch(`${server.url}/v1/capabilities`, { headers: { authorization: `Bearer ${apiKey}` } });
  expect(capabilities.status).toBe(200);
  expect(await capabilities.json()).toMatchObject({ hostId: 'guide-mac', capabilities: expect.arrayContaining([{ name: 'command.reaction_tapback.v1' }]) });

  // Step 3: a send settles succeeded.
  const stream = await openEventStream(server.url, apiKey);
  try {
    const sent = await postCommand(server.url, apiKey, 'message.send', { target: { kind: 'recipient', recipientExternalId: '+14155550142' }, payload: { text: 'hello from the guide' } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    const settled = await stream.waitFor((e) => e.type === 'command.settled' && e.data.commandId === sent.body.commandId, STEP_MS, 'the send settled');
    expect(settled.data).toMatchObject({ status: 'succeeded', errorCode: null });
  } finally {
    stream.close();
  }
  expect(host.child.exitCode, host.output()).toBeNull();
  expect(standIn.child.exitCode, standIn.output()).toBeNull();
}

describe('docs/bluebubbles.md without a Mac, its commands as written', () => {
  it('step 1 makes a connector key; the stand-in runs; the host of step 2 takes the lease in front of it, and a send settles succeeded', { timeout: 5 * STEP_MS }, async () => {
    const runs: Record<string, Run> = {};
    try {
      await followTheGuide(runs);
    } catch (error) {
      // The processes' output says why (a slow start, a port taken, a refused lease): keep it with the failure.
      throw new Error(`${(error as Error).message}\n${outputs(runs)}`, { cause: error });
    }
  });
});
