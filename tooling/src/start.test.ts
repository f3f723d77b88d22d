// `pnpm start` as a user runs it: a clean stop on one Ctrl-C, the same demo chats after a
// restart, and a plain message when the port is taken or the connector host cannot run.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './ports.ts';

const root = resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-start-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

interface Run { child: ChildProcess; output: () => string; exited: Promise<number | null> }

/** Starts `tooling/src/start.ts` in a process group of its own, as a terminal runs a command. */
function run(port: number, dir = dataDir): Run {
  const child = spawn(process.execPath, [join(root, 'tooling/src/start.ts')], {
    cwd: root,
    env: { ...process.env, SWITCHBOARD_DATA_DIR: dir, SWITCHBOARD_PORT: String(port), NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let text = '';
  child.stdout!.on('data', (d) => (text += d));
  child.stderr!.on('data', (d) => (text += d));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, output: () => text, exited };
}

async function until(what: string, test: () => boolean, ms = 90_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const hostOf = (output: string) => /Connector host\s+(\S+)/.exec(output)?.[1];
const demoEnv = () => Object.fromEntries([...readFileSync(join(dataDir, 'demo.env'), 'utf8').matchAll(/export (\w+)=(\S+)/g)].map((m) => [m[1]!, m[2]!]));
const connectorLog = () => readFileSync(join(dataDir, 'logs/connector.log'), 'utf8');

describe('pnpm start', { timeout: 240_000 }, () => {
  it('stops cleanly on a Ctrl-C to its process group and keeps $DM and $GROUP across restarts', async () => {
    const port = await freePort();
    const first = run(port);
    await until('the first start', () => first.output().includes('Switchboard is running'));
    const before = demoEnv();
    // Its connector host's id is its own, made from the data directory.
    expect(hostOf(first.output())).toMatch(/^demo-host-[0-9a-f]{6}$/);
    // The console is served, and the operator key it prints (and demo.env holds) opens the admin API.
    expect(first.output()).toContain(`Console         ${before.SWITCHBOARD_URL}/console`);
    expect(first.output()).toContain(`Operator key    ${before.SWITCHBOARD_OPERATOR_KEY}`);
    const consolePage = await fetch(`${before.SWITCHBOARD_URL}/console`);
    expect(consolePage.status).toBe(200);
    expect(consolePage.headers.get('content-type')).toMatch(/^text\/html/);
    const overview = await fetch(`${before.SWITCHBOARD_URL}/v1/admin/overview`, { headers: { authorization: `Bearer ${before.SWITCHBOARD_OPERATOR_KEY}` } });
    expect(overview.status).toBe(200);
    // The demo's line policies are on, as the banner says, and the admin API shows them.
    const policies = await fetch(`${before.SWITCHBOARD_URL}/v1/admin/accounts/${before.SWITCHBOARD_ACCOUNT}/policies`, { headers: { authorization: `Bearer ${before.SWITCHBOARD_OPERATOR_KEY}` } });
    expect(policies.status).toBe(200);
    expect(await policies.json()).toEqual({ newContacts: { perHour: 15, perDay: 50 }, pacing: { perMinute: 10 }, loopBreaker: { maxUnanswered: 8 }, quietHours: null, firstContactApproval: false });
    expect(first.output()).toContain('Line policies   new contacts 15/h 50/day, 10/min per chat, loop breaker 8');
    expect(first.output()).toContain('Media uploads   off (SWITCHBOARD_TRANSFERS=enabled turns them on');

    // A second start on the same data directory is refused at once, naming the first and what to do instead.
    const again = run(await freePort());
    try {
      expect(await Promise.race([again.exited, new Promise((r) => setTimeout(() => r('still running'), 60_000))]), again.output()).toBe(1);
      expect(again.output()).toContain(`Another start (pid ${first.child.pid}) runs with its data in ${dataDir}.`);
      expect(again.output()).toContain(`SWITCHBOARD_DATA_DIR=${dataDir}-2 SWITCHBOARD_PORT=`);
      expect(demoEnv()).toEqual(before);
    } finally {
      if (again.child.exitCode === null) {
        process.kill(-again.child.pid!, 'SIGINT');
        await again.exited;
      }
    }

    // A new contact writes in: the newest direct conversation is now someone else's.
    execFileSync(process.execPath, [join(root, 'apps/connector/dist/main.js'), 'inject', '--account', before.SWITCHBOARD_ACCOUNT!, '--from', '+14155550999', '--text', 'hello'], {
      env: { ...process.env, SWITCHBOARD_DATA_DIR: dataDir },
    });
    await until('the new contact', () => first.output().includes('+14155550999'));

    // Group changes print as sentences, not raw JSON.
    const renamed = await fetch(`${before.SWITCHBOARD_URL}/v1/commands/group.update`, {
      method: 'POST',
      headers: { authorization: `Bearer ${before.SWITCHBOARD_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ target: { kind: 'conversation', conversationId: before.GROUP }, payload: { action: 'rename', name: 'Launch crew' } }),
    });
    expect(renamed.status).toBe(202);
    await until('the rename', () => first.output().includes(`group renamed to "Launch crew" in ${before.GROUP}`));

    // The README's misspelled field settles failed, and the terminal says why.
    const typo = await fetch(`${before.SWITCHBOARD_URL}/v1/commands/message.send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${before.SWITCHBOARD_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ target: { kind: 'conversation', conversationId: before.DM }, payload: { txt: 'typo' } }),
    });
    expect(typo.status).toBe(202);
    await until('the typo\'s reason', () => first.output().includes('failed payload_invalid: /payload/txt: Unrecognized key: "txt"'));

    // What a terminal's Ctrl-C does: SIGINT to every process of the foreground group.
    process.kill(-first.child.pid!, 'SIGINT');
    expect(await first.exited).toBe(0);
    expect(connectorLog()).toContain('"lease released"');
    expect(connectorLog()).not.toContain('second signal');
    // It says what it does, as the README says it: the host releases its lease, then the server drains.
    expect(first.output()).toMatch(/\nStopping: the connector host releases its lease… released\.\nThe server drains… stopped\.\n$/);

    // A demo with no line policy on (turned off, or made before there were any) gets them again on the next start.
    execFileSync(process.execPath, [join(root, 'apps/server/dist/cli/main.js'), 'policies', 'set', 'demo', '--new-contacts-per-hour', 'off', '--new-contacts-per-day', 'off', '--pacing-per-minute', 'off', '--loop-breaker', 'off'], {
      env: { ...process.env, SWITCHBOARD_DATA_DIR: dataDir },
    });
    const second = run(port);
    await until('the second start', () => second.output().includes('Switchboard is running'));
    expect(second.output()).toContain('Line policies   new contacts 15/h 50/day, 10/min per chat, loop breaker 8');
    // The same operator key after a restart.
    expect(demoEnv()).toMatchObject({ DM: before.DM, GROUP: before.GROUP, SWITCHBOARD_OPERATOR_KEY: before.SWITCHBOARD_OPERATOR_KEY });
    expect(hostOf(second.output())).toBe(hostOf(first.output()));

    // The README's form of the CLI whose stdout is JSON alone.
    const listed = execFileSync('npx', ['-y', 'pnpm@10.34.9', '--silent', 'switchboard', 'accounts', 'list', '--json'], {
      cwd: root,
      env: { ...process.env, SWITCHBOARD_DATA_DIR: dataDir },
      encoding: 'utf8',
    });
    expect(JSON.parse(listed)).toEqual([expect.objectContaining({ name: 'demo', id: before.SWITCHBOARD_ACCOUNT })]);
    process.kill(-second.child.pid!, 'SIGINT');
    expect(await second.exited).toBe(0);
  });

  it('names the port and the variable to change when the port is taken', async () => {
    const taken = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => taken.once('listening', r));
    const { port } = taken.address() as AddressInfo;
    try {
      const started = run(port);
      expect(await started.exited).toBe(1);
      expect(started.output()).toContain(`127.0.0.1:${port} is already in use; set SWITCHBOARD_PORT`);
      expect(started.output()).not.toContain('EADDRINUSE');
    } finally {
      taken.close();
    }
  });

  it('makes the demo keys again for a store that does not know them (another store\'s demo.json)', async () => {
    // Runs after the first test: its demo.json, in a data directory of its own with a new embedded store.
    const otherDir = mkdtempSync(join(tmpdir(), 'switchboard-start-other-'));
    const saved = JSON.parse(readFileSync(join(dataDir, 'demo.json'), 'utf8'));
    writeFileSync(join(otherDir, 'demo.json'), JSON.stringify(saved));
    const { child, output, exited } = run(await freePort(), otherDir);
    try {
      await until('the start', () => output().includes('Switchboard is running') || child.exitCode !== null);
      expect(output()).not.toContain('exited');
      const made = JSON.parse(readFileSync(join(otherDir, 'demo.json'), 'utf8'));
      expect(made.apiKey).not.toBe(saved.apiKey);
      expect(made.accountId).not.toBe(saved.accountId);
      process.kill(-child.pid!, 'SIGINT');
      expect(await exited).toBe(0);
    } finally {
      // Ctrl-C, not SIGKILL: start stops its server and host, which live in process groups of their own.
      if (child.exitCode === null) {
        process.kill(-child.pid!, 'SIGINT');
        await exited;
      }
      rmSync(otherDir, { recursive: true, force: true });
    }
  });

  it('says why the connector host stopped, from its last log line', async () => {
    // Runs after the first test, whose demo account this start reuses, with a key the server does not know.
    const demoFile = join(dataDir, 'demo.json');
    const demo = JSON.parse(readFileSync(demoFile, 'utf8'));
    writeFileSync(demoFile, JSON.stringify({ ...demo, connectorKey: 'sbc_not-a-key-the-server-knows' }));
    try {
      const started = run(await freePort());
      expect(await started.exited).toBe(1);
      expect(started.output()).toContain('connector exited (1): the server refused the lease: 401 unauthenticated');
    } finally {
      writeFileSync(demoFile, JSON.stringify(demo));
    }
  });
});
