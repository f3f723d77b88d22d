// `pnpm start`: the whole service on one machine. Starts the server and one simulated connector
// host on the embedded store (./.switchboard), makes sure a demo account with a direct and a group
// conversation exists, prints what a client needs, then shows the response stream as it happens.
// Logs of both processes go to .switchboard/logs/. Ctrl-C stops everything, saying what it does.
//
// On one PostgreSQL database (SWITCHBOARD_DATABASE_URL) any number of starts run side by side, each
// with a data directory and a port of its own (docs/postgresql.md): each start's connector host has
// an id of its own, so one holds the demo account's lease and the others stand by, and every start
// uses the one demo account and its two conversations.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, createWriteStream, existsSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, rmSync, writeFileSync, type WriteStream } from 'node:fs';
import { hostname } from 'node:os';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { styleText } from 'node:util';

const root = resolve(import.meta.dirname, '../..');
const dataDir = resolve(process.env.SWITCHBOARD_DATA_DIR ?? join(process.cwd(), '.switchboard'));
const port = process.env.SWITCHBOARD_PORT ?? '7300';
const serverEntry = join(root, 'apps/server/dist/main.js');
const cliEntry = join(root, 'apps/server/dist/cli/main.js');
const connectorEntry = join(root, 'apps/connector/dist/main.js');
const serverFlags: string[] = JSON.parse(readFileSync(join(root, 'apps/server/package.json'), 'utf8')).switchboard.nodeFlags;
const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (style: Parameters<typeof styleText>[0], text: string) => (color ? styleText(style, text) : text);

interface Demo { accountId: string; apiKey: string; connectorKey: string; operatorKey: string; direct: string; group: string }

mkdirSync(join(dataDir, 'logs'), { recursive: true });
const env = { ...process.env, SWITCHBOARD_DATA_DIR: dataDir, SWITCHBOARD_PORT: port };

/**
 * One start per data directory. A second would run a second server on the same embedded store, a
 * connector host with the same id, and write its own URL over the first one's demo.env. A second
 * start beside the first (a replica on one PostgreSQL database) gets a directory and a port of its own.
 */
function claimDataDir(): void {
  const lock = join(dataDir, 'start.pid');
  const holder = () => {
    try {
      return Number.parseInt(readFileSync(lock, 'utf8'), 10);
    } catch {
      return NaN;
    }
  };
  for (;;) {
    try {
      writeFileSync(lock, `${process.pid}\n`, { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const pid = holder();
    if (pid > 0 && pid !== process.pid && running(pid)) {
      console.error(paint('red', `Another start (pid ${pid}) runs with its data in ${dataDir}.`));
      console.error(`To run a second one beside it, give it a data directory and a port of its own:\n  ${paint('bold', `SWITCHBOARD_DATA_DIR=${dataDir}-2 SWITCHBOARD_PORT=${Number(port) + 1} npx -y pnpm@10.34.9 start`)}`);
      process.exit(1);
    }
    // Left by a start that was killed: nothing runs there.
    rmSync(lock, { force: true });
  }
  process.on('exit', () => {
    if (holder() === process.pid) rmSync(lock, { force: true });
  });
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

claimDataDir();

/**
 * The connector host's id: one of its own for this data directory on this machine, the same on
 * every start. Starts that share a PostgreSQL database then run hosts with different ids: one holds
 * the lease, the others stand by. With one id they would take the lease from each other (a host id
 * takes its own live lease over at once, as a restarted host must), so the connector stops a host
 * whose lease another process with its id took, and this start with it. SWITCHBOARD_HOST_ID, when
 * set, is used as it is.
 */
const hostId = process.env.SWITCHBOARD_HOST_ID || `demo-host-${createHash('sha256').update(`${hostname()}\0${dataDir}`).digest('hex').slice(0, 6)}`;

interface Child { name: string; process: ChildProcess; logFile: string; logFrom: number; out: WriteStream }
const children: Child[] = [];

function start(name: string, entry: string, flags: string[] = [], extra: Record<string, string> = {}): ChildProcess {
  const logFile = join(dataDir, 'logs', `${name}.log`);
  const log = openSync(logFile, 'a');
  // Its own process group: Ctrl-C reaches this process only, which stops each child once.
  const child = spawn(process.execPath, [...flags, entry], { env: { ...env, ...extra }, stdio: ['ignore', 'pipe', log], detached: true });
  const out = child.stdout!.pipe(createWriteStream('', { fd: log }));
  children.push({ name, process: child, logFile, logFrom: fstatSync(log).size, out });
  child.once('exit', async (code, signal) => {
    if (stopping) return;
    // Its last lines may still be on their way through the pipe into the log: read it once they are in.
    await Promise.race([finished(out).catch(() => undefined), new Promise((r) => setTimeout(r, 2_000))]);
    if (stopping) return;
    console.error(paint('red', `${name} exited (${signal ?? code}): ${lastError(logFile)}`));
    console.error(paint('dim', `full log: ${logFile}`));
    void stop(1);
  });
  return child;
}

/** The log's JSON records written since `from` (a byte offset). */
function recordsSince(logFile: string, from: number): Array<{ msg?: string; level?: number }> {
  const fd = openSync(logFile, 'r');
  try {
    const size = fstatSync(fd).size;
    const bytes = Buffer.alloc(Math.max(0, size - from));
    readSync(fd, bytes, 0, bytes.length, from);
    return bytes.toString('utf8').split('\n').flatMap((line) => {
      try {
        return [JSON.parse(line)];
      } catch {
        return [];
      }
    });
  } finally {
    closeSync(fd);
  }
}

/** The last line of a log that is not a routine JSON record (else its last warning): what a process said as it failed. */
function lastError(logFile: string): string {
  const lines = readFileSync(logFile, 'utf8').trimEnd().split('\n').reverse();
  let warning: string | undefined;
  for (const line of lines) {
    try {
      const record = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } };
      const said = record.err?.message ?? record.msg ?? line;
      if ((record.level ?? 0) >= 50) return said;
      if ((record.level ?? 0) >= 40) warning ??= said;
    } catch {
      if (line.trim()) return line.trim();
    }
  }
  return warning ?? 'no message';
}

/** Resolves with the URL once the server logs that it listens. A server that stops first is reported by `start`'s exit handler, which ends the run. */
function listening(child: ChildProcess): Promise<string> {
  return new Promise((resolvePromise) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      try {
        const record = JSON.parse(line) as { msg?: string; url?: string };
        if (record.msg === 'switchboard listening' && record.url) resolvePromise(record.url);
      } catch {
        // not a log line
      }
    });
  });
}

function cli(...args: Array<string | { quiet: true }>): any {
  const quiet = args.some((a) => typeof a !== 'string');
  const argv = args.filter((a): a is string => typeof a === 'string');
  return JSON.parse(execFileSync(process.execPath, [cliEntry, ...argv, '--json'], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', quiet ? 'pipe' : 'inherit'] }));
}

function inject(accountId: string, ...args: string[]): any {
  return JSON.parse(execFileSync(process.execPath, [connectorEntry, 'inject', '--account', accountId, ...args], { env, encoding: 'utf8' }));
}

async function api(url: string, key: string, path: string): Promise<any> {
  const response = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return response.json();
}

const demoFile = join(dataDir, 'demo.json');
const saveDemo = (demo: Partial<Demo>) => writeFileSync(demoFile, JSON.stringify(demo, null, 2), { mode: 0o600 });

/**
 * The demo account and its keys, made once and kept in the data directory (readable by you only),
 * for as long as the server knows them: after a switch of store (SWITCHBOARD_DATABASE_URL, a new
 * database) they are made again, for the store's own account named demo if it has one.
 */
async function demoAccount(url: string): Promise<Partial<Demo> & Omit<Demo, 'direct' | 'group'>> {
  if (existsSync(demoFile)) {
    const saved = JSON.parse(readFileSync(demoFile, 'utf8'));
    const known = await fetch(`${url}/v1/conversations?limit=1`, { headers: { authorization: `Bearer ${saved.apiKey}` } });
    if (known.status !== 401) return { ...saved, operatorKey: await operatorKey(url, saved.operatorKey) };
  }
  const demoOf = () => (cli('accounts', 'list') as Array<{ id: string; name: string }>).find((a) => a.name === 'demo');
  let account = demoOf();
  if (!account) {
    try {
      account = cli('accounts', 'create', 'demo', { quiet: true }) as { id: string; name: string };
    } catch (error) {
      // Another start on the same database made it a moment ago: use that one.
      account = demoOf();
      if (!account) throw error;
    }
  }
  const apiKey = cli('keys', 'create', account.id, '--label', 'demo').secret;
  const connectorKey = cli('connector-keys', 'create', account.id, '--label', 'demo host').secret;
  const demo = { accountId: account.id, apiKey, connectorKey, operatorKey: await operatorKey(url, undefined) };
  saveDemo(demo);
  return demo;
}

/** The demo's operator key for the console: the saved one while the server knows it, else a new one (saved with the rest). */
async function operatorKey(url: string, saved: string | undefined): Promise<string> {
  if (saved) {
    const known = await fetch(`${url}/v1/admin/overview`, { headers: { authorization: `Bearer ${saved}` } });
    if (known.status !== 401) return saved;
  }
  const key = cli('operator-keys', 'create', '--label', 'demo console').secret as string;
  if (existsSync(demoFile)) saveDemo({ ...JSON.parse(readFileSync(demoFile, 'utf8')), operatorKey: key });
  return key;
}

type LinePolicies = { newContacts: { perHour: number | null; perDay: number | null } | null; pacing: { perMinute: number } | null; loopBreaker: { maxUnanswered: number } | null };

/**
 * The demo's line policies (docs/line-policies.md): on when the demo is made, and again on a later
 * start that finds none, so an agent tried against the demo meets them; an operator's own settings
 * are kept. Loose enough for the README's walk, which sends at most 4 messages to one conversation
 * in a minute, 3 in a row without a reply, and writes to 3 new contacts.
 */
function demoPolicies(accountId: string): LinePolicies {
  const current = cli('policies', accountId) as LinePolicies;
  if (current.newContacts || current.pacing || current.loopBreaker) return current;
  return cli('policies', 'set', accountId, '--new-contacts-per-hour', '15', '--new-contacts-per-day', '50', '--pacing-per-minute', '10', '--loop-breaker', '8') as LinePolicies;
}

/** The banner's line: what is on (`new contacts 15/h 50/day, 10/min per chat, loop breaker 8`). */
function policiesLine(p: LinePolicies): string {
  const contacts = [p.newContacts?.perHour != null ? `${p.newContacts.perHour}/h` : '', p.newContacts?.perDay != null ? `${p.newContacts.perDay}/day` : ''].filter(Boolean).join(' ');
  const on = [contacts && `new contacts ${contacts}`, p.pacing && `${p.pacing.perMinute}/min per chat`, p.loopBreaker && `loop breaker ${p.loopBreaker.maxUnanswered}`].filter(Boolean);
  return on.length ? on.join(', ') : 'off';
}

/**
 * A direct and a group conversation: someone writes to the account, and a group is started with it.
 * Found once and kept in demo.json, so $DM and $GROUP name the same chats after every restart.
 */
async function conversations(url: string, demo: Partial<Demo> & Omit<Demo, 'direct' | 'group'>): Promise<{ direct: string; group: string }> {
  if (demo.direct && demo.group) return { direct: demo.direct, group: demo.group };
  const find = async () => {
    const page = await api(url, demo.apiKey, '/v1/conversations?limit=200');
    // Newest first: the oldest of each kind is the demo's own, whatever the README's examples added since.
    const list = page.conversations as { conversationId: string; kind: string }[];
    return { direct: list.findLast((c) => c.kind === 'direct')?.conversationId, group: list.findLast((c) => c.kind === 'group')?.conversationId };
  };
  let found = await find();
  if (!found.direct) inject(demo.accountId, '--from', '+14155550123', '--text', 'Hi! Is my order on its way?');
  if (!found.group) inject(demo.accountId, '--from', '+14155550123', '--group', '+14155550123,dana@example.com', '--group-name', 'Launch team', '--text', 'Welcome to the launch team');
  const deadline = Date.now() + 15_000;
  while (!found.direct || !found.group) {
    if (Date.now() > deadline) throw new Error('the demo conversations did not appear; see .switchboard/logs/connector.log');
    await new Promise((r) => setTimeout(r, 100));
    found = await find();
  }
  saveDemo({ ...demo, direct: found.direct, group: found.group });
  return { direct: found.direct, group: found.group };
}

/**
 * Waits until this start's connector host holds the account's lease, or stands by while another
 * host holds it (a start beside this one on the same database), so that the service is running
 * when the banner says so: commands are executed, and Ctrl-C finds a host that can release its
 * lease. Answers the holder's host id; null if none holds it after a while.
 */
async function leaseHolder(url: string, apiKey: string): Promise<string | null> {
  const connector = children.find((c) => c.name === 'connector')!;
  const deadline = Date.now() + 20_000;
  for (;;) {
    const said = new Set(recordsSince(connector.logFile, connector.logFrom).map((r) => r.msg));
    if (said.has('lease acquired')) return hostId;
    // Once the host runs (from then on a signal stops it as it should), whoever holds the lease.
    if (said.has('host starting')) {
      const answer = await fetch(`${url}/v1/capabilities`, { headers: { authorization: `Bearer ${apiKey}` } }).catch(() => null);
      const body = (await answer?.json().catch(() => null)) as { hostId?: string } | null | undefined;
      // A lease of this host's id that its log does not show is a killed start's: this host takes it over at once.
      const held = answer?.status === 200 ? (body?.hostId ?? null) : null;
      if (held && held !== hostId) return held;
    }
    if (Date.now() > deadline) return null;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Prints the account's response stream, one coloured line per event. */
async function follow(url: string, apiKey: string): Promise<void> {
  let lastId = '0';
  for (;;) {
    try {
      const response = await fetch(`${url}/v1/events`, { headers: { authorization: `Bearer ${apiKey}`, accept: 'text/event-stream', 'last-event-id': lastId } });
      const lines = createInterface({ input: Readable.fromWeb(response.body as never) });
      let data = '';
      for await (const line of lines) {
        if (line.startsWith('data: ')) data = line.slice(6);
        else if (line === '' && data) {
          const event = JSON.parse(data) as { id: string; type: string; time: string; data: Record<string, unknown> };
          if (event.id) lastId = event.id;
          print(event);
          data = '';
        }
      }
    } catch {
      if (stopping) return;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

function print(event: { id?: string; type?: string; time?: string; data: Record<string, unknown> }): void {
  const d = event.data;
  const time = paint('dim', (event.time ?? '').slice(11, 23));
  let text: string;
  switch (event.type) {
    case 'command.settled':
      // A failure says why (errorMessage): the first thing someone trying the demo wants to know.
      text = `${d.commandType} ${paint('dim', String(d.commandId))} ${d.status === 'succeeded' ? paint('green', 'succeeded') : `${paint('red', 'failed')} ${paint('yellow', String(d.errorCode))}${d.errorMessage ? `: ${String(d.errorMessage)}` : ''}`}`;
      break;
    case 'message.received':
      text = `${paint('cyan', 'message from')} ${d.senderExternalId}: ${JSON.stringify(d.text)} ${paint('dim', `in ${d.conversationId}`)}`;
      break;
    case 'message.sent':
      text = `${paint('cyan', 'message sent')} ${d.messageExternalId} ${paint('dim', `in ${d.conversationId} for ${d.commandId}`)}`;
      break;
    case 'message.delivered':
    case 'message.read':
      text = `${paint('cyan', event.type === 'message.read' ? 'message read' : 'message delivered')} ${d.messageExternalId} ${paint('dim', `in ${d.conversationId}`)}`;
      break;
    case 'message.failed':
      text = `${paint('red', 'message failed')} ${d.messageExternalId} ${paint('yellow', String(d.reason))}${d.platformMessage ? `: ${String(d.platformMessage)}` : ''} ${paint('dim', `for ${d.commandId}`)}`;
      break;
    case 'message.reaction':
      text = `${paint('cyan', `tapback ${d.action}`)} ${d.reaction} by ${d.senderExternalId} on ${d.messageExternalId}`;
      break;
    case 'message.edited':
      text = `${paint('cyan', 'message edited')} by ${d.senderExternalId}: ${JSON.stringify(d.text)}`;
      break;
    case 'message.unsent':
      text = `${paint('cyan', 'message unsent')} by ${d.senderExternalId}: ${d.messageExternalId}`;
      break;
    case 'conversation.appeared':
      text = `${paint('cyan', 'conversation appeared')} ${d.kind} ${d.conversationId} ${paint('dim', JSON.stringify(d.participants))}`;
      break;
    case 'group.renamed':
      text = `${paint('cyan', 'group renamed')} to ${JSON.stringify(d.name)} ${paint('dim', `in ${d.conversationId}`)}`;
      break;
    case 'group.participants_changed': {
      const list = (label: string, ids: unknown) => ((ids as string[]).length ? ` ${label} ${(ids as string[]).join(', ')}` : '');
      text = `${paint('cyan', 'group members changed')}${list('added', d.added)}${list('removed', d.removed)} ${paint('dim', `in ${d.conversationId}`)}`;
      break;
    }
    default:
      text = `${paint('cyan', String(event.type ?? 'reset'))} ${paint('dim', JSON.stringify(d))}`;
  }
  console.log(`${time} ${text}`);
}

let stopping = false;
const STOP_LIMIT_MS = 15_000;

/** What a stopped connector host did with its lease, from the log it wrote while it ran. */
function leaseOutcome(child: Child): string {
  const said = new Set(recordsSince(child.logFile, child.logFrom).map((r) => r.msg));
  if (said.has('lease released')) return paint('green', 'released.');
  if (said.has('lease already gone at release')) return paint('yellow', 'it was gone already.');
  if (said.has('lease release failed; it expires on its own')) return paint('yellow', 'the server did not answer; it expires on its own.');
  return paint('green', said.has('lease acquired') ? 'stopped.' : 'it held none.');
}

/**
 * Ctrl-C (or SIGTERM, or a process that stopped): stops the connector host first, so it can
 * release its lease while the server still answers, then the server, which drains; each step is
 * said as it happens. `code` is the exit status, 1 also when a step fails.
 */
async function stop(code = 0, why: 'interrupted' | 'failed' = 'failed'): Promise<void> {
  if (stopping) return;
  stopping = true;
  const said = (text: string) => (why === 'interrupted' ? process.stdout.write(text) : undefined);
  setTimeout(() => {
    said(`${paint('red', `still running after ${STOP_LIMIT_MS / 1_000} s: killed`)} ${paint('dim', `(logs in ${join(dataDir, 'logs')})`)}\n`);
    process.exit(1);
  }, STOP_LIMIT_MS).unref();
  const steps: Record<string, [string, (child: Child) => string]> = {
    connector: ['the connector host releases its lease… ', leaseOutcome],
    server: ['the server drains… ', () => paint('green', 'stopped.')],
  };
  let first = true;
  for (const child of [...children].reverse()) {
    const { process: running } = child;
    if (running.exitCode !== null || running.signalCode !== null) continue;
    const [doing, done] = steps[child.name]!;
    said(first ? `${paint('bold', 'Stopping:')} ${doing}` : `${doing[0]!.toUpperCase()}${doing.slice(1)}`);
    first = false;
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((r) => running.once('exit', (c, s) => r([c, s])));
    running.kill('SIGTERM');
    const [exitCode, signal] = await exited;
    // Its last lines may still be on their way through the pipe into the log.
    await Promise.race([finished(child.out).catch(() => undefined), new Promise((r) => setTimeout(r, 2_000))]);
    // SIGTERM before it set up its own handling (it had just started): it held nothing, and it stopped.
    if (exitCode === 0 || signal === 'SIGTERM') said(`${done(child)}\n`);
    else {
      said(`${paint('red', `it exited (${signal ?? exitCode}): ${lastError(child.logFile)}`)}\n`);
      code = 1;
    }
  }
  process.exit(code);
}
process.on('SIGINT', () => void stop(0, 'interrupted'));
process.on('SIGTERM', () => void stop(0, 'interrupted'));
// In a terminal, read Ctrl-C as a key rather than let it signal the whole process group: the
// package manager's shells would die of it and report a failure for a clean stop.
if (process.stdin.isTTY) {
  process.stdin.setRawMode(true);
  process.stdin.on('data', (key: Buffer) => {
    if (key.includes(0x03) || key.includes(0x04)) void stop(0, 'interrupted');
  });
}
// Children live in their own process groups; never leave one behind.
process.on('exit', () => {
  for (const { process: child } of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

// Build what changed (turbo's cache makes this quick), in this process so that Ctrl-C reaches no shell.
execFileSync(join(root, 'node_modules/.bin/turbo'), ['run', 'build', '--filter=@switchboard/server', '--filter=@switchboard/connector', '--output-logs=errors-only'], { cwd: root, stdio: 'inherit' });

const server = start('server', serverEntry, serverFlags);
const url = await listening(server);
const account = await demoAccount(url);
const policies = demoPolicies(account.accountId);
start('connector', connectorEntry, [], { SWITCHBOARD_URL: url, SWITCHBOARD_CONNECTOR_KEY: account.connectorKey, SWITCHBOARD_HOST_ID: hostId });
const { direct, group } = await conversations(url, account);
const holder = await leaseHolder(url, account.apiKey);
const envFile = join(dataDir, 'demo.env');
writeFileSync(
  envFile,
  `export SWITCHBOARD_URL=${url}\nexport SWITCHBOARD_API_KEY=${account.apiKey}\nexport DM=${direct}\nexport GROUP=${group}\nexport SWITCHBOARD_ACCOUNT=${account.accountId}\nexport SWITCHBOARD_OPERATOR_KEY=${account.operatorKey}\n`,
  { mode: 0o600 },
);

console.log(`
${paint('bold', 'Switchboard is running')} ${paint('dim', `(data in ${dataDir})`)}

  Base URL        ${paint('cyan', url)}
  API key         ${paint('bold', account.apiKey)}
  Direct chat     ${direct}
  Group chat      ${group}
  Console         ${paint('cyan', `${url}/console`)} ${paint('dim', 'sign in with the operator key')}
  Operator key    ${paint('bold', account.operatorKey)}
  Line policies   ${policiesLine(policies)} ${paint('dim', '(switchboard policies demo)')}
  Media uploads   ${process.env.SWITCHBOARD_TRANSFERS === 'enabled' ? `on ${paint('dim', '(POST /v1/transfers: docs/media.md)')}` : `off ${paint('dim', '(SWITCHBOARD_TRANSFERS=enabled turns them on: docs/media.md)')}`}
  Connector host  ${hostId} ${paint('dim', holder === hostId ? '(holds the lease)' : holder ? `(stands by: ${holder} holds the lease)` : '(no lease yet)')}

In another terminal:  ${paint('bold', `source ${relative(process.cwd(), envFile).startsWith('..') ? envFile : relative(process.cwd(), envFile)}`)}  then try the README's curl examples.
Commands settle below, as the response stream reports them. Ctrl-C stops the service.
`);
await follow(url, account.apiKey);
