import type { AccountStore } from '../types.ts';
import { account, credential } from '../rules/rows.ts';
import { sameHash } from '../rules/credentials.ts';
import { policiesOf } from '../rules/policies.ts';
import { cacheChanged } from './cache.ts';
import { insertEvents } from './events.ts';
import { releaseDue, wake } from './holds.ts';
import type { PostgresDb } from './transaction.ts';

export function accounts(db: PostgresDb): AccountStore {
  return {
    createAccount(input) {
      return db.write(async (tx) => {
        await tx`INSERT INTO accounts (id, name, created_at) VALUES (${input.id}, ${input.name}, ${input.createdAt})`;
        return { ...input, outboundPaused: false };
      });
    },

    getAccount(id) {
      return db.read(async (sql) => account((await sql`SELECT * FROM accounts WHERE id = ${id}`)[0]));
    },

    findAccount(idOrName) {
      return db.read(async (sql) => account((await sql`SELECT * FROM accounts WHERE id = ${idOrName} OR name = ${idOrName}`)[0]));
    },

    listAccounts() {
      return db.read(async (sql) => (await sql`SELECT * FROM accounts ORDER BY created_at, id`).map((r) => account(r)!));
    },

    async setOutboundPaused(accountId, paused) {
      await db.write(async (tx) => {
        if (accountId === null) {
          await tx`INSERT INTO settings (key, value) VALUES ('outbound_paused', ${paused ? '1' : '0'}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`;
        } else {
          await tx`UPDATE accounts SET outbound_paused = ${paused ? 1 : 0} WHERE id = ${accountId}`;
        }
        await cacheChanged(tx);
      });
      db.cache.forget(accountId === null ? 'paused:' : `paused:${accountId}`);
    },

    async isOutboundPaused(accountId) {
      return (await db.cache.get(`paused:${accountId}`, () => db.read(async (sql) => {
        const [row] = await sql`SELECT (SELECT outbound_paused FROM accounts WHERE id = ${accountId}) AS account, (SELECT value FROM settings WHERE key = 'outbound_paused') AS global`;
        return row!.account === 1 || row!.global === '1';
      })))!;
    },

    async getPolicies(accountId) {
      // Cached as NO_POLICIES too (not null), so an account without policies reads nothing more.
      return (await db.cache.get(`policies:${accountId}`, () => db.read(async (sql) =>
        policiesOf((await sql`SELECT policies FROM line_policies WHERE account_id = ${accountId}`)[0]))))!;
    },

    async setPolicies(accountId, policies, at) {
      // The upsert locks the row intake locks: the release below is ordered with every hold's change.
      const released = await db.write(async (tx) => {
        await tx`INSERT INTO line_policies (account_id, policies, updated_at) VALUES (${accountId}, ${tx.json(policies as never)}, ${at})
          ON CONFLICT (account_id) DO UPDATE SET policies = excluded.policies, updated_at = excluded.updated_at`;
        await cacheChanged(tx);
        const events = await releaseDue(tx, accountId, policies, at);
        if (events.length > 0) await Promise.all([insertEvents(tx, accountId, events), wake(tx, accountId)]);
        return events.length;
      });
      db.cache.forget(`policies:${accountId}`);
      return released;
    },

    createCredential(input) {
      return db.write(async (tx) => {
        await tx`INSERT INTO credentials (id, account_id, kind, hash, prefix, label, created_at)
          VALUES (${input.id}, ${input.accountId}, ${input.kind}, ${input.hash}, ${input.prefix}, ${input.label}, ${input.createdAt})`;
        const { hash: _hash, ...record } = input;
        return { ...record, revokedAt: null };
      });
    },

    findCredentialByHash(hash) {
      // A request's first read: it waits for a check of the cache's version sent after it arrived.
      return db.cache.get(`credential:${hash.toString('hex')}`, () => db.read(async (sql) => {
        const [row] = await sql`SELECT * FROM credentials WHERE hash = ${hash} AND revoked_at IS NULL`;
        if (!row) return null;
        const stored = Buffer.from(row.hash as Uint8Array);
        return sameHash(stored, hash) ? { ...credential(row), hash: stored } : null;
      }), { strict: true });
    },

    listCredentials(accountId) {
      return db.read(async (sql) => (await sql`SELECT * FROM credentials WHERE account_id = ${accountId} ORDER BY created_at, id`).map(credential));
    },

    async revokeCredential(id, at) {
      const revoked = await db.write(async (tx) => {
        const changed = await tx`UPDATE credentials SET revoked_at = ${at} WHERE id = ${id} AND revoked_at IS NULL`;
        if (changed.count > 0) await cacheChanged(tx);
        const [row] = await tx`SELECT * FROM credentials WHERE id = ${id}`;
        return row ? credential(row) : null;
      });
      db.cache.forget('credential:');
      return revoked;
    },
  };
}
