import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { testDatabase } from '@switchboard/testkit/postgres';
import { createIdSource } from '../src/ids.ts';
import { openPostgresStore } from '../src/store/postgres/store.ts';
import type { Store } from '../src/store/types.ts';
import { storeSuite } from './store.suite.ts';

const newId = createIdSource().next;

let url: string;
let admin: postgres.Sql;
beforeAll(async () => {
  url = await testDatabase(`store-suite-${newId()}`);
  admin = postgres(url, { max: 1, onnotice: () => undefined });
});
afterAll(() => admin.end({ timeout: 1 }));

/** Statements that wait longer than this fail: a held lock makes a transaction fail fast. */
const statementTimeoutMs = 5_000;

/** The suite's database, emptied: every test starts from a fresh store. */
async function open(): Promise<Store> {
  const store = await openPostgresStore({ url, statementTimeoutMs, poolMax: 20 });
  const tables = await admin<{ name: string }[]>`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename NOT IN ('switchboard_migrations', 'cache_version')`;
  await admin.unsafe(`TRUNCATE ${tables.map((t) => t.name).join(', ')}`);
  return store;
}

storeSuite('PostgresStore', open, {
  peer: () => openPostgresStore({ url, statementTimeoutMs }),
  replica: () => openPostgresStore({ url, statementTimeoutMs }),
  async blockWrites() {
    // Another session holds every table: the store's transactions time out and roll back.
    const blocker = await admin.reserve();
    const tables = await blocker<{ name: string }[]>`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`;
    await blocker`BEGIN`;
    await blocker.unsafe(`LOCK TABLE ${tables.map((t) => t.name).join(', ')} IN ACCESS EXCLUSIVE MODE`);
    return async () => {
      await blocker`ROLLBACK`;
      blocker.release();
    };
  },
});

describe('PostgresStore: retention through indexes', () => {
  it('finds the idempotency keys of a command it drops without reading every key', async () => {
    const store = await open();
    const indexes = await admin<{ indexdef: string }[]>`SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'idempotency_keys'`;
    expect(indexes.map((i) => i.indexdef).some((def) => /\(command_id\)/.test(def))).toBe(true);
    await store.close();
  });
});

describe('PostgresStore connections', () => {
  /** Sessions of the store's application on the suite's database, listening ones aside. */
  async function sessions(): Promise<number> {
    const [row] = await admin<{ n: string }[]>`SELECT count(*) AS n FROM pg_stat_activity
      WHERE datname = current_database() AND application_name = 'switchboard' AND query NOT LIKE 'LISTEN%'`;
    return Number(row!.n);
  }

  it.each([1, 2, 3])('stay within a pool of %i, intake\'s own connection included, under concurrent intake and reads', async (poolMax) => {
    const before = await sessions();
    const store = await openPostgresStore({ url, statementTimeoutMs, poolMax });
    try {
      const accountId = newId();
      await store.createAccount({ id: accountId, name: `pool-${poolMax}-${accountId}`, createdAt: 1 });
      await Promise.all(Array.from({ length: 40 }, (_, i) => {
        const id = newId();
        return Promise.all([
          store.acceptCommand({ id, accountId, type: 'message.send', routingPath: 'agent-turn', target: { kind: 'conversation', conversationId: 'c' }, payload: { text: `${i}` }, logicalActionId: id, idempotencyKey: null, conversationId: null, createdAt: 1 }, 0),
          store.getAccount(accountId),
          store.isOutboundPaused(accountId),
        ]);
      }));
      expect(await sessions() - before).toBeGreaterThan(0);
      expect(await sessions() - before).toBeLessThanOrEqual(poolMax);
    } finally {
      await store.close();
    }
  });
});
