import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { raceTwoProcesses } from '@switchboard/testkit';
import { createIdSource } from '../src/ids.ts';
import { openSqliteStore, type SqliteStore } from '../src/store/sqlite/store.ts';
import { migrations } from '../src/store/sqlite/migrations/index.ts';
import type { NewCommand, Store } from '../src/store/types.ts';
import { storeSuite } from './store.suite.ts';

const newId = createIdSource().next;

const root = mkdtempSync(join(tmpdir(), 'switchboard-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const dirs = new WeakMap<Store, string>();

/** A fresh database file; a short busy timeout so a held write lock fails a transaction fast. */
async function open(dataDir = join(root, newId())): Promise<Store> {
  const store = openSqliteStore({ dataDir, busyTimeoutMs: 50 });
  dirs.set(store, dataDir);
  return store;
}

storeSuite('SqliteStore', () => open(), {
  groupCommit: true,
  peer: (store) => open(dirs.get(store)!),
  blockWrites(store) {
    // A second connection holds the write lock, so BEGIN IMMEDIATE times out.
    const blocker = new DatabaseSync(join(dirs.get(store)!, 'switchboard.db'));
    blocker.exec('BEGIN IMMEDIATE');
    return () => {
      blocker.exec('ROLLBACK');
      blocker.close();
    };
  },
  failCommit(store) {
    // Deferred foreign keys are checked at COMMIT: a credential of an unknown account fails it there.
    (store as SqliteStore).db.exec('PRAGMA defer_foreign_keys = ON');
    return store.createCredential({ id: newId(), accountId: 'no-such-account', kind: 'account', prefix: 'sb_x', label: '', createdAt: 0, hash: Buffer.from(newId()) });
  },
});

describe('SqliteStore: retention through indexes', () => {
  it('finds the idempotency keys of a command it drops, and rows past their period, without reading every row', async () => {
    const store = (await open()) as SqliteStore;
    const plan = (sql: string) => (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>).map((r) => r.detail).join('; ');
    expect(plan('SELECT 1 FROM idempotency_keys WHERE command_id = 1')).toMatch(/USING (COVERING )?INDEX idempotency_keys_command/);
    expect(plan('SELECT id FROM events WHERE time < 1 LIMIT 10')).toMatch(/USING (COVERING )?INDEX events_time/);
    expect(plan('SELECT 1 FROM platform_records WHERE recorded_at < 1')).toMatch(/USING (COVERING )?INDEX platform_records_recorded/);
    await store.close();
  });

  it('serves the admin API\'s searches and counts across accounts through indexes', async () => {
    const store = (await open()) as SqliteStore;
    const plan = (sql: string) => (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>).map((r) => r.detail).join('; ');
    expect(plan("SELECT * FROM commands WHERE account_id = 'a' AND id < 'x' ORDER BY id DESC LIMIT 51")).toMatch(/USING INDEX commands_account/);
    expect(plan("SELECT * FROM commands WHERE id < 'x' ORDER BY id DESC LIMIT 51")).toMatch(/USING INDEX sqlite_autoindex_commands_1/);
    expect(plan('SELECT created_at / 60000 * 60000, COUNT(*) FROM commands WHERE created_at >= 1 GROUP BY 1')).toMatch(/USING (COVERING )?INDEX commands_created/);
    expect(plan('SELECT settled_at / 60000 * 60000, status, COUNT(*) FROM commands WHERE settled_at >= 1 GROUP BY 1, 2')).toMatch(/USING INDEX commands_settled/);
    await store.close();
  });
});

describe('SqliteStore: upgrading to the admin schema (008)', () => {
  it('records the epochs of the leases held before it, and leaves existing commands undispatched-at', async () => {
    const dataDir = join(root, newId());
    mkdirSync(dataDir);
    const before = new DatabaseSync(join(dataDir, 'switchboard.db'));
    for (const migration of migrations.slice(0, 7)) before.exec(migration);
    before.exec(`PRAGMA user_version = 7;
      INSERT INTO accounts (id, name, created_at) VALUES ('a1', 'one', 0);
      INSERT INTO leases (account_id, host_id, epoch, os_major_version, capabilities, acquired_at, expires_at) VALUES ('a1', 'h-old', 4, 15, '[]', 5, 10);
      INSERT INTO commands (id, account_id, type, routing_path, status, target, payload, logical_action_id, created_at, dispatch_epoch)
        VALUES ('c1', 'a1', 'message.send', 'agent-turn', 'queued', '{}', '{}', 'c1', 0, 4);`);
    before.close();
    const store = await open(dataDir);
    expect(await store.leaseHolder('a1', 4)).toBe('h-old');
    expect(await store.findCommand('c1')).toMatchObject({ dispatchEpoch: 4, dispatchedAt: null });
    await store.close();
  });
});

describe('SqliteStore: a group SQLite rolls back on its own', () => {
  it('rejects every write of the group, and a write after it in the same turn begins a new group and commits', async () => {
    const store = (await open()) as SqliteStore;
    const account = await store.createAccount({ id: newId(), name: 'full', createdAt: 0 });
    const command = (text: string): NewCommand => {
      const id = newId();
      return {
        id, accountId: account.id, type: 'message.send', routingPath: 'agent-turn', target: { kind: 'conversation', conversationId: newId() },
        payload: { text }, logicalActionId: id, idempotencyKey: null, conversationId: null, createdAt: 0,
      };
    };
    await store.acceptCommand(command('warm-up'), 0);
    // A disk that fills up: SQLITE_FULL rolls the whole transaction back, not just the statement.
    const { page_count: pages } = store.db.prepare('PRAGMA page_count').get() as { page_count: number };
    store.db.exec(`PRAGMA max_page_count = ${pages + 4}`);
    const [first, big, after] = [command('first'), command('x'.repeat(100_000)), command('after')];
    const writes = [first, big, after].map((c) => store.acceptCommand(c, 0));
    const outcomes = await Promise.allSettled(writes);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
    expect(await store.getCommand(account.id, first.id)).toBeNull();
    expect(await store.getCommand(account.id, big.id)).toBeNull();
    expect(await store.getCommand(account.id, after.id)).not.toBeNull();
    await store.close();
  });
});

describe('SqliteStore: opening beside a busy writer', () => {
  it('opens a file whose schema is current without waiting for the write lock', async () => {
    const dataDir = join(root, newId());
    await (await open(dataDir)).close();
    // Another connection holds the write lock, as a busy server nearly always does.
    const blocker = new DatabaseSync(join(dataDir, 'switchboard.db'));
    blocker.exec('BEGIN IMMEDIATE');
    try {
      const store = openSqliteStore({ dataDir, busyTimeoutMs: 50 });
      expect(await store.listAccounts()).toEqual([]);
      await store.close();
    } finally {
      blocker.exec('ROLLBACK');
      blocker.close();
    }
  });
});

describe('SqliteStore: one data directory, opened by two processes at once', () => {
  it('both open a new data directory created at the same moment, and its schema is made once', async () => {
    // The server and the operator CLI share the file. Before: "database is locked" (two
    // connections turning a new file to WAL deadlock) or "table accounts already exists" (both
    // read version 0 before either migrated) in about two opens of three.
    const base = join(root, `race-${newId()}`);
    const imports = `import { openSqliteStore } from ${JSON.stringify(new URL('../src/store/sqlite/store.ts', import.meta.url).href)};`;
    const open = `await openSqliteStore({ dataDir: ${JSON.stringify(base)} + '/' + i }).close();`;
    expect(await raceTwoProcesses(imports, open, 30, 40)).toEqual([]);
    const store = openSqliteStore({ dataDir: join(base, '0') });
    expect((store.db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBeGreaterThan(0);
    await store.close();
  }, 20_000);
});
