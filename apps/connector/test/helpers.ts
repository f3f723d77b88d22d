import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postCommand, removeDataDir, startHost, startServer, type HostProcess, type ServerProcess } from '@switchboard/testkit';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { BlueBubblesStandIn } from '../src/driver/bluebubbles/standin/server.ts';
import { SimulatedPlatform, type PlatformMessage } from '../src/driver/simulator/platform.ts';
import { openEventStream, type EventStream, type StreamEnvelope } from './stream.ts';

/** The drivers the shared driver suite runs against. */
export type DriverName = 'simulator' | 'bluebubbles';
export const DRIVERS: DriverName[] = ['simulator', 'bluebubbles'];
const STAND_IN_PASSWORD = 'stand-in-password';

/**
 * A real server process, one account, its response stream, and the simulated platform file its
 * connector hosts share. Hosts are started per test with the environment the test needs.
 */
export interface Rig {
  driver: DriverName;
  /** With the bluebubbles driver: the BlueBubbles stand-in in front of the platform, shared by every host (one Mac). */
  standIn: BlueBubblesStandIn | null;
  server: ServerProcess;
  accountId: string;
  apiKey: string;
  connectorKey: string;
  simDb: string;
  /** The account's platform, read (and written, for inbound messages) by the test itself. */
  platform: SimulatedPlatform;
  stream: EventStream;
  /** What one logical action put on the platform. */
  actionMessages(logicalActionId: string): PlatformMessage[];
  /** Starts a host of the account on the shared platform file; `url` is the server's (a proxy in front of it, say). */
  host(env?: Record<string, string>, hostId?: string, url?: string): HostProcess;
  /** Stops every running host, then starts one with `env` (and, with the bluebubbles driver, the stand-in as `mac` says) and waits for its lease. */
  onlyHost(env?: Record<string, string>, mac?: Partial<BlueBubblesStandIn['options']>): Promise<HostProcess>;
  post(type: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  /** Posts a command that must be accepted, and returns its commandId. */
  command(type: string, body: unknown): Promise<string>;
  /** The command event of a command, once it arrives. */
  settled(commandId: string, timeoutMs?: number): Promise<StreamEnvelope>;
  /** Posts a command and returns its command event. */
  run(type: string, body: unknown): Promise<StreamEnvelope['data']>;
  /** Every host's log lines, for a failed test's report. */
  dump(): string;
  close(): Promise<void>;
}

/**
 * The host environment for the bluebubbles driver. The simulator's fault and latency variables
 * become the stand-in's (they describe the platform, which is the stand-in's Mac here), and the
 * OS version is what the stand-in reports, so the host learns it from server info.
 */
function blueBubblesHost(standIn: BlueBubblesStandIn, dir: string, hostId: string, env: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {
    SWITCHBOARD_DRIVER: 'bluebubbles',
    SWITCHBOARD_BLUEBUBBLES_URL: standIn.url,
    SWITCHBOARD_BLUEBUBBLES_PASSWORD: STAND_IN_PASSWORD,
    SWITCHBOARD_BLUEBUBBLES_WEBHOOK_LISTEN: '127.0.0.1:0',
    SWITCHBOARD_BLUEBUBBLES_JOURNAL: join(dir, `journal-${hostId}.db`),
    SWITCHBOARD_BLUEBUBBLES_ECHO_TIMEOUT_MS: '5000',
    SWITCHBOARD_BLUEBUBBLES_UPDATE_TIMEOUT_MS: '10000',
    SWITCHBOARD_BLUEBUBBLES_CATCHUP_INTERVAL_MS: '250',
  };
  const { faults } = standIn.options;
  for (const [name, value] of Object.entries(env)) {
    if (name === 'SWITCHBOARD_SIM_P_GATEWAY_REJECTED') faults.gatewayRejected = Number(value);
    else if (name === 'SWITCHBOARD_SIM_P_SEND_NOT_OK') faults.sendNotOk = Number(value);
    else if (name === 'SWITCHBOARD_SIM_P_ECHO_LOST') faults.echoLost = Number(value);
    else if (name === 'SWITCHBOARD_SIM_P_GROUP_UPDATE_UNVERIFIED') faults.groupUpdateUnverified = Number(value);
    else if (name === 'SWITCHBOARD_SIM_LATENCY_MS') standIn.options.sendLatencyMs = Number(value.split('-').at(-1));
    else if (name === 'SWITCHBOARD_SIM_REMOVE_STALL_MS') standIn.options.updateWaitMs = Number(value);
    else if (name === 'SWITCHBOARD_OS_MAJOR_VERSION') standIn.options.osVersion = `${value}.0`;
    else if (!name.startsWith('SWITCHBOARD_SIM_')) out[name] = value;
  }
  return out;
}

/** The stand-in as a fresh Mac: no faults, no latency, macOS 15, BlueBubbles' waits shortened for tests. */
function resetStandIn(standIn: BlueBubblesStandIn): BlueBubblesStandIn {
  Object.assign(standIn.options.faults, { gatewayRejected: 0, sendNotOk: 0, echoLost: 0, groupUpdateUnverified: 0 });
  Object.assign(standIn.options, { sendLatencyMs: 0, answerDelayMs: 0, dropWebhooks: false, attachmentMisses: 0, echoWaitMs: 1_000, updateWaitMs: 300, osVersion: '15.5', privateApi: true, helperConnected: true });
  return standIn;
}

let hostIds = 0;

/** A rig on a new server started with `serverEnv`, or on `shared` (a new account of it, left running on close). */
export async function startRig(serverEnv: Record<string, string> = {}, shared?: ServerProcess, driver: DriverName = 'simulator'): Promise<Rig> {
  const server = shared ?? (await startServer(serverEnv));
  const account = await server.account();
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-sim-'));
  const simDb = join(dir, 'simulator.db');
  const platform = new SimulatedPlatform(simDb, account.accountId);
  const standIn = driver === 'bluebubbles' ? await new BlueBubblesStandIn({ dbPath: simDb, account: account.accountId, password: STAND_IN_PASSWORD, feedPollMs: 10 }).start() : null;
  if (standIn) resetStandIn(standIn);
  const stream = await openEventStream(server.url, account.apiKey);
  const hosts: HostProcess[] = [];
  const started: HostProcess[] = [];
  const serverStderr: string[] = [];
  server.child.stderr?.on('data', (chunk: Buffer) => serverStderr.push(chunk.toString()));

  const rig: Rig = {
    driver,
    standIn,
    server,
    ...account,
    simDb,
    platform,
    stream,
    actionMessages(logicalActionId) {
      return standIn ? platform.messagesOfCommand(`switchboard-${logicalActionId}`) : platform.messagesOfAction(logicalActionId);
    },
    host(env = {}, hostId, url = server.url) {
      const id = hostId ?? `${driver}-host-${process.pid}-${++hostIds}`;
      const hostEnv = standIn ? blueBubblesHost(standIn, dir, id, env) : { SWITCHBOARD_SIM_DB: simDb, SWITCHBOARD_SIM_FEED_POLL_MS: '10', ...env };
      const host = startHost({ url, connectorKey: account.connectorKey, hostId: id, env: hostEnv });
      hosts.push(host);
      started.push(host);
      return host;
    },
    async onlyHost(env = {}, mac = {}) {
      await Promise.all(hosts.splice(0).map((h) => h.stop()));
      if (standIn) Object.assign(resetStandIn(standIn).options, mac);
      const host = rig.host(env);
      await host.leased();
      return host;
    },
    post(type, body, headers = {}) {
      return postCommand(server.url, account.apiKey, type, body, headers);
    },
    async command(type, body) {
      const answer = await rig.post(type, body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(202);
      return answer.body.commandId as string;
    },
    settled(commandId, timeoutMs = 15_000) {
      return stream.waitFor((e) => e.type === 'command.settled' && e.data.commandId === commandId, timeoutMs, `command event of ${commandId}`);
    },
    async run(type, body) {
      return (await rig.settled(await rig.command(type, body))).data;
    },
    dump() {
      const serverState = `--- server (exit ${server.child.exitCode ?? server.child.signalCode ?? 'running'})\n${serverStderr.join('')}`;
      return serverState + '\n' + started.map((h) => `--- ${h.hostId}\n${h.logs.text.slice(-60).map((l) => l.slice(0, 400)).join('\n')}\n${h.stderr.join('')}`).join('\n');
    },
    async close() {
      stream.close();
      await Promise.all(hosts.map((h) => h.kill()));
      await standIn?.stop();
      platform.close();
      if (!shared) {
        await server.stop();
        removeDataDir(server.dataDir);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return rig;
}

/**
 * One server for the file (or the describe block), started with `serverEnv`, and a new account
 * and rig for each test, handed to `use`; a failed test prints the rig's logs.
 */
export function rigPerTest(serverEnv: Record<string, string>, driver: DriverName, use: (rig: Rig) => void): void {
  let server: ServerProcess | undefined;
  let rig: Rig | undefined;
  beforeAll(async () => {
    server = await startServer(serverEnv);
  });
  afterAll(async () => {
    await server?.stop();
    if (server) removeDataDir(server.dataDir);
  });
  beforeEach(async () => {
    rig = await startRig({}, server, driver);
    use(rig);
  });
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') console.error(rig?.dump());
    await rig?.close();
  });
}

/** Someone writes to the account from `address`; resolves once the stream shows it. */
export async function inbound(rig: Rig, from: string, text: string, conversationExternalId?: string): Promise<{ conversationId: string; messageExternalId: string }> {
  const injected = rig.platform.receive({ from, text, ...(conversationExternalId ? { conversationExternalId } : {}) });
  const event = await rig.stream.waitFor((e) => e.type === 'message.received' && e.data.messageExternalId === injected.messageExternalId, 15_000, `message.received ${injected.messageExternalId}`);
  return { conversationId: event.data.conversationId, messageExternalId: injected.messageExternalId };
}

/** group.create, then the group's ids once it appeared. */
export async function createGroup(rig: Rig, participants: string[], name?: string): Promise<{ conversationId: string; externalId: string }> {
  const commandId = await rig.command('group.create', { target: { kind: 'participants', participantExternalIds: participants }, payload: { text: 'welcome', ...(name ? { name } : {}) } });
  const settled = await rig.settled(commandId);
  expect(settled.data).toMatchObject({ status: 'succeeded', conversationId: expect.any(String) });
  const externalId = rig.platform.conversationCreatedBy(rig.driver === 'bluebubbles' ? `switchboard-${commandId}` : commandId)!.externalId;
  return { conversationId: settled.data.conversationId, externalId };
}

export const toConversation = (conversationId: string) => ({ kind: 'conversation', conversationId });

/** Polls a condition of the platform (another process writes it) until it holds or the deadline passes. */
export async function until<T>(condition: () => T | null | undefined | false, timeoutMs = 15_000, what = 'the condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = condition();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not hold within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The command events of a command in the durable log (JSON pages), not just what the open stream saw. */
export async function commandEventsInLog(rig: Rig): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  let after = '0';
  const read = async () => {
    const response = await fetch(`${rig.server.url}/v1/events?after=${after}&limit=1000`, { headers: { authorization: `Bearer ${rig.apiKey}`, accept: 'application/json' } });
    return (await response.json()) as { events: StreamEnvelope[]; nextAfter: string };
  };
  for (;;) {
    // A read is safe to repeat; once, for a kept-alive connection the server closed as it was reused.
    const page = await read().catch(read);
    for (const e of page.events) if (e.type === 'command.settled') counts.set(e.data.commandId, (counts.get(e.data.commandId) ?? 0) + 1);
    if (page.events.length === 0) return counts;
    after = page.nextAfter;
  }
}

export { removeDataDir, startServer };
