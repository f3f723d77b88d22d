// The README's quick start walked as a new user walks it, with the commands read from README.md
// and the guides in docs/ themselves: the start command in a terminal, every curl and CLI example
// in order, a restart, and Ctrl-C. A changed documented command is the command this test runs.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './ports.ts';
import { blocks, commandsOf, commandsOutsideShellBlocks, documentedCommands, type Step } from './readme.ts';

const root = resolve(import.meta.dirname, '../..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const guide = (name: string) => readFileSync(join(root, 'docs', name), 'utf8');
const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-readme-'));
const started: ChildProcess[] = [];
const terminals: ChildProcess[] = [];
const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;
afterAll(async () => {
  // A failed walk leaves `start` running: Ctrl-C stops its server and host, which run in process
  // groups of their own that killing the terminal would leave behind.
  for (const terminal of terminals.filter(running)) {
    terminal.stdin!.write('\x03');
    await new Promise<void>((r) => {
      const timer = setTimeout(r, 15_000);
      terminal.once('exit', () => (clearTimeout(timer), r()));
    });
  }
  for (const child of started.filter(running)) process.kill(-child.pid!, 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

/** The longest one README step (the start's build included) may take before it counts as hung. */
const STEP_LIMIT_MS = 180_000;

/** Resolves once `test` holds for `text()`, checked whenever the child writes. */
function whenOutput(child: ChildProcess, text: () => string, test: (text: string) => boolean, what: string): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    // A hang fails here, naming what it waited for and what it saw, not at the test's own timeout.
    const timer = setTimeout(() => reject(new Error(`no ${what} within ${STEP_LIMIT_MS} ms:\n${text()}`)), STEP_LIMIT_MS);
    const check = () => {
      if (test(text())) {
        clearTimeout(timer);
        child.stdout!.off('data', check);
        child.stderr!.off('data', check);
        child.off('exit', exited);
        resolvePromise();
      }
    };
    const exited = () => (test(text()) ? resolvePromise() : reject(new Error(`exited before ${what}:\n${text()}`)));
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.once('exit', exited);
    check();
  });
}

interface Run { child: ChildProcess; stdout: () => string; stderr: () => string; exited: Promise<number | null>; headers: () => string }

let runs = 0;
function spawnRun(command: string, args: string[], env: NodeJS.ProcessEnv, limitMs: number | null = STEP_LIMIT_MS): Run {
  // Where curl (below) writes each response's headers: curl 7.88 crashes writing them to a pipe.
  const headersFile = join(dataDir, `headers-${++runs}.txt`);
  env = { ...env, README_TEST_HEADERS: headersFile };
  // A process group of its own, as a terminal gives each command line.
  const child = spawn(command, args, { cwd: root, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  started.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  // A step still running after its limit is killed, so it fails (exit null) with its output.
  const limit = limitMs === null ? undefined : setTimeout(() => {
    err += `\n[killed after ${limitMs} ms: ${[command, ...args].join(' ').slice(-300)}]`;
    process.kill(-child.pid!, 'SIGKILL');
  }, limitMs);
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => (clearTimeout(limit), r(code))));
  return { child, stdout: () => out, stderr: () => err, exited, headers: () => (existsSync(headersFile) ? readFileSync(headersFile, 'utf8') : '') };
}

/** The Switchboard response stream of one account, read over SSE in the background. */
class Stream {
  readonly events: Array<{ id: string; type: string; data: Record<string, any> }> = [];
  private readonly stop = new AbortController();
  private waiters: Array<() => void> = [];

  constructor(url: string, apiKey: string) {
    void this.read(url, apiKey).catch(() => undefined);
  }

  private async read(url: string, apiKey: string): Promise<void> {
    const response = await fetch(`${url}/v1/events`, { headers: { authorization: `Bearer ${apiKey}`, accept: 'text/event-stream' }, signal: this.stop.signal });
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body!) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const data = buffer.slice(0, end).split('\n').find((line) => line.startsWith('data: '));
        buffer = buffer.slice(end + 2);
        if (!data) continue;
        this.events.push(JSON.parse(data.slice(6)));
        for (const wake of this.waiters.splice(0)) wake();
      }
    }
  }

  /** The first event (seen or to come) that matches. */
  async next(match: (event: Stream['events'][number]) => boolean, what: string): Promise<Stream['events'][number]> {
    const deadline = AbortSignal.timeout(30_000);
    for (;;) {
      const found = this.events.find(match);
      if (found) return found;
      if (deadline.aborted) throw new Error(`no ${what} on the stream`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        deadline.addEventListener('abort', () => r(), { once: true });
      });
    }
  }

  close(): void {
    this.stop.abort();
  }
}

describe('the README quick start, as written', () => {
  it('starts, answers every curl and CLI example as the README says, keeps its conversations across a restart, stops on Ctrl-C', { timeout: 480_000 }, async () => {
    const port = await freePort();
    // The README's data directory, ./.switchboard, is this test's own directory.
    const env = { ...process.env, SWITCHBOARD_DATA_DIR: dataDir, SWITCHBOARD_PORT: String(port), NO_COLOR: '1' };
    const asWritten = (command: string) => command.replaceAll(/(^|\s)\.switchboard\//g, `$1${dataDir}/`);
    const quickStart = commandsOf(readme, 'Quick start');
    const operating = commandsOf(guide('operating.md'), 'The operator CLI');
    // The guides' examples, on the same service, after the quick start's.
    const guides = [
      ...commandsOf(guide('sending-and-reading.md'), 'Sending'),
      ...commandsOf(guide('sending-and-reading.md'), 'Reading'),
      ...commandsOf(guide('stream-and-webhooks.md'), 'The stream'),
      ...commandsOf(guide('stream-and-webhooks.md'), 'Webhooks'),
      ...commandsOf(guide('console.md'), 'Open it'),
      ...commandsOf(guide('console.md'), 'The CLI against a remote server'),
      ...commandsOf(guide('line-policies.md'), 'The policies'),
    ];

    // The first command: install, then start. The install half is CI's own first line (.ci/run),
    // already run by the time this test runs; running it again while other suites run is unsafe.
    const [first, testCommand] = quickStart;
    const [install, startCommand] = first!.command.split(' && ');
    expect(install).toMatch(/^npx -y pnpm@[\d.]+ install$/);
    expect(startCommand).toMatch(/^npx -y pnpm@[\d.]+ start$/);
    expect(testCommand!.command).toMatch(/^npx -y pnpm@[\d.]+ install && npx -y pnpm@[\d.]+ test$/); // CI runs it, exactly

    /** `start` in a terminal (script(1) gives it one), so Ctrl-C is the key a user presses. */
    const startInTerminal = async () => {
      const run = spawnRun('script', ['-qfec', startCommand!, '/dev/null'], env, null);
      terminals.push(run.child);
      await whenOutput(run.child, run.stdout, (text) => text.includes('Switchboard is running'), 'Switchboard is running');
      return run;
    };
    const ctrlC = async (run: Run) => {
      run.child.stdin!.write('\x03');
      expect(await run.exited, run.stdout()).toBe(0);
      expect(run.stdout()).not.toMatch(/ELIFECYCLE|second signal/);
      // It says what it does, as the README says: the host releases its lease, then the server drains.
      expect(run.stdout()).toMatch(/Stopping: the connector host releases its lease… released\.\r?\nThe server drains… stopped\.\r?\n/);
    };
    const demoEnv = () => Object.fromEntries([...readFileSync(join(dataDir, 'demo.env'), 'utf8').matchAll(/export (\w+)=(\S+)/g)].map((m) => [m[1]!, m[2]!]));

    let terminal = await startInTerminal();
    const demo = demoEnv();
    expect(Object.keys(demo).sort()).toEqual(['DM', 'GROUP', 'SWITCHBOARD_ACCOUNT', 'SWITCHBOARD_API_KEY', 'SWITCHBOARD_OPERATOR_KEY', 'SWITCHBOARD_URL']);
    let stream = new Stream(demo.SWITCHBOARD_URL!, demo.SWITCHBOARD_API_KEY!);

    const sources: string[] = [];
    const ids = new Map<string, string>(); // Idempotency-Key -> commandId
    const values: Record<string, string> = {};
    let acmeKey: string | undefined;
    const ran: string[] = [];

    /** Runs one README command through bash, curl's response headers kept aside. */
    const shell = (step: Step): Run => {
      const script = ['curl() { command curl --dump-header "$README_TEST_HEADERS" "$@"; }', ...sources, asWritten(fill(step.command))].join('\n');
      ran.push(step.command);
      return spawnRun('bash', ['-c', script], env);
    };
    const fill = (command: string) =>
      command.replaceAll(/<(\w+)>/g, (_, name: string) => {
        if (!(name in values)) throw new Error(`the README's placeholder <${name}> has no value here: ${command}`);
        return values[name]!;
      });
    const statusOf = (headers: string) => Number([...headers.matchAll(/^HTTP\/[\d.]+ (\d{3})/gm)].at(-1)?.[1]);
    const sendAs = async (apiKey: string) => {
      const response = await fetch(`${demo.SWITCHBOARD_URL}/v1/commands/message.send`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ target: { kind: 'recipient', recipientExternalId: '+14155550100' }, payload: { text: 'hi' } }),
      });
      return { status: response.status, body: (await response.json()) as { error: string; message: string } };
    };

    const walk = async (step: Step) => {
      const { command, comment } = step;
      if (/^source /.test(command)) {
        sources.push(asWritten(command));
        const run = shell(step);
        expect(await run.exited, run.stderr()).toBe(0);
        return;
      }
      if (/<endpointId>/.test(command) && !values.endpointId) {
        // An endpoint to act on: one of acme's, made with the key the README's `keys create acme` printed.
        const created = await fetch(`${demo.SWITCHBOARD_URL}/v1/webhook-endpoints`, {
          method: 'POST',
          headers: { authorization: `Bearer ${acmeKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ url: `http://127.0.0.1:${port}/receiver` }),
        });
        expect(created.status).toBe(201);
        values.endpointId = ((await created.json()) as { id: string }).id;
      }
      const follows = /curl -sN|switchboard tail /.test(command);
      const run = shell(step);
      if (follows) {
        // It follows until Ctrl-C: wait for what it shows first, then press it.
        const sse = command.includes('curl');
        await whenOutput(run.child, sse ? run.stdout : run.stderr, (text) => (sse ? text.includes('data: ') : text.includes('following')), `${command} to show the stream`);
        process.kill(-run.child.pid!, 'SIGINT');
        await run.exited;
        if (sse) {
          expect(statusOf(run.headers())).toBe(200);
          expect(run.headers()).toMatch(/content-type: text\/event-stream/i);
        }
        return;
      }
      const code = await run.exited;
      expect(code, `${command}\n${run.stdout()}\n${run.stderr()}`).toBe(0);
      const stdout = run.stdout();

      if (/^curl .*-X POST "\$SWITCHBOARD_URL\/v1\/commands\//.test(command)) {
        expect(statusOf(run.headers()), command).toBe(202);
        const ack = JSON.parse(stdout) as { commandId: string; status: string; disposition: string };
        const key = /Idempotency-Key: ([^"]+)"/.exec(command)?.[1];
        if (key && ids.has(key)) expect(ack, command).toMatchObject({ disposition: 'adopted', commandId: ids.get(key) });
        else expect(ack, command).toMatchObject({ status: 'queued', disposition: 'queued' });
        if (key) ids.set(key, ack.commandId);
        values.commandId ??= ack.commandId;
        // A poll's id is the commandId of the send that made it.
        if (command.includes('\\"kind\\":\\"poll\\"')) values.pollId = ack.commandId;
        // What the README says it settles as, else succeeded.
        const claim = /settles failed \((\w+)\)/.exec(comment);
        const settled = await stream.next((e) => e.type === 'command.settled' && e.data.commandId === ack.commandId, `settlement of ${command}`);
        expect(settled.data, command).toMatchObject(claim ? { status: 'failed', errorCode: claim[1] } : { status: 'succeeded', errorCode: null });
      } else if (/^curl -s -X POST "\$SWITCHBOARD_URL\/v1\/webhook-endpoints"/.test(command)) {
        expect(statusOf(run.headers()), command).toBe(201);
        expect(JSON.parse(stdout), command).toMatchObject({ id: expect.any(String), secret: expect.stringMatching(/^whsec_/) });
      } else if (/^curl /.test(command)) {
        expect(statusOf(run.headers()), command).toBe(200);
        const body = JSON.parse(stdout) as Record<string, any>;
        if (command.includes('/v1/polls/')) expect(body).toMatchObject({ pollId: values.pollId, question: 'Lunch on Friday?' });
        if (command.includes('/v1/capabilities')) expect(body).toMatchObject({ hostId: expect.stringMatching(/^demo-host-[0-9a-f]{6}$/) });
        if (command.includes('/v1/commands/')) expect(body).toMatchObject({ commandId: values.commandId, status: 'succeeded' });
        if (command.includes('/v1/events?after=0')) expect(body.events.length).toBeGreaterThan(0);
        if (command.includes('/v1/events?after=now')) expect(body).toMatchObject({ events: [], nextAfter: expect.stringMatching(/^[1-9]\d*$/) });
      } else if (/ inject /.test(command)) {
        // Someone wrote on the simulated platform: an agent sees it on the stream.
        const written = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { messageExternalId: string };
        await stream.next((e) => e.type === 'message.received' && e.data.messageExternalId === written.messageExternalId, 'the injected message');
        // What a later command names the message by.
        values.messageExternalId = written.messageExternalId;
      } else if (/ --json$/.test(command)) {
        expect(() => JSON.parse(stdout), `stdout of ${command} is JSON alone`).not.toThrow();
      } else if (/ keys create acme/.test(command)) {
        acmeKey = /\bsb_[\w-]+/.exec(stdout)?.[0];
        expect(acmeKey, stdout).toBeDefined();
      } else if (/ operator-keys create/.test(command)) {
        expect(stdout).toMatch(command.includes('read-only') ? /\(read-only\)/ : /\(full\)/);
        expect(stdout).toMatch(/\bsbo_[\w-]+/);
      } else if (/ accounts list --url /.test(command)) {
        expect(stdout).toMatch(/\bdemo\b/);
      } else if (/ connector-keys create acme/.test(command)) {
        expect(stdout).toMatch(/\bsbc_[\w-]+/);
      } else if (/ transfer-limits set /.test(command)) {
        expect(stdout).toMatch(/max bytes\s+25,000,000\n\s+allowed types\s+image\/\*, video\/\*, application\/pdf/);
      } else if (/ hosts$/.test(command.replace(/\s+#.*$/, ''))) {
        expect(stdout).toContain('demo-host');
      }
      // "commands answer 503 outbound_paused", and after resume the key's account has no host.
      const answers = /commands answer (\d{3}) (\w+)/.exec(comment);
      if (answers) expect(await sendAs(acmeKey!)).toMatchObject({ status: Number(answers[1]), body: { error: answers[2] } });
      if (/ resume acme/.test(command)) {
        const refused = await sendAs(acmeKey!);
        expect(refused).toMatchObject({ status: 503, body: { error: 'no_live_connector' } });
        expect(refused.body.message).toContain('connector-keys create');
      }
    };

    for (const step of quickStart.slice(2)) {
      // pnpm's `docs` renders the reference; docs:check renders it in a browser, so it is left to that.
      if (/ run docs\b/.test(step.command)) continue;
      await walk(step);
    }
    for (const step of operating) await walk(step);
    for (const step of guides) await walk(step);
    expect(guides.length).toBeGreaterThanOrEqual(15);
    for (const step of [...operating, ...guides]) expect(ran).toContain(step.command);
    expect(ran.filter((c) => c.startsWith('curl')).length).toBeGreaterThanOrEqual(10);
    expect(ran.filter((c) => / switchboard /.test(c)).length).toBeGreaterThanOrEqual(10);

    // Ctrl-C: the host releases its lease, the server drains, nothing reports a failure.
    stream.close();
    await ctrlC(terminal);
    expect(readFileSync(join(dataDir, 'logs/connector.log'), 'utf8')).toContain('"lease released"');

    // Restart: the same conversations, and the first reply's key still adopts the same command.
    terminal = await startInTerminal();
    expect(demoEnv()).toEqual(demo);
    stream = new Stream(demo.SWITCHBOARD_URL!, demo.SWITCHBOARD_API_KEY!);
    try {
      await walk(quickStart.find((s) => s.command.includes('Idempotency-Key'))!);
    } finally {
      stream.close();
    }
    await ctrlC(terminal);
  });

  it('documents every command with the pinned runtime: no bare node (an older one cannot run .ts) and no bare pnpm', () => {
    const readmes = [
      'README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`),
      'packages/sdk/README.md', 'packages/mcp/README.md', 'apps/connector/README.md', 'apps/connector/src/driver/bluebubbles/README.md',
    ];
    const offenders = readmes.flatMap((file) =>
      documentedCommands(readFileSync(join(root, file), 'utf8'))
        .filter((command) => /^(?:\w+=\S+\s+)*(?:node|pnpm|switchboard|switchboard-connector)\s/.test(command))
        .map((command) => `${file}: ${command}`),
    );
    expect(offenders).toEqual([]);
  });
});

describe('the docs\' block reader (readme.ts)', () => {
  const page = [
    '# A guide',
    '',
    '## Steps',
    '',
    '1. Make a key:',
    '',
    '   ```sh',
    '   npx -y pnpm@10.34.9 switchboard keys create acme   # shown once',
    '   ```',
    '',
    '2. Start the host:',
    '',
    '   ```text',
    '   npx -y pnpm@10.34.9 connector run \\',
    '     --driver bluebubbles',
    '   ```',
    '',
    '~~~',
    'curl -s "$SWITCHBOARD_URL/healthz"',
    '~~~',
    '',
    '```json',
    '{ "curl": "not a command" }',
    '```',
    '',
    '```ini',
    'ExecStart=/opt/switchboard/bin/switchboard serve',
    '```',
  ].join('\n');

  it('reads fenced blocks of every language, indented ones (in a list item) too, their indent taken off', () => {
    expect(blocks(page)).toEqual([
      { language: 'sh', text: 'npx -y pnpm@10.34.9 switchboard keys create acme   # shown once' },
      { language: 'text', text: 'npx -y pnpm@10.34.9 connector run \\\n  --driver bluebubbles' },
      { language: '', text: 'curl -s "$SWITCHBOARD_URL/healthz"' },
      { language: 'json', text: '{ "curl": "not a command" }' },
      { language: 'ini', text: 'ExecStart=/opt/switchboard/bin/switchboard serve' },
    ]);
  });

  it('takes the commands from ```sh blocks, indented ones too, and names the shell commands left in other blocks', () => {
    expect(commandsOf(page, 'Steps')).toEqual([{ command: 'npx -y pnpm@10.34.9 switchboard keys create acme   # shown once', comment: 'shown once' }]);
    expect(commandsOutsideShellBlocks(page)).toEqual(['npx -y pnpm@10.34.9 connector run \\', 'curl -s "$SWITCHBOARD_URL/healthz"']);
  });
});
