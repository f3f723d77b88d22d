import { afterAll, expect, test } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postCommand, removeDataDir, startHost, startServer, type HostProcess, type ServerProcess } from '@switchboard/testkit';
import { testDatabase } from '@switchboard/testkit/postgres';
import { SimulatedPlatform } from '../src/driver/simulator/platform.ts';
import { until } from './helpers.ts';
import { openEventStream, type EventStream, type StreamEnvelope } from './stream.ts';

const COMMANDS = 300;
const CONCURRENCY = 12;
const LEASE_TTL_MS = 1_000;

const servers: ServerProcess[] = [];
const hosts: HostProcess[] = [];
const streams: EventStream[] = [];
const simDir = mkdtempSync(join(tmpdir(), 'switchboard-sim-'));
let platform: SimulatedPlatform | null = null;

afterAll(async () => {
  for (const s of streams) s.close();
  await Promise.all(hosts.map((h) => h.kill()));
  platform?.close();
  for (const s of servers) {
    await s.kill();
    removeDataDir(s.dataDir);
  }
  rmSync(simDir, { recursive: true, force: true });
});

/** A subscriber that follows its replica and, when that replica dies, resumes on another with its last id. */
class Subscriber {
  readonly seen: StreamEnvelope[] = [];
  private stream: EventStream | null = null;
  private readonly apiKey: string;

  constructor(apiKey: string) {
    this.apiKey = apiKey;
  }

  async follow(server: ServerProcess): Promise<void> {
    this.stream?.close();
    const stream = await openEventStream(server.url, this.apiKey, this.seen.at(-1)?.id ?? '0');
    stream.onEvent((event) => this.seen.push(event));
    streams.push(stream);
    this.stream = stream;
  }
}

test('three servers on one PostgreSQL database, two connector hosts: kill -9 a replica and the lease holder mid-burst; every accepted command settles once, every subscriber sees every event once, in order', { timeout: 240_000 }, async () => {
  const env = { SWITCHBOARD_DATABASE_URL: await testDatabase(`replicas-${process.pid}-${Date.now()}`), SWITCHBOARD_RATE_LIMIT: '0', SWITCHBOARD_LEASE_TTL_MS: String(LEASE_TTL_MS) };
  for (let i = 0; i < 3; i++) servers.push(await startServer(env));
  const account = await servers[0]!.account();
  const simDb = join(simDir, 'simulator.db');
  platform = new SimulatedPlatform(simDb, account.accountId);

  // One subscriber per replica; hosts long-poll replicas 0 and 1; replica 2 is the one killed.
  const subscribers = servers.map(() => new Subscriber(account.apiKey));
  await Promise.all(subscribers.map((s, i) => s.follow(servers[i]!)));
  const hostEnv = { SWITCHBOARD_SIM_DB: simDb, SWITCHBOARD_SIM_FEED_POLL_MS: '10', SWITCHBOARD_SIM_LATENCY_MS: '0-2', SWITCHBOARD_SIM_ECHO_LATENCY_MS: '0-2' };
  for (let i = 0; i < 2; i++) hosts.push(startHost({ url: servers[i]!.url, connectorKey: account.connectorKey, hostId: `replica-host-${i}`, env: hostEnv }));
  await Promise.race(hosts.map((h) => h.leased()));

  const injected = platform.receive({ from: '+14155550150', text: 'hello' });
  const appeared = await until(() => subscribers[2]!.seen.find((e) => e.type === 'message.received' && e.data.messageExternalId === injected.messageExternalId), 15_000, 'the inbound message on replica 2');
  const target = { kind: 'conversation', conversationId: appeared.data.conversationId };

  const live = new Set([0, 1, 2]);
  const accepted = new Set<string>();
  let posted = 0;
  let killedHost = false;
  let killedServer = false;
  const worker = async () => {
    while (posted < COMMANDS) {
      const n = posted++;
      if (n === Math.floor(COMMANDS / 3) && !killedHost) {
        killedHost = true;
        const holder = (await (await fetch(`${servers[0]!.url}/v1/capabilities`, { headers: { authorization: `Bearer ${account.apiKey}` } })).json()) as { hostId: string };
        await hosts.find((h) => h.hostId === holder.hostId)!.kill();
      }
      if (n === Math.floor((2 * COMMANDS) / 3) && !killedServer) {
        killedServer = true;
        live.delete(2);
        await servers[2]!.kill();
        await subscribers[2]!.follow(servers[0]!);
      }
      // An agent-turn key makes the retry on another replica safe: the same command, adopted.
      const key = `burst-${n}`;
      for (let attempt = 0; ; attempt++) {
        const replica = [...live][(n + attempt) % live.size]!;
        const answer = await postCommand(servers[replica]!.url, account.apiKey, 'message.send', { target, payload: { text: `burst ${n}` } }, { 'idempotency-key': key })
          .catch(() => ({ status: 0, body: null }));
        if (answer.status === 202) {
          accepted.add(answer.body.commandId as string);
          break;
        }
        // The killed replica, or no live lease between the host's death and the takeover: try again.
        expect([0, 503], JSON.stringify(answer.body)).toContain(answer.status);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  expect(accepted.size).toBe(COMMANDS);

  // Every accepted command settles, seen by every subscriber...
  for (const s of subscribers) {
    await until(() => [...accepted].every((id) => s.seen.some((e) => e.type === 'command.settled' && e.data.commandId === id)), 120_000, 'every accepted command settled on the stream');
  }
  // ...exactly once in the durable log...
  const log: StreamEnvelope[] = [];
  for (let after = '0'; ;) {
    const page = (await (await fetch(`${servers[1]!.url}/v1/events?after=${after}&limit=1000`, { headers: { authorization: `Bearer ${account.apiKey}`, accept: 'application/json' } })).json()) as { events: StreamEnvelope[]; nextAfter: string };
    if (page.events.length === 0) break;
    log.push(...page.events);
    after = page.nextAfter;
  }
  const settlements = new Map<string, number>();
  for (const e of log) if (e.type === 'command.settled') settlements.set(e.data.commandId, (settlements.get(e.data.commandId) ?? 0) + 1);
  expect([...accepted].filter((id) => settlements.get(id) !== 1)).toEqual([]);
  expect([...settlements.keys()].filter((id) => !accepted.has(id))).toEqual([]);
  // ...and every subscriber saw the whole log, each event once, in order (the one on the killed
  // replica resumed on another with its last id). The simulator's deliveries and reads go on
  // after the last settlement: a subscriber may still be receiving the newest events read above.
  const newest = Number(log.at(-1)!.id);
  for (const s of subscribers) {
    await until(() => s.seen.some((e) => Number(e.id) >= newest), 30_000, `event ${newest} on the stream`);
    expect(s.seen.filter((e) => Number(e.id) <= newest).map((e) => e.id)).toEqual(log.map((e) => e.id));
  }
  // The platform shows each message once.
  expect(Array.from({ length: COMMANDS }, (_, n) => platform!.messagesOfAction(`burst-${n}`).length).filter((count) => count !== 1)).toEqual([]);
});
