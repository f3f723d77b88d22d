/**
 * End-to-end settle latency: from a client's POST /v1/commands/message.send to its command event
 * on the SSE stream (GET /v1/events), through the real server process and one real connector
 * host process driving a zero-latency simulator. Load is offered open-loop at a fixed rate, so a
 * slow answer does not slow the arrivals down. Beside the latency it prints where the time goes
 * (split at the server's timestamps) and the server's and the host's CPU per command.
 *
 * Runs on the embedded SQLite store, then on PostgreSQL (embedded from npm with fsync and
 * synchronous commit on, as production runs it, or the server SWITCHBOARD_TEST_DATABASE_URL
 * names; a database of its own, dropped at the end).
 *
 *   pnpm bench                          200 commands/s for 10 s (after a 2 s warm-up), each store
 *   BENCH_RATE=400 BENCH_SECONDS=20 pnpm bench
 *   BENCH_STORE=postgres pnpm bench     one store only (sqlite or postgres)
 *   BENCH_MESSAGE_LIFE=on pnpm bench    the simulator also delivers and reads each message after its
 *                                       echo (off by default: the figure is the command's path alone)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { cpuSeconds, postCommand, removeDataDir, startHost, startServer } from '@switchboard/testkit';
import { dropTestDatabase, startEmbeddedPostgres, testDatabase, TEST_DATABASE_URL } from '@switchboard/testkit/postgres';
import { SimulatedPlatform } from '../src/driver/simulator/platform.ts';
import { openEventStream } from '../test/stream.ts';

const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const HOST_LOG_LEVEL = process.env.BENCH_HOST_LOG_LEVEL ?? 'info';
const STORES = (process.env.BENCH_STORE ?? 'sqlite,postgres').split(',');
const MESSAGE_LIFE = process.env.BENCH_MESSAGE_LIFE === 'on' ? 'on' : 'off';

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

async function bench(storeName: string, storeEnv: Record<string, string>): Promise<void> {
  const server = await startServer({ SWITCHBOARD_RATE_LIMIT: '0', ...storeEnv });
  const simDir = mkdtempSync(join(tmpdir(), 'switchboard-bench-sim-'));
  const simDb = join(simDir, 'simulator.db');
  let host: ReturnType<typeof startHost> | null = null;
  try {
    const account = await server.account('bench');
    host = startHost({
      url: server.url,
      connectorKey: account.connectorKey,
      hostId: 'bench-host',
      env: {
        SWITCHBOARD_SIM_DB: simDb, SWITCHBOARD_LOG_LEVEL: HOST_LOG_LEVEL, SWITCHBOARD_SIM_LATENCY_MS: '0', SWITCHBOARD_SIM_ECHO_LATENCY_MS: '0',
        SWITCHBOARD_SIM_MESSAGE_LIFE: MESSAGE_LIFE,
      },
    });
    // Ready once the server shows the host's lease (its own log may be quieter than info).
    for (const deadline = Date.now() + 20_000; ; await sleep(20)) {
      const answer = await fetch(`${server.url}/v1/capabilities`, { headers: { authorization: `Bearer ${account.apiKey}` } });
      if (answer.status === 200) break;
      if (Date.now() > deadline || host.child.exitCode !== null) throw new Error(`the bench host never took the lease: ${host.stderr.join('')}`);
    }

    const stream = await openEventStream(server.url, account.apiKey);
    const platform = new SimulatedPlatform(simDb, account.accountId);
    const { messageExternalId } = platform.receive({ from: '+14155550100', text: 'bench me' });
    platform.close();
    const received = await stream.waitFor((e) => e.type === 'message.received' && e.data.messageExternalId === messageExternalId);
    const target = { kind: 'conversation', conversationId: received.data.conversationId };

    const settledAt = new Map<string, number>();
    /** Wall-clock times beside the server's timestamps: when each command was sent, and its event seen. */
    const sentWall = new Map<Promise<string>, number>();
    const seenWall = new Map<string, number>();
    stream.onEvent((event, at) => {
      if (event.type !== 'command.settled') return;
      settledAt.set(event.data.commandId, at);
      seenWall.set(event.data.commandId, Date.now());
    });

    /** Offers `count` commands at RATE per second; resolves with each one's send time and id. */
    async function offer(count: number): Promise<{ started: number[]; ids: Array<Promise<string>>; acks: number[] }> {
      const interval = 1000 / RATE;
      const started: number[] = [];
      const acks: number[] = [];
      const ids: Array<Promise<string>> = [];
      const t0 = performance.now();
      for (let i = 0; i < count; i++) {
        const due = t0 + i * interval;
        const wait = due - performance.now();
        if (wait > 1) await sleep(wait);
        const sent = performance.now();
        started.push(sent);
        const id = postCommand(server.url, account.apiKey, 'message.send', { target, payload: { text: `bench ${i}` } }).then((answer) => {
          if (answer.status !== 202) throw new Error(`POST answered ${answer.status}: ${JSON.stringify(answer.body)}`);
          acks.push(performance.now() - sent);
          return answer.body.commandId as string;
        });
        sentWall.set(id, Date.now());
        ids.push(id);
      }
      return { started, ids, acks };
    }

    async function allSettled(ids: string[], timeoutMs: number): Promise<void> {
      const deadline = performance.now() + timeoutMs;
      while (ids.some((id) => !settledAt.has(id))) {
        if (performance.now() > deadline) throw new Error(`${ids.filter((id) => !settledAt.has(id)).length} commands not settled within ${timeoutMs} ms`);
        await sleep(5);
      }
    }

    process.stdout.write(`warming up: ${WARMUP_SECONDS} s at ${RATE} commands/s\n`);
    const warm = await offer(RATE * WARMUP_SECONDS);
    await allSettled(await Promise.all(warm.ids), 30_000);

    process.stdout.write(`measuring: ${SECONDS} s at ${RATE} commands/s offered\n`);
    const pids = [server.child.pid!, host.child.pid!];
    const cpu0 = pids.map((pid) => cpuSeconds(pid));
    const run = await offer(RATE * SECONDS);
    const ids = await Promise.all(run.ids);
    await allSettled(ids, 60_000);
    const cpuMs = pids.map((pid, i) => ((cpuSeconds(pid) - cpu0[i]!) * 1000) / ids.length);
    const segments = await whereTheTimeGoes(run.ids, ids);

    const latencies = ids.map((id, i) => settledAt.get(id)! - run.started[i]!).sort((a, b) => a - b);
    const acks = [...run.acks].sort((a, b) => a - b);
    const first = run.started[0]!;
    const last = Math.max(...ids.map((id) => settledAt.get(id)!));
    const offeredSeconds = (run.started.at(-1)! - first) / 1000;
    const settledPerSecond = ids.length / ((last - first) / 1000);

    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    process.stdout.write(
      [
        '',
        `switchboard connector: end-to-end settle latency (POST message.send -> command.settled on SSE), ${storeName}, message life ${MESSAGE_LIFE}`,
        `  driver            simulator, zero latency, no faults; host log level ${HOST_LOG_LEVEL}`,
        `  commands          ${ids.length} measured (+${warm.ids.length} warm-up)`,
        `  offered           ${(ids.length / offeredSeconds).toFixed(1)} commands/s (target ${RATE})`,
        `  settled           ${settledPerSecond.toFixed(1)} commands/s`,
        `  202 ack           p50 ${ms(percentile(acks, 50))}   p99 ${ms(percentile(acks, 99))}`,
        `  settle latency    p50 ${ms(p50)}   p90 ${ms(percentile(latencies, 90))}   p99 ${ms(p99)}   max ${ms(latencies.at(-1)!)}`,
        `  targets           p50 < 5 ms: ${p50 < 5 ? 'met' : 'MISSED'}   p99 < 25 ms: ${p99 < 25 ? 'met' : 'MISSED'}`,
        `  where it goes     ${segments}`,
        `  CPU per command   server ${ms(cpuMs[0]!)}, host ${ms(cpuMs[1]!)} (user + system, all threads)`,
        '',
      ].join('\n'),
    );
    stream.close();

    /**
     * Every 4th command split at the server's own timestamps (ms): POST to accepted (`createdAt`),
     * accepted to settled (`settledAt`: the settlement's arrival, before its transaction), and
     * settled to its event read off the stream. The clocks are one machine's.
     */
    async function whereTheTimeGoes(sent: Array<Promise<string>>, commandIds: string[]): Promise<string> {
      const parts: [string, number[]][] = [['POST → accepted', []], ['accepted → settled', []], ['settled → on the stream', []]];
      for (let i = 0; i < commandIds.length; i += 4) {
        const read = await fetch(`${server.url}/v1/commands/${commandIds[i]}`, { headers: { authorization: `Bearer ${account.apiKey}` } });
        const command = (await read.json()) as { createdAt: string; settledAt: string };
        const created = Date.parse(command.createdAt);
        const settled = Date.parse(command.settledAt);
        parts[0]![1].push(created - sentWall.get(sent[i]!)!);
        parts[1]![1].push(settled - created);
        parts[2]![1].push(seenWall.get(commandIds[i]!)! - settled);
      }
      return parts.map(([name, values]) => {
        values.sort((a, b) => a - b);
        return `${name} p50 ${percentile(values, 50)} p99 ${percentile(values, 99)}`;
      }).join(';  ') + ' (ms)';
    }
  } finally {
    // Also when the run fails: a host left behind would keep polling.
    await host?.stop();
    await server.stop();
    removeDataDir(server.dataDir);
    rmSync(simDir, { recursive: true, force: true });
  }
}

if (STORES.includes('sqlite')) await bench('embedded SQLite', {});
if (STORES.includes('postgres')) {
  const embedded = process.env[TEST_DATABASE_URL] ? null : await startEmbeddedPostgres({ durable: true });
  if (embedded) process.env[TEST_DATABASE_URL] = embedded.url;
  const url = await testDatabase(`settle-bench-${process.pid}-${Date.now()}`);
  try {
    await bench('PostgreSQL (one replica)', { SWITCHBOARD_DATABASE_URL: url });
  } finally {
    await dropTestDatabase(url);
    await embedded?.stop();
  }
}
