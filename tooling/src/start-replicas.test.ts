// docs/postgresql.md: `pnpm start` as many replicas as you like, on one database. Two runs, each
// with its own port and data directory, must not take the connector lease from each other: one
// host holds it, the other stands by. (`node tooling/src/start-replicas.ts` watches for a minute.)
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './ports.ts';
import { database, startRun, until, watchLease, type StartRun } from './start-replicas.ts';

const runs: StartRun[] = [];
let drop: (() => Promise<void>) | undefined;
afterAll(async () => {
  await Promise.all(runs.map((r) => r.stop()));
  await drop?.();
  for (const run of runs) rmSync(run.dataDir, { recursive: true, force: true });
}, 60_000);

describe('two pnpm start runs on one PostgreSQL database', { timeout: 360_000 }, () => {
  it('keep one steady lease epoch: one connector host holds it, the other stands by and takes over when it stops', async () => {
    const db = await database(join(tmpdir(), `switchboard-start-replicas-${process.pid}`));
    drop = db.drop;
    const env = { SWITCHBOARD_DATABASE_URL: db.url };
    const start = async (name: string) => {
      const run = startRun(name, env, await freePort());
      runs.push(run);
      await until(`${name} to start`, () => run.output().includes('Switchboard is running') || run.child.exitCode !== null);
      expect(run.child.exitCode, run.output()).toBeNull();
      return run;
    };
    const first = await start('replica-a');
    const second = await start('replica-b');

    // The second reuses the demo account and its conversations; its demo.env names its own server, with a key that works there.
    const [a, b] = [first.demoEnv(), second.demoEnv()];
    expect(b).toMatchObject({ SWITCHBOARD_ACCOUNT: a.SWITCHBOARD_ACCOUNT, DM: a.DM, GROUP: a.GROUP, SWITCHBOARD_URL: `http://127.0.0.1:${second.port}` });
    expect(a.SWITCHBOARD_URL).toBe(`http://127.0.0.1:${first.port}`);
    for (const demo of [a, b]) {
      const response = await fetch(`${demo.SWITCHBOARD_URL}/v1/conversations/${demo.DM}`, { headers: { authorization: `Bearer ${demo.SWITCHBOARD_API_KEY}` } });
      expect(response.status, await response.clone().text()).toBe(200);
    }

    // Each start's connector host has an id of its own, stable for its data directory.
    const hostIds = [first, second].map((run) => run.connectorLog().find((r) => r.msg === 'host starting')?.hostId);
    expect(hostIds[0]).toMatch(/^demo-host-[0-9a-f]{6}$/);
    expect(hostIds[1]).toMatch(/^demo-host-[0-9a-f]{6}$/);
    expect(hostIds[0]).not.toBe(hostIds[1]);
    expect(first.output()).toContain(`Connector host  ${hostIds[0]} (holds the lease)`);
    expect(second.output()).toContain(`Connector host  ${hostIds[1]} (stands by: ${hostIds[0]} holds the lease)`);

    // One lease, one epoch, held by the first start's host for the whole watch.
    const watch = await watchLease(db.url, 15, 1_000);
    expect(watch.samples).toBeGreaterThanOrEqual(5);
    expect(watch.changes).toEqual([{ hostId: hostIds[0], epoch: expect.any(Number) }]);
    expect(first.connectorLog().filter((r) => r.msg === 'lease acquired')).toHaveLength(1);
    expect(second.connectorLog().filter((r) => r.msg === 'lease acquired')).toHaveLength(0);

    // Ctrl-C on the first: its host releases the lease, and the standby takes it at once.
    expect(await first.stop()).toBe(0);
    await until('the standby to take the lease', () => second.connectorLog().some((r) => r.msg === 'lease acquired'), 20_000);
    expect(await second.stop()).toBe(0);
  });
});
