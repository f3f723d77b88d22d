// Two connector host processes given one host id by mistake, against one server. The server lets
// a host id take its own live lease over at once (a restarted host does not wait out its old
// lease), so without a rule on the host's side the two would take the lease from each other
// without end: the epoch climbing by thousands, the logs by megabytes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { exited, removeDataDir, startHost, startServer, type HostProcess, type ServerProcess } from '@switchboard/testkit';
import { afterAll, beforeAll, expect, test } from 'vitest';

/** Short leases: renewals every third of a second, so a thrash shows within the watch many times over. */
const LEASE_TTL_MS = 1_000;
const WATCH_MS = 12_000;

let server: ServerProcess;
const dir = mkdtempSync(join(tmpdir(), 'switchboard-twins-'));
const hosts: HostProcess[] = [];

beforeAll(async () => {
  server = await startServer({ SWITCHBOARD_LEASE_TTL_MS: String(LEASE_TTL_MS) });
});

afterAll(async () => {
  await Promise.all(hosts.map((h) => h.kill()));
  await server?.stop();
  if (server) removeDataDir(server.dataDir);
  rmSync(dir, { recursive: true, force: true });
});

test('two hosts with one host id keep one steady lease epoch: the newer holds it, the older stops and names the id', { timeout: 60_000 }, async () => {
  const { connectorKey } = await server.account();
  const hostId = `twin-${process.pid}`;
  const twin = () => {
    const host = startHost({ url: server.url, connectorKey, hostId, env: { SWITCHBOARD_SIM_DB: join(dir, 'simulator.db') } });
    hosts.push(host);
    return host;
  };
  const older = twin();
  const first = await older.leased();
  const newer = twin();
  // The newer takes the lease over at once, as a restarted host does.
  const taken = await newer.leased(Number(first.epoch));
  await Promise.race([exited(older.child), delay(5_000)]);

  // The lease's epoch, as the operator sees it, sampled over the watch.
  const epochs = new Set<number>();
  const until = Date.now() + WATCH_MS;
  while (Date.now() < until) {
    const leases = await server.cli<Array<{ hostId: string; epoch: number; live: boolean }>>('hosts');
    for (const lease of leases) epochs.add(lease.epoch);
    await delay(500);
  }
  const acquisitions = [...older.logs.records, ...newer.logs.records].filter((r) => r.msg === 'lease acquired').length;
  expect({ epochs: [...epochs], acquisitions }).toEqual({ epochs: [Number(taken.epoch)], acquisitions: 2 });

  // The older process stopped with an error that names the duplicate id and what to do.
  expect(older.child.exitCode).toBe(1);
  const fatal = older.logs.records.find((r) => r.level >= 60);
  expect(fatal?.err).toMatchObject({ message: expect.stringContaining(`another connector host with host id "${hostId}" took this account's lease over`) });
  expect((fatal?.err as { message: string }).message).toContain('SWITCHBOARD_HOST_ID');
  expect(newer.child.exitCode).toBeNull();
  expect(await newer.stop()).toBe(0);
  expect(newer.logs.filter((r) => r.msg === 'lease released')).toHaveLength(1);
});
