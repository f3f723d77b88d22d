import { eventSchemas } from '@switchboard/contracts';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import pino from 'pino';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect, vi } from 'vitest';
import { loadConfig, type Config } from '../src/config.ts';
import { startServer, type RunningServer } from '../src/server.ts';
import type { Clock } from '../src/clock.ts';
import { createIdSource } from '../src/ids.ts';
import { issueCredential, issueOperatorKey } from '../src/auth/issue.ts';
import { DatabaseSync } from 'node:sqlite';
import type { PostgresStore } from '../src/store/postgres/store.ts';
import type { Store } from '../src/store/types.ts';
import { testDatabase, testStore } from '@switchboard/testkit/postgres';
import { TestHost as BaseTestHost } from '@switchboard/testkit';

const newId = createIdSource().next;

export interface TestServer extends RunningServer {
  dataDir: string;
  /** A new account with an API key and a connector key. */
  account(): Promise<TestAccount>;
  /** A new operator key (made through the store, as the CLI makes the first one); answers its secret and id. */
  operatorKey(role?: 'full' | 'read-only'): Promise<{ secret: string; id: string }>;
  stopAndClean(): Promise<void>;
}

export interface TestAccount {
  accountId: string;
  apiKey: string;
  connectorKey: string;
}

/** The real server, in this process, on an ephemeral loopback port with a fresh data directory. */
export async function startTestServer(overrides: Partial<Config> = {}, clock?: Clock): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-test-'));
  // The run's store (SWITCHBOARD_TEST_STORE): a PostgreSQL database of its own, or SQLite in dataDir.
  const databaseUrl = testStore() === 'postgres' ? await testDatabase(dataDir) : null;
  // A test host never renews: its lease must outlast a slow test on a loaded machine (tests of
  // expiry set their own TTL or move a manual clock).
  const config: Config = { ...loadConfig({}), host: '127.0.0.1', port: 0, dataDir, logLevel: 'silent', databaseUrl, leaseTtlMs: 600_000, ...overrides };
  const server = await startServer(config, { log: pino({ level: 'silent' }), ...(clock ? { clock } : {}) });
  return {
    ...server,
    dataDir,
    async account() {
      const { store, clock } = server.services;
      const account = await store.createAccount({ id: newId(), name: `account-${newId()}`, createdAt: clock.now() });
      const api = await issueCredential(store, account.id, 'account', 'test', clock.now());
      const connector = await issueCredential(store, account.id, 'connector', 'test', clock.now());
      return { accountId: account.id, apiKey: api.secret, connectorKey: connector.secret };
    },
    async operatorKey(role = 'full') {
      const { secret, key } = await issueOperatorKey(server.services.store, role, 'test', server.services.clock.now());
      return { secret, id: key.id };
    },
    async stopAndClean() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A clock the test moves by hand. */
export class ManualClock implements Clock {
  time = Date.UTC(2026, 0, 1);
  now(): number {
    return this.time;
  }
  advance(ms: number): void {
    this.time += ms;
  }
}

export function headers(key: string, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...extra };
}

export { postCommand } from '@switchboard/testkit';

/** The test's connector host; it announces a conversation straight into the server's store. */
export class TestHost extends BaseTestHost {
  /** Announces a conversation and returns its conversationId. */
  async conversation(server: TestServer, accountId: string, kind: 'direct' | 'group', participants: string[], name: string | null = null): Promise<string> {
    const externalId = `chat-${newId()}`;
    await this.report([{ type: 'conversation.appeared', externalId, conversationKind: kind, name, participants }]);
    const conversation = await server.services.store.findConversationByExternalId(accountId, externalId);
    return conversation!.id;
  }
}

/** Resolves once a dispatch poll of `accountId` waits for work on `server`. */
export function pollParked(server: TestServer, accountId: string): Promise<void> {
  const { waiters } = server.services;
  const wait = waiters.wait.bind(waiters);
  return new Promise((resolve) => {
    const spy = vi.spyOn(waiters, 'wait').mockImplementation((id, ms, signal) => {
      const waiting = wait(id, ms, signal);
      if (id === accountId) {
        spy.mockRestore();
        resolve();
      }
      return waiting;
    });
  });
}

/** An account with a live lease and one direct and one group conversation. */
export async function readyAccount(server: TestServer) {
  const account = await server.account();
  const host = await new TestHost(server.url, account.connectorKey).lease();
  const direct = await host.conversation(server, account.accountId, 'direct', ['+14155550123']);
  const group = await host.conversation(server, account.accountId, 'group', ['+14155550123', 'dana@example.com'], 'Team');
  return { ...account, host, direct, group };
}

// Response bodies are checked against the bundled OpenAPI document, operation by operation.
const require = createRequire(import.meta.url);
const openapi = JSON.parse(readFileSync(require.resolve('@switchboard/contracts/openapi.json'), 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema(openapi, 'openapi');

/** Whether `value` is valid against `schema` (which may `$ref` into `openapi#/...`). */
export function schemaAccepts(schema: object, value: unknown): boolean {
  return ajv.compile(schema)(value) as boolean;
}

/** The spec's parameter `name` of `method path` (references resolved). */
export function openapiParameter(path: string, method: string, name: string): { name: string; schema: Record<string, any> } {
  const item = openapi.paths[path];
  const all = [...(item.parameters ?? []), ...(item[method.toLowerCase()].parameters ?? [])];
  const found = all.map((p: any) => (p.$ref ? openapi.components.parameters[p.$ref.split('/').pop()] : p)).find((p: any) => p.name === name);
  expect(found, `${method} ${path} has no parameter ${name}`).toBeDefined();
  return found;
}

function pointer(...segments: string[]): string {
  return segments.map((s) => s.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
}

/** The spec's response object for `method path` answering `status`, and where it lives. */
function specResponse(path: string, method: string, status: number): { response: any; location: string } {
  const operation = openapi.paths[path]?.[method.toLowerCase()];
  expect(operation, `${method} ${path} is not in the spec`).toBeDefined();
  const response = operation.responses[String(status)];
  expect(response, `${method} ${path} does not document ${status}`).toBeDefined();
  if (response.$ref) return { location: response.$ref, response: openapi.components.responses[response.$ref.split('/').pop()] };
  return { response, location: `#/${pointer('paths', path, method.toLowerCase(), 'responses', String(status))}` };
}

// The headers whose presence and value the spec promises; each one sent must be declared there.
const CHECKED_HEADERS = { 'ratelimit-policy': 'RateLimit-Policy', ratelimit: 'RateLimit', 'retry-after': 'Retry-After', 'www-authenticate': 'WWW-Authenticate' } as const;

/**
 * Asserts that the headers of an answer are what the spec documents: its media type is listed in
 * the response's content map (ranges such as `* / *` included), and each rate-limit or
 * authentication header sent is declared for that status, with a value its schema allows.
 */
export function expectSpecHeaders(path: string, method: string, status: number, sent: Headers | Record<string, string | string[] | undefined>): void {
  const get = (name: string) => (sent instanceof Headers ? sent.get(name) ?? undefined : (sent[name] as string | undefined));
  const { response } = specResponse(path, method, status);
  const where = `${method} ${path} ${status}`;
  const type = get('content-type')?.split(';')[0]!.trim().toLowerCase();
  if (type !== undefined) {
    const listed = Object.keys(response.content ?? {});
    const matches = listed.some((range) => range === type || range === '*/*' || (range.endsWith('/*') && type.startsWith(range.slice(0, -1))));
    expect(matches, `${where}: media type ${type} is not among ${listed.join(', ') || 'none'}`).toBe(true);
  }
  for (const [name, declaredName] of Object.entries(CHECKED_HEADERS)) {
    const value = get(name);
    if (value === undefined) continue;
    let header = response.headers?.[declaredName];
    expect(header, `${where}: sends ${declaredName}, which the spec does not declare`).toBeDefined();
    if (header.$ref) header = openapi.components.headers[header.$ref.split('/').pop()];
    const typed = header.schema?.type === 'integer' ? Number(value) : value;
    expect(ajv.compile(header.schema)(typed), `${where}: ${declaredName}: ${value}`).toBe(true);
  }
}

/** Asserts that `body` and the headers `sent` are what the spec documents for `method path` answering `status`. */
export function expectSpecResponse(path: string, method: string, status: number, body: unknown, sent: Headers | Record<string, string | string[] | undefined>): void {
  expectSpecHeaders(path, method, status, sent);
  const { response, location } = specResponse(path, method, status);
  const schema = response.content?.['application/json']?.schema;
  expect(schema, `${method} ${path} ${status} has no JSON body in the spec`).toBeDefined();
  const validate = ajv.getSchema(`openapi${location}/content/application~1json/schema`) ?? ajv.compile({ $ref: `openapi${location}/content/application~1json/schema` });
  const valid = validate(body);
  expect(valid, `${method} ${path} ${status}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body)}`).toBe(true);
}

/** The server's store when it is PostgreSQL's. */
function postgresOf(store: Store): PostgresStore | null {
  return 'sql' in store ? (store as PostgresStore) : null;
}

/** Counts rows straight from the server's database, whichever store it runs on. */
export async function countRows(server: TestServer, table: 'commands', where: { idempotencyKey?: string } = {}): Promise<number> {
  const store = postgresOf(server.services.store);
  if (store) {
    const [row] = where.idempotencyKey === undefined
      ? await store.sql.unsafe(`SELECT COUNT(*)::int AS n FROM ${table}`)
      : await store.sql.unsafe(`SELECT COUNT(*)::int AS n FROM ${table} WHERE idempotency_key = $1`, [where.idempotencyKey]);
    return row!.n as number;
  }
  const db = new DatabaseSync(join(server.dataDir, 'switchboard.db'), { readOnly: true });
  try {
    const row = where.idempotencyKey === undefined
      ? db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get()
      : db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE idempotency_key = ?`).get(where.idempotencyKey);
    return Number(row!.n);
  } finally {
    db.close();
  }
}

/**
 * Another connection holds the server's database so that its writes cannot go through (SQLite:
 * the write lock; PostgreSQL: a lock on every table, against a short statement timeout); resolves
 * to the function that lets go. Start the server with `sqliteBusyTimeoutMs` and `databaseStatementTimeoutMs` small.
 */
export async function blockWrites(server: TestServer): Promise<() => Promise<void>> {
  const store = postgresOf(server.services.store);
  if (store) {
    const blocker = await store.sql.reserve();
    const tables = await blocker<{ name: string }[]>`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`;
    await blocker`BEGIN`;
    await blocker.unsafe(`LOCK TABLE ${tables.map((t) => t.name).join(', ')} IN EXCLUSIVE MODE`);
    return async () => {
      await blocker`ROLLBACK`;
      blocker.release();
    };
  }
  const blocker = new DatabaseSync(join(server.dataDir, 'switchboard.db'));
  blocker.exec('BEGIN IMMEDIATE');
  return async () => {
    blocker.exec('ROLLBACK');
    blocker.close();
  };
}

/** A stream event as the JSON pages hand it out. */
export type PageEvent = { id: string; type: string; data: any };

/** The account's events after `after` (JSON pages, one page of up to 1,000), each checked against the stream's schema. */
export async function eventsAfter(server: TestServer, apiKey: string, after: string): Promise<PageEvent[]> {
  const res = await fetch(`${server.url}/v1/events?after=${after}&limit=1000`, { headers: { ...headers(apiKey), accept: 'application/json' } });
  const body = (await res.json()) as { events: PageEvent[] };
  for (const envelope of body.events) eventSchemas.zStreamEvent.parse(envelope);
  return body.events;
}

/** The stream's head: a cursor after which only new events come. */
export async function streamHead(server: TestServer, apiKey: string): Promise<string> {
  const res = await fetch(`${server.url}/v1/events?after=now&limit=1`, { headers: { ...headers(apiKey), accept: 'application/json' } });
  return ((await res.json()) as { nextAfter: string }).nextAfter;
}

/** The generated admin API document (specs/openapi/admin.yaml). */
export const adminSpec = JSON.parse(readFileSync(join(dirname(createRequire(import.meta.url).resolve('@switchboard/contracts/package.json')), 'src/generated/admin.openapi.json'), 'utf8'));
const adminAjv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(adminAjv);
adminAjv.addSchema(adminSpec, 'admin');

/** Asserts that an admin API answer is what the spec documents for the operation and status. */
export function expectAdminSpec(path: string, method: string, status: number, body: unknown): void {
  const responses = adminSpec.paths[path]?.[method.toLowerCase()]?.responses;
  expect(responses?.[String(status)], `${method} ${path} does not document ${status}`).toBeDefined();
  const response = responses[String(status)];
  const location = response.$ref ? `admin${response.$ref}` : `admin#/paths/${path.replaceAll('~', '~0').replaceAll('/', '~1')}/${method.toLowerCase()}/responses/${status}`;
  const validate = adminAjv.getSchema(`${location}/content/application~1json/schema`) ?? adminAjv.compile({ $ref: `${location}/content/application~1json/schema` });
  expect(validate(body), `${method} ${path} ${status}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body)}`).toBe(true);
}
