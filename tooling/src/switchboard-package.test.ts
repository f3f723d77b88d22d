// The `switchboard` executable as an operator gets it: packed, installed with npm into a prefix
// of its own (from the registry: its dependencies and its Node), and run from there. The
// systemd unit in docs/deploying.md is run as written: its ExecStart line, its Environment.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './ports.ts';
import { packSwitchboard } from './switchboard-package.ts';

const root = resolve(import.meta.dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'switchboard-install-'));
const prefix = join(work, 'prefix');
const switchboard = join(prefix, 'bin/switchboard');
// What systemd gives a service: its own PATH, nothing inherited.
const systemdPath = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

beforeAll(async () => {
  const tarball = await packSwitchboard(work);
  expect(tarball).toMatch(/switchboard-server-[\d.]+\.tgz$/);
  // As docs/deploying.md says, with a prefix of the test's own. npm runs on whatever Node is on
  // PATH (the machine's may be older than Switchboard needs: the package brings its own).
  execFileSync('npm', ['install', '-g', '--prefix', prefix, tarball], { cwd: work, stdio: ['ignore', 'ignore', 'pipe'] });
}, 180_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

function run(args: string[], env: Record<string, string> = {}) {
  return spawnSync(switchboard, args, { encoding: 'utf8', env: { PATH: systemdPath, NO_COLOR: '1', ...env }, timeout: 20_000 });
}

/** The processes whose command line mentions `text`, by pid. */
function processesWith(text: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text);
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

describe('the installed switchboard executable', () => {
  it('packs the server, the CLI and the connector host with their Node', () => {
    const home = join(prefix, 'lib/node_modules/@switchboard/server');
    for (const file of ['bin/switchboard', 'dist/main.js', 'dist/cli/main.js', 'dist/connector/main.js', 'node_modules/node/bin/node', 'node_modules/redoc/bundles/redoc.standalone.js']) {
      expect(existsSync(join(home, file)), file).toBe(true);
    }
  });

  it('switchboard --help, and switchboard connector --help', () => {
    const help = run(['--help']);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain('Usage: switchboard <command>');
    expect(help.stdout).toContain('serve');
    const connector = run(['connector', '--help']);
    expect(connector.status, connector.stderr).toBe(0);
    expect(connector.stdout).toContain('run one connector host');
  });

  it('switchboard accounts create x, over SWITCHBOARD_DATA_DIR; its errors under --json', () => {
    const dataDir = mkdtempSync(join(work, 'data-'));
    const created = run(['accounts', 'create', 'x', '--json'], { SWITCHBOARD_DATA_DIR: dataDir });
    expect(created.status, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ name: 'x', outboundPaused: false });
    expect(existsSync(join(dataDir, 'switchboard.db'))).toBe(true);
    const again = run(['accounts', 'create', 'x', '--json'], { SWITCHBOARD_DATA_DIR: dataDir });
    expect(again.status).toBe(2);
    expect(JSON.parse(again.stderr)).toMatchObject({ error: 'account_exists' });

    // A benchmark, not a test: what one CLI call costs (docs/benchmarks.md, "CLI start-up").
    for (const args of [['--help'], ['accounts', 'list', '--json']]) {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const start = performance.now();
        expect(run(args, { SWITCHBOARD_DATA_DIR: dataDir }).status).toBe(0);
        times.push(performance.now() - start);
      }
      times.sort((a, b) => a - b);
      console.log(`switchboard ${args.join(' ')}: median ${times[2]!.toFixed(0)} ms, min ${times[0]!.toFixed(0)} ms, max ${times[4]!.toFixed(0)} ms (5 calls)`);
    }
  });

  it('switchboard --help and a usage error load no more than the CLI: they run without zod and the store drivers, which accounts list needs', () => {
    const home = join(prefix, 'lib/node_modules/@switchboard/server');
    // The store drivers' chunks (the ones that import node:sqlite or postgres) and zod, moved away a moment.
    const drivers = readdirSync(join(home, 'dist')).filter((name) => name.endsWith('.js'))
      .filter((name) => /from "(node:sqlite|postgres)"/.test(readFileSync(join(home, 'dist', name), 'utf8')))
      .map((name) => join(home, 'dist', name));
    expect(drivers.length).toBeGreaterThan(0);
    const away = [...drivers, join(home, 'node_modules/zod')];
    for (const path of away) renameSync(path, `${path}.away`);
    try {
      const help = run(['--help']);
      expect(help.status, help.stderr).toBe(0);
      expect(help.stdout).toContain('Usage: switchboard <command>');
      const wrong = run(['acounts', 'list']);
      expect(wrong.status).toBe(2);
      expect(wrong.stderr).toContain('unknown command "acounts list"');
      // The check means something: a command that opens the store needs what was moved.
      const list = run(['accounts', 'list'], { SWITCHBOARD_DATA_DIR: mkdtempSync(join(work, 'data-')) });
      expect(list.status).toBe(1);
    } finally {
      for (const path of away) renameSync(`${path}.away`, path);
    }
  });

  it("runs docs/deploying.md's systemd unit as written: serves /healthz, and SIGTERM leaves no process behind", { timeout: 60_000 }, async () => {
    const doc = readFileSync(join(root, 'docs/deploying.md'), 'utf8');
    const unit = [...doc.matchAll(/```ini\n([\s\S]*?)```/g)].map((m) => m[1]!).find((block) => block.includes('ExecStart='));
    expect(unit).toBeDefined();
    // The doc's paths and port, moved to the test's own.
    const dataDir = mkdtempSync(join(work, 'state-'));
    const port = await freePort();
    const local = (text: string) => text.replaceAll('/opt/switchboard', prefix).replaceAll('/var/lib/switchboard', dataDir);
    const env: Record<string, string> = { PATH: systemdPath };
    for (const [, name, value] of unit!.matchAll(/^Environment=(\w+)=(.*)$/gm)) env[name!] = local(value!);
    expect(env).toMatchObject({ SWITCHBOARD_DATA_DIR: dataDir, SWITCHBOARD_PORT: expect.any(String) });
    env.SWITCHBOARD_PORT = String(port);
    const execStart = /^ExecStart=(.*)$/m.exec(unit!)![1]!;
    expect(execStart).not.toMatch(/["'\\$]/); // split on spaces below, as systemd would split it
    const [command, ...args] = local(execStart).split(/\s+/);

    const service = spawn(command!, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    service.stdout.on('data', (d) => (output += d));
    service.stderr.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((r) => service.once('exit', (code) => r(code)));
    try {
      const deadline = Date.now() + 20_000;
      let health: Response | undefined;
      while (!health && Date.now() < deadline) {
        health = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
        if (!health) await new Promise((r) => setTimeout(r, 100));
      }
      expect(health?.status, output).toBe(200);
      const servers = processesWith(join(prefix, 'lib/node_modules/@switchboard/server/dist/main.js'));
      expect(servers).toHaveLength(1);

      service.kill('SIGTERM');
      const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('still running'), 5_000))]);
      // Nothing is left: no server orphaned by a launcher that died alone.
      const deadlineGone = Date.now() + 5_000;
      while (processesWith(prefix).length > 0 && Date.now() < deadlineGone) await new Promise((r) => setTimeout(r, 100));
      expect(processesWith(prefix), `left running after SIGTERM\n${output}`).toEqual([]);
      // The process the supervisor started was the server itself (the launcher exec'd Node), which drained and exited 0.
      expect(servers).toEqual([service.pid]);
      expect(code, output).toBe(0);
    } finally {
      for (const pid of processesWith(prefix)) process.kill(pid, 'SIGKILL');
    }
  });
});
