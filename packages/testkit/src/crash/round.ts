import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { paths, startHost, startServer, type HostProcess, type ServerProcess } from '../index.ts';
import { checkInvariants, MESSAGE_STATES, type CommandRecord, type Counts, type OverdueChange, type PlatformDouble, type PlatformReaction, type PlatformState, type StreamEvent } from './invariants.ts';
import { Random } from './random.ts';
import { StreamRecorder } from './recorder.ts';
import { planClient, runClients, type Attempt } from './workload.ts';

const run = promisify(execFile);

export type Campaign = 'server-kill' | 'host-kill';

/** Outlives a restart of the bundled server (one to two seconds here), so the host keeps its epoch across it. */
export const DEFAULT_LEASE_TTL_MS = 3_000;

/** How often the server releases quiet-hours holds whose policy or window let them go (apps/server/src/commands/holds.ts). */
export const HOLD_RELEASE_INTERVAL_MS = 5_000;

/**
 * A quiet-hours window (`HH:MM-HH:MM`, UTC) that is quiet at `at`: from 5 minutes before until 2
 * hours after, across midnight where it falls in between (from > until).
 */
export function quietWindowAround(at: number): string {
  const minute = Math.floor(at / 60_000) % 1440;
  const clock = (m: number) => {
    const wrapped = ((m % 1440) + 1440) % 1440;
    return `${String(Math.floor(wrapped / 60)).padStart(2, '0')}:${String(wrapped % 60).padStart(2, '0')}`;
  };
  return `${clock(minute - 5)}-${clock(minute + 120)}`;
}

/**
 * A message's life on the simulated platform (apps/connector/README.md, "A message's life"), fast
 * enough that deliveries, reads, failures and tapbacks come due during the burst and its kills,
 * so kills land between the platform applying a state and the server recording it. Edits and
 * unsends stay off: they touch only the two messages injected before the burst.
 */
export const LIFE_ENV: Record<string, string> = {
  SWITCHBOARD_SIM_MESSAGE_LIFE: 'on',
  SWITCHBOARD_SIM_P_FAILED: '0.1',
  SWITCHBOARD_SIM_FAIL_LATENCY_MS: '20-250',
  SWITCHBOARD_SIM_P_DELIVERED: '0.97',
  SWITCHBOARD_SIM_DELIVERY_LATENCY_MS: '20-250',
  SWITCHBOARD_SIM_P_READ: '0.5',
  SWITCHBOARD_SIM_READ_LATENCY_MS: '20-250',
  SWITCHBOARD_SIM_P_REACTION: '0.1',
  SWITCHBOARD_SIM_REACTION_LATENCY_MS: '20-200',
  SWITCHBOARD_SIM_P_REACTION_REMOVED: '0.3',
  SWITCHBOARD_SIM_REACTION_REMOVED_LATENCY_MS: '20-200',
  SWITCHBOARD_SIM_P_EDITED: '0',
  SWITCHBOARD_SIM_P_UNSENT: '0',
};

export interface RoundOptions {
  campaign: Campaign;
  seed: number;
  /**
   * SWITCHBOARD_LEASE_TTL_MS for the server; the settle deadline is derived from it. The default
   * outlives a server restart (about a second here), so the host keeps its epoch across one.
   */
  leaseTtlMs?: number;
  /**
   * Line policies on for the account, at limits the workload never reaches: every send is then
   * written by the policed path (its own transaction, under the account's lock), not the batches.
   */
  linePolicies?: boolean;
  /**
   * Quiet hours on for the account before the burst (every command accepted `held`, with a
   * command.held), turned off after a random number of the burst's answers, by the operator CLI
   * or the admin API (drawn per round); the server's release job (every 5 s) then releases them
   * (command.released, by policy_change) and they go out. In the server-kill campaign one more
   * server kill lands 0-6 s after the change, around the job.
   */
  holds?: boolean;
  clients?: number;
  commandsPerClient?: number;
  /** Keep the data directory (server store and simulator file) for inspection. */
  keep?: boolean;
  log?: (line: string) => void;
}

export interface RoundResult {
  campaign: Campaign;
  seed: number;
  counts: Counts;
  details: string[];
  serverKills: number;
  hostKills: number;
  /** How long each server kill left the port without a server, in ms. */
  downtimes: number[];
  /** Life events the platform had applied and no host had reported, sampled at each kill. */
  inFlightAtKills: number[];
  /** Requests whose outcome the client could not learn (an admin command cut off mid-flight). */
  unknown: number;
  /** Final answers other than 202 (none expected). */
  rejected: string[];
  /** From the first request of the burst to the last answer, in ms. */
  burstMs: number;
  /** With holds: when the change turning quiet hours off was asked for, and when it was made, in ms from the start of the burst. */
  holdsOffMs: { asked: number; done: number } | null;
  durationMs: number;
  dataDir: string;
}

/** Fails early, with the fix, when the bundles a round runs are missing. */
export function assertBuilt(): void {
  for (const file of [paths.serverDist, paths.cliDist, paths.connectorDist]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run \`pnpm build\` first`);
  }
}

/** The built server on a fixed port, restartable over its data directory after a kill -9. */
class RestartableServer {
  url: string;
  kills = 0;
  private process: ServerProcess;
  private readonly env: Record<string, string>;

  private constructor(process: ServerProcess, env: Record<string, string>) {
    this.process = process;
    this.env = env;
    this.url = process.url;
  }

  static async start(env: Record<string, string>, dataDir: string): Promise<RestartableServer> {
    const first = await startServer(env, dataDir, paths.serverDist, paths.cliDist);
    // Later starts reuse this port, so the host and the clients find the server where it was.
    const port = new URL(first.url).port;
    return new RestartableServer(first, { ...env, SWITCHBOARD_PORT: port });
  }

  get current(): ServerProcess {
    return this.process;
  }

  async kill(): Promise<void> {
    await this.process.kill();
    this.kills++;
  }

  async restart(): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        this.process = await startServer(this.env, this.process.dataDir, paths.serverDist, paths.cliDist);
        this.url = this.process.url;
        return;
      } catch (error) {
        // The port can stay taken for a moment after the kill; give up after about two seconds.
        if (attempt >= 20) throw error;
        await sleep(100);
      }
    }
  }

  stop(): Promise<void> {
    return this.process.stop();
  }
}

/** Reads the whole stream as JSON pages from after=0. */
async function readStream(url: string, apiKey: string): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  let after = '0';
  for (;;) {
    const response = await fetch(`${url}/v1/events?after=${after}&limit=1000`, { headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' } });
    if (response.status !== 200) throw new Error(`GET /v1/events?after=${after} answered ${response.status}: ${await response.text()}`);
    const page = (await response.json()) as { events: StreamEvent[]; nextAfter: string };
    events.push(...page.events);
    if (page.events.length === 0 || page.nextAfter === after) return events;
    after = page.nextAfter;
  }
}

async function readCommand(url: string, apiKey: string, commandId: string): Promise<CommandRecord | null> {
  const response = await fetch(`${url}/v1/commands/${commandId}`, { headers: { authorization: `Bearer ${apiKey}` } });
  if (response.status === 404) return null;
  if (response.status !== 200) throw new Error(`GET /v1/commands/${commandId} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as CommandRecord;
}

/**
 * Logical actions with more than one outgoing message on the simulated platform. Reads the
 * simulator's file directly (its schema: apps/connector/src/driver/simulator/schema.ts); the
 * `platform` command answers the same per action, one process per question.
 */
function platformDoubles(simDb: string, accountId: string): PlatformDouble[] {
  const db = new DatabaseSync(simDb, { readOnly: true });
  try {
    const rows = db
      .prepare(
        `SELECT logical_action_id, MIN(command_id) AS command_id, COUNT(*) AS messages FROM messages
         WHERE account = ? AND direction = 'out' AND logical_action_id IS NOT NULL
         GROUP BY logical_action_id HAVING COUNT(*) > 1`,
      )
      .all(accountId) as Array<{ logical_action_id: string; command_id: string | null; messages: number }>;
    return rows.map((r) => ({ logicalActionId: r.logical_action_id, commandId: r.command_id, messages: Number(r.messages) }));
  } finally {
    db.close();
  }
}

/** The simulator's file, read-only, while hosts may be writing it (WAL: a reader never waits for a writer). */
function openSim(simDb: string): DatabaseSync {
  return new DatabaseSync(simDb, { readOnly: true, timeout: 5_000 });
}

/** The life events of a message in the feed past the cursor: applied on the platform, not yet acknowledged as recorded by the server. */
const UNREPORTED_LIFE_EVENTS = `SELECT COUNT(*) AS n FROM feed WHERE account = ? AND seq > COALESCE((SELECT seq FROM feed_cursor WHERE account = ?), 0)
  AND json_extract(event, '$.type') IN ('message.delivered', 'message.read', 'message.failed', 'message.reaction')`;

function unreportedLifeEvents(simDb: string, accountId: string): number {
  const db = openSim(simDb);
  try {
    return Number((db.prepare(UNREPORTED_LIFE_EVENTS).get(accountId, accountId) as { n: number }).n);
  } finally {
    db.close();
  }
}

/**
 * Watches the platform until it holds a life event no host has reported yet (a host is reporting
 * it now, or is about to), so a kill right after lands between the platform applying a state and
 * the server recording it. Gives up after `timeoutMs`, or once `settled()` and nothing is left
 * scheduled: no state will come.
 */
async function untilLifeEventInFlight(simDb: string, accountId: string, timeoutMs: number, settled: () => boolean): Promise<void> {
  const db = openSim(simDb);
  try {
    const inFlight = db.prepare(UNREPORTED_LIFE_EVENTS);
    const scheduled = db.prepare('SELECT COUNT(*) AS n FROM scheduled WHERE account = ?');
    for (let polls = 0, deadline = Date.now() + timeoutMs; Date.now() < deadline; polls++) {
      if (Number((inFlight.get(accountId, accountId) as { n: number }).n) > 0) return;
      if (polls % 50 === 49 && settled() && Number((scheduled.get(accountId) as { n: number }).n) === 0) return;
      await sleep(1);
    }
  } finally {
    db.close();
  }
}

/**
 * Waits, with hosts up, until nothing is left scheduled on the platform and the feed's cursor is at
 * its end (the server recorded every report), or until `slackMs` past the latest due time.
 */
async function waitForLives(simDb: string, accountId: string, slackMs: number): Promise<void> {
  const started = Date.now();
  for (;;) {
    const db = openSim(simDb);
    let done: boolean;
    let deadline: number;
    try {
      const scheduled = db.prepare('SELECT COUNT(*) AS n, MAX(due_at) AS latest FROM scheduled WHERE account = ?').get(accountId) as { n: number; latest: number | null };
      const feed = db
        .prepare('SELECT COALESCE(MAX(seq), 0) AS last, COALESCE((SELECT seq FROM feed_cursor WHERE account = ?), 0) AS cursor FROM feed WHERE account = ?')
        .get(accountId, accountId) as { last: number; cursor: number };
      done = Number(scheduled.n) === 0 && Number(feed.cursor) >= Number(feed.last);
      deadline = Math.max(started, Number(scheduled.latest ?? 0)) + slackMs;
    } finally {
      db.close();
    }
    if (done || Date.now() > deadline) return;
    await sleep(50);
  }
}

/**
 * What the platform did to the account's messages: every delivered/read/failed state it applied,
 * every tapback, and the changes still scheduled that were due before `overdueBefore`.
 */
function platformLives(simDb: string, accountId: string, overdueBefore: number): { platformStates: PlatformState[]; platformReactions: PlatformReaction[]; overdueChanges: OverdueChange[] } {
  const db = openSim(simDb);
  try {
    const rows = db
      .prepare(
        `SELECT external_id, command_id, delivered_at, read_at, failed_at FROM messages
         WHERE account = ? AND direction = 'out' AND (delivered_at IS NOT NULL OR read_at IS NOT NULL OR failed_at IS NOT NULL)`,
      )
      .all(accountId) as Array<{ external_id: string; command_id: string | null; delivered_at: number | null; read_at: number | null; failed_at: number | null }>;
    const platformStates: PlatformState[] = [];
    for (const row of rows) {
      for (const state of MESSAGE_STATES) {
        const at = row[`${state}_at`];
        if (at !== null) platformStates.push({ state, messageExternalId: row.external_id, commandId: row.command_id, at: Number(at) });
      }
    }
    const platformReactions = (
      db.prepare(`SELECT external_id, associated_message, body FROM messages WHERE account = ? AND kind = 'tapback' AND direction = 'in'`).all(accountId) as Array<{
        external_id: string;
        associated_message: string;
        body: string;
      }>
    ).map((r) => ({ reactionExternalId: r.external_id, messageExternalId: r.associated_message, action: (JSON.parse(r.body) as { remove: boolean }).remove ? 'removed' : 'added' }));
    const overdueChanges = (
      db.prepare('SELECT message, due_at, change FROM scheduled WHERE account = ? AND due_at < ? ORDER BY due_at, seq').all(accountId, overdueBefore) as Array<{
        message: string;
        due_at: number;
        change: string;
      }>
    ).map((r) => ({ messageExternalId: r.message, dueAt: Number(r.due_at), change: (JSON.parse(r.change) as { change: string }).change }));
    return { platformStates, platformReactions, overdueChanges };
  } finally {
    db.close();
  }
}

async function inject(simDb: string, accountId: string, args: string[]): Promise<void> {
  await run(process.execPath, [paths.connectorDist, 'inject', '--sim-db', simDb, '--account', accountId, ...args]);
}

/** One round: set up, burst with kills, wait for settlement, check every invariant. */
export async function runRound(options: RoundOptions): Promise<RoundResult> {
  const started = Date.now();
  const log = options.log ?? (() => undefined);
  const random = new Random(options.seed);
  const leaseTtlMs = options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS;
  const clients = options.clients ?? 6;
  const commandsPerClient = options.commandsPerClient ?? 14;
  const dataDir = mkdtempSync(join(tmpdir(), `switchboard-crash-${options.seed}-`));
  const simDb = join(dataDir, 'simulator.db');
  const tag = options.seed.toString(36);

  // Every random choice is drawn here, in a fixed order, before anything runs.
  const hostEnv = {
    SWITCHBOARD_SIM_DB: simDb,
    SWITCHBOARD_SIM_SEED: String(random.int(0, 2 ** 31 - 1)),
    SWITCHBOARD_SIM_LATENCY_MS: `0-${random.int(2, 25)}`,
    SWITCHBOARD_SIM_ECHO_LATENCY_MS: `0-${random.int(0, 10)}`,
    SWITCHBOARD_SHUTDOWN_GRACE_MS: '500',
    SWITCHBOARD_LOG_LEVEL: 'warn',
    ...LIFE_ENV,
  };
  const killPlan: Array<{ afterMs: number; sameHostId: boolean; replaceAfterMs: number }> = [];
  const kills = random.int(1, 2);
  for (let i = 0; i < kills; i++) killPlan.push({ afterMs: random.int(15, 120), sameHostId: random.chance(0.5), replaceAfterMs: random.int(0, 200) });
  const clientRandoms = Array.from({ length: clients }, () => random.fork());
  const pauseRandoms = Array.from({ length: clients }, () => random.fork());
  // One more kill once every command was answered, while the last messages' states come due and
  // are reported (LIFE_ENV): between the platform applying a state and the server recording it. A
  // host comes back under its own id, which takes its lease over at once, so the round stays short.
  // Drawn last, so a seed's workload and burst kills are those it had before message lives.
  const lifeKill = { afterMs: random.int(0, 150), sameHostId: true, replaceAfterMs: random.int(0, 100) };
  // Drawn after everything else, so a seed keeps its workload and kills with or without holds:
  // quiet hours go off once this many of the burst's requests were answered (15-60 % of them),
  // by the operator CLI on the store or by the admin API; a server kill follows `killAfterMs`
  // after the change.
  const total = clients * commandsPerClient;
  const holdsPlan = options.holds
    ? { offAfterAnswers: random.int(Math.ceil(total * 0.15), Math.floor(total * 0.6)), killAfterMs: random.int(0, 6_000), via: random.chance(0.5) ? 'cli' as const : 'api' as const }
    : null;

  let server: RestartableServer | null = null;
  const hosts: HostProcess[] = [];
  let recorder: StreamRecorder | null = null;
  let poller: StreamRecorder | null = null;
  let hostKills = 0;
  const downtimes: number[] = [];
  const inFlightAtKills: number[] = [];
  try {
    server = await RestartableServer.start({ SWITCHBOARD_RATE_LIMIT: '0', SWITCHBOARD_READ_RATE_LIMIT: '0', SWITCHBOARD_LEASE_TTL_MS: String(leaseTtlMs) }, dataDir);
    const live = server;
    const account = await live.current.account(`crash-${tag}`);
    if (options.linePolicies) {
      await live.current.cli('policies', 'set', account.accountId, '--new-contacts-per-hour', '100000', '--new-contacts-per-day', '100000', '--pacing-per-minute', '600', '--loop-breaker', '10000');
    }
    let operatorKey = '';
    if (holdsPlan) {
      // Quiet now: every command of the burst is held until the change below turns quiet hours off.
      await live.current.cli('policies', 'set', account.accountId, '--quiet-hours', quietWindowAround(Date.now()), '--time-zone', 'UTC');
      if (holdsPlan.via === 'api') operatorKey = (await live.current.cli<{ secret: string }>('operator-keys', 'create', '--label', `crash-${tag}`)).secret;
    }
    const hostId = `crash-${tag}-a`;
    const startOneHost = (id: string) => {
      const host = startHost({ url: live.url, connectorKey: account.connectorKey, hostId: id, env: hostEnv, entry: paths.connectorDist });
      hosts.push(host);
      return host;
    };
    // The host logs at warn, so readiness is the server's view: the public API answers once a lease is live.
    startOneHost(hostId);
    await leaseLive(live.url, account.apiKey, 20_000);

    recorder = new StreamRecorder(() => live.url, account.apiKey, 'sse');
    recorder.start();
    poller = new StreamRecorder(() => live.url, account.apiKey, 'poll');
    poller.start();
    // Two processes at once: the simulator's file takes several writers.
    await Promise.all([
      inject(simDb, account.accountId, ['--from', '+14155550100', '--text', 'hello']),
      inject(simDb, account.accountId, ['--from', '+14155550100', '--group', '+14155550100,+14155550101', '--group-name', 'Team', '--text', 'hi all']),
    ]);
    const dm = await recorder.waitFor((e) => e.type === 'conversation.appeared' && e.data.kind === 'direct', 20_000, 'direct conversation.appeared');
    const group = await recorder.waitFor((e) => e.type === 'conversation.appeared' && e.data.kind === 'group', 20_000, 'group conversation.appeared');
    const targets = { dm: dm.event.data.conversationId as string, group: group.event.data.conversationId as string, addressPrefix: `crash-${tag}-` };
    const plans = clientRandoms.map((r, client) => planClient(r, client, commandsPerClient, targets, tag));

    log(
      `round ${options.campaign} seed ${options.seed}: ${plans.flat().length} commands from ${clients} clients, kills at ${killPlan.map((k) => `${k.afterMs} ms`).join(' then ')}` +
        `, and ${lifeKill.afterMs} ms after the burst` +
        (holdsPlan
          ? `; quiet hours off by the ${holdsPlan.via === 'cli' ? 'CLI' : 'admin API'} after ${holdsPlan.offAfterAnswers} answers` +
            `${options.campaign === 'server-kill' ? `, a server kill ${holdsPlan.killAfterMs} ms after that` : ''}`
          : ''),
    );
    // Kills one process (no delay of its own); server kills one at a time, whoever asks.
    const killNow = async (kill: { sameHostId: boolean; replaceAfterMs: number }) => {
      if (options.campaign === 'server-kill') {
        const down = Date.now();
        await live.kill();
        inFlightAtKills.push(unreportedLifeEvents(simDb, account.accountId));
        await live.restart();
        downtimes.push(Date.now() - down);
      } else {
        const victim = hosts.at(-1)!;
        await victim.kill();
        inFlightAtKills.push(unreportedLifeEvents(simDb, account.accountId));
        hostKills++;
        await sleep(kill.replaceAfterMs);
        startOneHost(kill.sameHostId ? victim.hostId : `crash-${tag}-${String.fromCharCode(98 + hostKills)}`);
      }
    };
    let killing: Promise<void> = Promise.resolve();
    const killOnce = async (kill: { afterMs: number; sameHostId: boolean; replaceAfterMs: number }) => {
      await sleep(kill.afterMs);
      const mine = killing.then(() => killNow(kill));
      killing = mine.catch(() => undefined);
      await mine;
    };
    // Quiet hours off, then in the server-kill campaign one more kill, landing around the release
    // job's next run. The CLI writes the store from its own process (it works while the server is
    // down; the server sees the change by the store's data version) and takes a second or more to
    // start, so its change lands late in the burst; the admin API's lands where it was drawn (the
    // server takes it in its own process), once a server is up.
    let burstMs = 0;
    let holdsChange: Promise<void> | null = null;
    let holdsOffMs: { asked: number; done: number } | null = null;
    const burstStarted = Date.now();
    const holdsOff = () =>
      (holdsChange ??= (async () => {
        const asked = Date.now() - burstStarted;
        if (holdsPlan!.via === 'cli') await live.current.cli('policies', 'set', account.accountId, '--quiet-hours', 'off');
        else await quietHoursOffByApi(() => live.url, operatorKey, account.accountId, Date.now() + 30_000);
        holdsOffMs = { asked, done: Date.now() - burstStarted };
        if (options.campaign === 'server-kill') await killOnce({ afterMs: holdsPlan!.killAfterMs, sameHostId: true, replaceAfterMs: 0 });
      })());
    const onAnswer = holdsPlan ? (answered: number) => void (answered >= holdsPlan.offAfterAnswers && holdsOff().catch(() => undefined)) : undefined;
    const burst = runClients(plans, pauseRandoms, live, account.apiKey, 15_000, onAnswer);
    const chaos = (async () => {
      for (const kill of killPlan) await killOnce(kill);
    })();
    const [attempts] = await Promise.all([burst.then((answers) => ((burstMs = Date.now() - burstStarted), answers)), chaos]);
    const accepted = attempts.filter((a) => a.outcome === 'accepted');
    const acceptedIds = new Set(accepted.map((a) => a.commandId!));
    const settledOnStream = () => [...recorder!.seen.values()].filter((e) => e.type === 'command.settled' && acceptedIds.has(e.data.commandId)).length;
    // Lease TTL for a dead holder to expire, plus time to execute and settle what it held (and,
    // with holds, for the release job's next run).
    const settleSlackMs = 2 * leaseTtlMs + 4_000 + (holdsPlan ? HOLD_RELEASE_INTERVAL_MS : 0);

    // The messages' lives start once a host executes the sends (after a host kill, once the next
    // host took the lease): the kill waits for a state the platform applied and no host reported.
    await sleep(lifeKill.afterMs);
    await untilLifeEventInFlight(simDb, account.accountId, settleSlackMs, () => settledOnStream() >= acceptedIds.size);
    await killOnce({ ...lifeKill, afterMs: 0 });
    // The change and its kill, if they are still to come (the settle wait starts after the last kill).
    if (holdsPlan) await holdsOff();

    const settleBy = Date.now() + settleSlackMs;
    while (settledOnStream() < acceptedIds.size && Date.now() < settleBy) await sleep(50);
    // Then until every state the platform scheduled came due and was reported (or the slack past the latest due time ran out).
    await waitForLives(simDb, account.accountId, settleSlackMs);
    // A little longer for late duplicates to show themselves.
    await sleep(300);
    await recorder.stop();
    await poller.stop();

    const finalEvents = await readStream(live.url, account.apiKey);
    const commands = new Map<string, CommandRecord | null>();
    await Promise.all([...acceptedIds].map(async (commandId) => commands.set(commandId, await readCommand(live.url, account.apiKey, commandId))));
    await Promise.all(hosts.map((host) => host.stop()));
    const lives = platformLives(simDb, account.accountId, Date.now() - settleSlackMs);
    const { counts, details } = checkInvariants({
      accepted,
      commands,
      finalEvents,
      readers: [recorder, poller],
      platformDoubles: platformDoubles(simDb, account.accountId),
      ...lives,
      statesInFlightAtKills: inFlightAtKills.reduce((n, k) => n + k, 0),
    });
    return {
      campaign: options.campaign,
      seed: options.seed,
      counts,
      details,
      serverKills: live.kills,
      hostKills,
      downtimes,
      inFlightAtKills,
      unknown: attempts.filter((a) => a.outcome === 'unknown').length,
      rejected: attempts.filter((a) => a.outcome === 'rejected').map(describeRejection),
      burstMs,
      holdsOffMs,
      durationMs: Date.now() - started,
      dataDir,
    };
  } finally {
    await recorder?.stop();
    await poller?.stop();
    for (const host of hosts) await host.kill();
    await server?.stop();
    if (!options.keep) rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * PUT /v1/admin/accounts/{id}/policies with the account's policies as they are, quiet hours off.
 * Tried again after a network error or a 5xx (the server died or is starting): the PUT is idempotent.
 */
async function quietHoursOffByApi(url: () => string, operatorKey: string, accountId: string, deadline: number): Promise<void> {
  const path = `/v1/admin/accounts/${accountId}/policies`;
  const headers = { authorization: `Bearer ${operatorKey}` };
  for (;;) {
    let answer: { status: number; text: string };
    try {
      const current = await fetch(`${url()}${path}`, { headers });
      answer = { status: current.status, text: await current.text() };
      if (current.status === 200) {
        const put = await fetch(`${url()}${path}`, {
          method: 'PUT',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ ...(JSON.parse(answer.text) as Record<string, unknown>), quietHours: null }),
        });
        answer = { status: put.status, text: await put.text() };
        if (put.status === 200) return;
      }
    } catch (error) {
      answer = { status: 0, text: networkError(error) };
    }
    if ((answer.status > 0 && answer.status < 500) || Date.now() > deadline) throw new Error(`turning quiet hours off: ${path} answered ${answer.status || answer.text}: ${answer.text}`);
    await sleep(50);
  }
}

function networkError(error: unknown): string {
  return (error as { cause?: { code?: string } })?.cause?.code ?? (error as Error)?.message ?? String(error);
}

function describeRejection(attempt: Attempt): string {
  return `${attempt.operation.kind} answered ${attempt.status ?? '-'} ${attempt.error ?? ''}`.trim();
}

/** Waits until the account has a live connector host (GET /v1/capabilities answers 200). */
async function leaseLive(url: string, apiKey: string, timeoutMs: number): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; ; await sleep(20)) {
    const answer = await fetch(`${url}/v1/capabilities`, { headers: { authorization: `Bearer ${apiKey}` } });
    await answer.body?.cancel();
    if (answer.status === 200) return;
    if (Date.now() > deadline) throw new Error(`no connector host took the lease within ${timeoutMs} ms`);
  }
}
