import type { AccountStore } from '../types.ts';
import { account, credential } from '../rules/rows.ts';
import { sameHash } from '../rules/credentials.ts';
import { policiesOf } from '../rules/policies.ts';
import type { SqliteDb } from './transaction.ts';
import { releaseDue } from './holds.ts';

export function accounts(db: SqliteDb): AccountStore {
  return {
    createAccount(input) {
      return db.write(() => {
        db.cache.forget();
        db.sql('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)').run(input.id, input.name, input.createdAt);
        return { ...input, outboundPaused: false };
      });
    },

    getAccount(id) {
      return db.read(() => account(db.query('SELECT * FROM accounts WHERE id = ?').get(id)));
    },

    findAccount(idOrName) {
      return db.read(() => account(db.query('SELECT * FROM accounts WHERE id = ? OR name = ?').get(idOrName, idOrName)));
    },

    listAccounts() {
      return db.read(() => db.query('SELECT * FROM accounts ORDER BY created_at, id').all().map((r) => account(r)!));
    },

    setOutboundPaused(accountId, paused) {
      return db.write(() => {
        db.cache.forget();
        if (accountId === null) {
          db.sql("INSERT INTO settings (key, value) VALUES ('outbound_paused', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
            .run(paused ? '1' : '0');
        } else {
          db.sql('UPDATE accounts SET outbound_paused = ? WHERE id = ?').run(paused ? 1 : 0, accountId);
        }
      });
    },

    isOutboundPaused(accountId) {
      return db.read(() => db.cache.get(db.cache.paused, accountId, () => {
        const row = db.query(
          "SELECT (SELECT outbound_paused FROM accounts WHERE id = ?) AS account, (SELECT value FROM settings WHERE key = 'outbound_paused') AS global",
        ).get(accountId) as { account: number | null; global: string | null };
        return row.account === 1 || row.global === '1';
      }));
    },

    getPolicies(accountId) {
      return db.read(() => db.cache.get(db.cache.policies, accountId, () =>
        policiesOf(db.query('SELECT policies FROM line_policies WHERE account_id = ?').get(accountId))));
    },

    setPolicies(accountId, policies, at) {
      return db.write(() => {
        db.cache.forget();
        db.sql(`INSERT INTO line_policies (account_id, policies, updated_at) VALUES (?, ?, ?)
          ON CONFLICT (account_id) DO UPDATE SET policies = excluded.policies, updated_at = excluded.updated_at`)
          .run(accountId, JSON.stringify(policies), at);
        return releaseDue(db, accountId, policies, at);
      });
    },

    createCredential(input) {
      return db.write(() => {
        db.cache.forget();
        db.sql('INSERT INTO credentials (id, account_id, kind, hash, prefix, label, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
          .run(input.id, input.accountId, input.kind, input.hash, input.prefix, input.label, input.createdAt);
        const { hash: _hash, ...record } = input;
        return { ...record, revokedAt: null };
      });
    },

    findCredentialByHash(hash) {
      return db.read(() => {
        // Kept as the record, not the row: every request of the key reads it.
        const found = db.cache.get(db.cache.credentials, hash.toString('latin1'), () => {
          const row = db.query('SELECT * FROM credentials WHERE hash = ? AND revoked_at IS NULL').get(hash);
          return row ? Object.freeze({ ...credential(row), hash: Buffer.from(row.hash as Uint8Array) }) : null;
        });
        return found && sameHash(found.hash, hash) ? found : null;
      });
    },

    listCredentials(accountId) {
      return db.read(() => db.query('SELECT * FROM credentials WHERE account_id = ? ORDER BY created_at, id').all(accountId).map(credential));
    },

    revokeCredential(id, at) {
      return db.write(() => {
        db.cache.forget();
        db.sql('UPDATE credentials SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, id);
        const row = db.sql('SELECT * FROM credentials WHERE id = ?').get(id);
        return row ? credential(row) : null;
      });
    },
  };
}
