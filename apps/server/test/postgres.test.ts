import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { promisify } from 'node:util';
import postgres from 'postgres';
import { paths, Receiver } from '@switchboard/testkit';
import { testDatabase } from '@switchboard/testkit/postgres';
import { createIdSource } from '../src/ids.ts';
import { openPostgresStore } from '../src/store/postgres/store.ts';
import { migrations } from '../src/store/postgres/migrations/index.ts';
import { headers, postCommand, readyAccount, startTestServer, type TestServer } from './helpers.ts';
import { loadConfig } from '../src/config.ts';

const newId = createIdSource().next;

const run = promisify(execFile);
const latest = migrations.length;
const fresh = () => testDatabase(`postgres-test-${newId()}`);

async function query<T>(url: string, fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    return await fn(sql);
  } finally {
    await sql.end({ timeout: 1 });
  }
}

describe('PostgreSQL migrations', () => {
  it('replicas starting together on a new database migrate it once', async () => {
    const url = await fresh();
    const stores = await Promise.all(Array.from({ length: 4 }, () => openPostgresStore({ url })));
    await Promise.all(stores.map((s) => s.close()));
    const versions = await query(url, (sql) => sql`SELECT version FROM switchboard_migrations ORDER BY version`);
    expect(versions.map((r) => r.version)).toEqual(Array.from({ length: latest }, (_, i) => i + 1));
  });

  it('a database newer than the build is refused, naming both versions', async () => {
    const url = await fresh();
    await (await openPostgresStore({ url })).close();
    await query(url, (sql) => sql`INSERT INTO switchboard_migrations (version) VALUES (${latest + 1})`);
    await expect(openPostgresStore({ url })).rejects.toThrow(`the database schema is at version ${latest + 1}, newer than this build knows (${latest})`);
  });

  // Two CLI processes: slow on a loaded machine.
  it('with migrations off, a database behind the build is refused until `switchboard migrate` ran', { timeout: 90_000 }, async () => {
    const url = await fresh();
    await expect(openPostgresStore({ url, migrate: false })).rejects.toThrow('run `switchboard migrate`');
    const env = { ...process.env, SWITCHBOARD_DATABASE_URL: url };
    const first = JSON.parse((await run(process.execPath, [paths.cli, 'migrate', '--json'], { env })).stdout);
    expect(first).toEqual({ store: 'postgres', from: 0, to: latest });
    const again = JSON.parse((await run(process.execPath, [paths.cli, 'migrate', '--json'], { env })).stdout);
    expect(again).toEqual({ store: 'postgres', from: latest, to: latest });
    await (await openPostgresStore({ url, migrate: false })).close();
  });
});

/** A TCP hop between the server and PostgreSQL that the test can cut and restore. */
class Hop {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;
  private readonly target: URL;

  constructor(target: string) {
    this.target = new URL(target);
  }

  async open(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(Number(this.target.port || 5432), this.target.hostname);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  /** The database becomes unreachable: open connections drop, new ones are refused. */
  async cut(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }

  url(): string {
    const url = new URL(this.target);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }
}

describe('PostgreSQL unreachable', () => {
  let server: TestServer | null = null;
  afterAll(() => server?.stopAndClean());

  it('answers 500 internal with nothing written, /readyz 503, and recovers by itself when the database returns', async () => {
    const url = await fresh();
    const hop = new Hop(url);
    await hop.open();
    server = await startTestServer({ rateLimit: 0, databaseUrl: hop.url(), databaseStatementTimeoutMs: 1_000 });
    const a = await readyAccount(server);
    const body = { target: { kind: 'conversation', conversationId: a.direct }, payload: { text: 'x' } };
    const count = () => query(url, async (sql) => Number((await sql`SELECT COUNT(*) AS n FROM commands`)[0]!.n));
    const before = await count();

    await hop.cut();
    const failed = await postCommand(server.url, a.apiKey, 'message.send', body, { 'idempotency-key': 'while-down' });
    expect(failed.status).toBe(500);
    expect(failed.body.error).toBe('internal');
    expect((await fetch(`${server.url}/readyz`)).status).toBe(503);
    expect(await count()).toBe(before);

    await hop.open();
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const retried = await postCommand(server.url, a.apiKey, 'message.send', body, { 'idempotency-key': 'while-down' });
    expect(retried.status).toBe(202);
    expect(retried.body.disposition).toBe('queued');
    expect(await count()).toBe(before + 1);
  });
});

describe('PostgreSQL over its Unix socket', () => {
  const servers: TestServer[] = [];
  afterAll(() => Promise.all(servers.map((s) => s.stopAndClean())));

  it.each([
    ['the socket directory as the host parameter', (dir: string, port: string, db: URL) => `postgres://${db.username}:${db.password}@${db.pathname}?host=${encodeURIComponent(dir)}&port=${port}`],
    ['the socket directory percent-encoded as the host', (dir: string, port: string, db: URL) => `postgresql://${db.username}:${db.password}@${encodeURIComponent(dir)}:${port}${db.pathname}`],
  ])('serves a command with %s, on connections that are not TCP', async (_name, socketUrl) => {
    const url = await fresh();
    const [settings] = await query(url, (sql) => sql`SELECT current_setting('unix_socket_directories') AS dirs, current_setting('port') AS port`);
    const dir = String(settings!.dirs).split(',')[0]!.trim();
    expect(dir).toMatch(/^\//);
    const server = await startTestServer({ databaseUrl: socketUrl(dir, String(settings!.port), new URL(url)) });
    servers.push(server);
    const a = await readyAccount(server);
    const sent = await postCommand(server.url, a.apiKey, 'message.send', { target: { kind: 'conversation', conversationId: a.direct }, payload: { text: 'over the socket' } });
    expect(sent.status).toBe(202);
    const database = new URL(url).pathname.slice(1);
    const seen = await query(url, async (sql) => ({
      command: (await sql`SELECT payload FROM commands WHERE id = ${sent.body.commandId as string}`)[0]?.payload,
      // A session over a Unix socket has no client address.
      tcp: Number((await sql`SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = ${database} AND application_name = 'switchboard' AND client_addr IS NOT NULL`)[0]!.n),
      socket: Number((await sql`SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = ${database} AND application_name = 'switchboard' AND client_addr IS NULL`)[0]!.n),
    }));
    expect(JSON.parse(String(seen.command))).toEqual({ text: 'over the socket' });
    expect(seen.tcp).toBe(0);
    expect(seen.socket).toBeGreaterThan(0);
  });
});

describe('PostgreSQL ends a connection in the middle of a transaction', () => {
  let server: TestServer | null = null;
  afterAll(() => server?.stopAndClean());

  it('the request fails with 500 internal and the server serves the next ones (no crash, no stranded connection)', async () => {
    const url = await fresh();
    server = await startTestServer({ rateLimit: 0, databaseUrl: url });
    const account = await server.account();
    const auth = { ...headers(account.apiKey), 'content-type': 'application/json' };
    const create = () => fetch(`${server!.url}/v1/webhook-endpoints`, { method: 'POST', headers: auth, body: JSON.stringify({ url: 'http://127.0.0.1:9/hook' }) });
    const admin = postgres(url, { max: 2, onnotice: () => undefined });
    try {
      // Creating an endpoint locks the account's row inside its transaction: held here, it waits.
      const holder = await admin.reserve();
      await holder`BEGIN`;
      await holder`SELECT id FROM accounts WHERE id = ${account.accountId} FOR UPDATE`;
      const waiting = create();
      let pid: number | undefined;
      for (const deadline = Date.now() + 10_000; pid === undefined && Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
        const rows = await admin`SELECT pid FROM pg_stat_activity WHERE application_name = 'switchboard' AND wait_event_type = 'Lock'`;
        pid = rows[0]?.pid as number | undefined;
      }
      expect(pid).toBeDefined();
      await admin`SELECT pg_terminate_backend(${pid!})`;
      await holder`ROLLBACK`;
      holder.release();
      const failed = await waiting;
      expect(failed.status).toBe(500);
      expect(((await failed.json()) as { error: string }).error).toBe('internal');
      // The pool reconnects: every later request is served (more than the pool holds connections).
      for (let i = 0; i < 12; i++) expect((await create()).status).toBe(201);
    } finally {
      await admin.end({ timeout: 1 });
    }
  });
});

describe('PostgreSQL replicas', () => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.stopAndClean();
  });

  it('the rate limit is counted across replicas: 60 in any 60 s per credential, spread over three', async () => {
    const databaseUrl = await fresh();
    for (let i = 0; i < 3; i++) servers.push(await startTestServer({ databaseUrl, rateLimit: 60 }));
    const a = await readyAccount(servers[0]!);
    const body = { target: { kind: 'conversation', conversationId: a.direct }, payload: { text: 'x' } };
    const results = await Promise.all(Array.from({ length: 75 }, (_, i) => postCommand(servers[i % 3]!.url, a.apiKey, 'message.send', body)));
    expect(results.filter((r) => r.status !== 202 && r.status !== 429).map((r) => r.body)).toEqual([]);
    expect(results.filter((r) => r.status === 429)).toHaveLength(15);
    expect(results.filter((r) => r.status === 202)).toHaveLength(60);
  });

  it('webhook deliveries are shared across replicas: each endpoint gets every event once, in order', async () => {
    const databaseUrl = await fresh();
    const webhooks = { ...loadConfig({}).webhooks, pollMs: 20, claimTtlMs: 5_000 };
    const replicas: TestServer[] = [];
    for (let i = 0; i < 3; i++) replicas.push(await startTestServer({ databaseUrl, readRateLimit: 0, webhooks }));
    servers.push(...replicas);
    const call = async (i: number, key: string, method: string, path: string, body?: unknown) => {
      const response = await fetch(`${replicas[i % 3]!.url}${path}`, { method, headers: headers(key), ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      expect(response.status, path).toBeLessThan(300);
      return response.json() as Promise<any>;
    };
    const receivers = await Promise.all(Array.from({ length: 6 }, () => Receiver.start()));
    try {
      const accounts = [await replicas[0]!.account(), await replicas[1]!.account()];
      const endpoints: { key: string; id: string; events: string[]; receiver: Receiver }[] = [];
      for (const [n, receiver] of receivers.entries()) {
        const key = accounts[n % 2]!.apiKey;
        const { id } = await call(n, key, 'POST', '/v1/webhook-endpoints', { url: receiver.url });
        // Disabled while the events queue up, so every replica finds them due at once.
        await call(n, key, 'PATCH', `/v1/webhook-endpoints/${id}`, { enabled: false });
        endpoints.push({ key, id, events: [], receiver });
      }
      for (let i = 0; i < 10; i++) {
        for (const [n, e] of endpoints.entries()) e.events.push((await call(n + i, e.key, 'POST', `/v1/webhook-endpoints/${e.id}/test`)).eventId);
      }
      await Promise.all(endpoints.map((e, n) => call(n, e.key, 'PATCH', `/v1/webhook-endpoints/${e.id}`, { enabled: true })));
      for (const e of endpoints) {
        await e.receiver.waitForIds(e.events);
        expect(e.receiver.ids()).toEqual(e.events);
      }
    } finally {
      for (const r of receivers) await r.close();
    }
  });
});
