import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { paths, startHost, startServer, type HostProcess, type ServerProcess } from '../index.ts';
import { checkInvariants, type CommandRecord, type Counts, type PlatformDouble, type StreamEvent } from './invariants.ts';
import { Random } from './random.ts';
import { StreamRecorder } from './recorder.ts';
import { planClient, runClients, type Attempt } from './workload.ts';

const run = promisify(execFile);

export type Campaign = 'server-kill' | 'host-kill';

/** Outlives a restart of the bundled server (one to two seconds here), so the host keeps its epoch across it. */
export const DEFAULT_LEASE_TTL_MS = 3_000;

export interface RoundOptions {
  campaign: Campaign;
  seed: number;
  /**
   * SWITCHBOARD_LEASE_TTL_MS for the server; the settle deadline is derived from it. The default
   * outlives a server restart (about a second here), so the host keeps its epoch across one.
   */
  leaseTtlMs?: number;
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
  /** Requests whose outcome the client could not learn (an admin command cut off mid-flight). */
  unknown: number;
  /** Final answers other than 202 (none expected). */
  rejected: string[];
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
  };
  const killPlan: Array<{ afterMs: number; sameHostId: boolean; replaceAfterMs: number }> = [];
  const kills = random.int(1, 2);
  for (let i = 0; i < kills; i++) killPlan.push({ afterMs: random.int(15, 120), sameHostId: random.chance(0.5), replaceAfterMs: random.int(0, 200) });
  const clientRandoms = Array.from({ length: clients }, () => random.fork());
  const pauseRandoms = Array.from({ length: clients }, () => random.fork());

  let server: RestartableServer | null = null;
  const hosts: HostProcess[] = [];
  let recorder: StreamRecorder | null = null;
  let poller: StreamRecorder | null = null;
  let hostKills = 0;
  const downtimes: number[] = [];
  try {
    server = await RestartableServer.start({ SWITCHBOARD_RATE_LIMIT: '0', SWITCHBOARD_READ_RATE_LIMIT: '0', SWITCHBOARD_LEASE_TTL_MS: String(leaseTtlMs) }, dataDir);
    const live = server;
    const account = await live.current.account(`crash-${tag}`);
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
    await inject(simDb, account.accountId, ['--from', '+14155550100', '--text', 'hello']);
    await inject(simDb, account.accountId, ['--from', '+14155550100', '--group', '+14155550100,+14155550101', '--group-name', 'Team', '--text', 'hi all']);
    const dm = await recorder.waitFor((e) => e.type === 'conversation.appeared' && e.data.kind === 'direct', 20_000, 'direct conversation.appeared');
    const group = await recorder.waitFor((e) => e.type === 'conversation.appeared' && e.data.kind === 'group', 20_000, 'group conversation.appeared');
    const targets = { dm: dm.event.data.conversationId as string, group: group.event.data.conversationId as string, addressPrefix: `crash-${tag}-` };
    const plans = clientRandoms.map((r, client) => planClient(r, client, commandsPerClient, targets, tag));

    log(`round ${options.campaign} seed ${options.seed}: ${plans.flat().length} commands from ${clients} clients, kills at ${killPlan.map((k) => `${k.afterMs} ms`).join(' then ')}`);
    const burst = runClients(plans, pauseRandoms, live, account.apiKey, 15_000);
    const chaos = (async () => {
      for (const kill of killPlan) {
        await sleep(kill.afterMs);
        if (options.campaign === 'server-kill') {
          const down = Date.now();
          await live.kill();
          await live.restart();
          downtimes.push(Date.now() - down);
        } else {
          const victim = hosts.at(-1)!;
          await victim.kill();
          hostKills++;
          await sleep(kill.replaceAfterMs);
          startOneHost(kill.sameHostId ? victim.hostId : `crash-${tag}-${String.fromCharCode(98 + hostKills)}`);
        }
      }
    })();
    const [attempts] = await Promise.all([burst, chaos]);

    const accepted = attempts.filter((a) => a.outcome === 'accepted');
    const acceptedIds = new Set(accepted.map((a) => a.commandId!));
    // Lease TTL for a dead holder to expire, plus time to execute and settle what it held.
    const settleBy = Date.now() + 2 * leaseTtlMs + 4_000;
    const settledOnStream = () => [...recorder!.seen.values()].filter((e) => e.type === 'command.settled' && acceptedIds.has(e.data.commandId)).length;
    while (settledOnStream() < acceptedIds.size && Date.now() < settleBy) await sleep(50);
    // A little longer for late duplicates to show themselves.
    await sleep(300);
    await recorder.stop();
    await poller.stop();

    const finalEvents = await readStream(live.url, account.apiKey);
    const commands = new Map<string, CommandRecord | null>();
    for (const commandId of acceptedIds) commands.set(commandId, await readCommand(live.url, account.apiKey, commandId));
    for (const host of hosts) await host.stop();
    const { counts, details } = checkInvariants({
      accepted,
      commands,
      finalEvents,
      readers: [recorder, poller],
      platformDoubles: platformDoubles(simDb, account.accountId),
    });
    return {
      campaign: options.campaign,
      seed: options.seed,
      counts,
      details,
      serverKills: live.kills,
      hostKills,
      downtimes,
      unknown: attempts.filter((a) => a.outcome === 'unknown').length,
      rejected: attempts.filter((a) => a.outcome === 'rejected').map(describeRejection),
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
