import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postCommand, removeDataDir, startHost, startServer, type HostProcess, type ServerProcess } from '@switchboard/testkit';
import { expect } from 'vitest';
import { SimulatedPlatform } from '../src/driver/simulator/platform.ts';
import { openEventStream, type EventStream, type StreamEnvelope } from './stream.ts';

/**
 * A real server process, one account, its response stream, and the simulated platform file its
 * connector hosts share. Hosts are started per test with the environment the test needs.
 */
export interface Rig {
  server: ServerProcess;
  accountId: string;
  apiKey: string;
  connectorKey: string;
  simDb: string;
  /** The account's platform, read (and written, for inbound messages) by the test itself. */
  platform: SimulatedPlatform;
  stream: EventStream;
  /** Starts a host of the account on the shared platform file. */
  host(env?: Record<string, string>, hostId?: string): HostProcess;
  /** Stops every running host, then starts one with `env` and waits for its lease. */
  onlyHost(env?: Record<string, string>): Promise<HostProcess>;
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

/** A rig on a new server started with `serverEnv`, or on `shared` (a new account of it, left running on close). */
export async function startRig(serverEnv: Record<string, string> = {}, shared?: ServerProcess): Promise<Rig> {
  const server = shared ?? (await startServer(serverEnv));
  const account = await server.account();
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-sim-'));
  const simDb = join(dir, 'simulator.db');
  const platform = new SimulatedPlatform(simDb, account.accountId);
  const stream = await openEventStream(server.url, account.apiKey);
  const hosts: HostProcess[] = [];
  const started: HostProcess[] = [];
  const serverStderr: string[] = [];
  server.child.stderr?.on('data', (chunk: Buffer) => serverStderr.push(chunk.toString()));

  const rig: Rig = {
    server,
    ...account,
    simDb,
    platform,
    stream,
    host(env = {}, hostId) {
      const host = startHost({ url: server.url, connectorKey: account.connectorKey, ...(hostId ? { hostId } : {}), env: { SWITCHBOARD_SIM_DB: simDb, SWITCHBOARD_SIM_FEED_POLL_MS: '10', ...env } });
      hosts.push(host);
      started.push(host);
      return host;
    },
    async onlyHost(env = {}) {
      await Promise.all(hosts.splice(0).map((h) => h.stop()));
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
  const externalId = rig.platform.conversationCreatedBy(commandId)!.externalId;
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
