import type { LeaseRecord, LeaseStore } from '../types.ts';
import { lease } from '../rules/rows.ts';
import { acquisition, isLiveEpoch, openPollRenewsBefore } from '../rules/leases.ts';
import type { SqliteDb } from './transaction.ts';

/** The account's lease as the writer sees it, inside a write. */
export function heldLease(db: SqliteDb, accountId: string): LeaseRecord | null {
  const row = db.sql('SELECT * FROM leases WHERE account_id = ?').get(accountId);
  return row ? lease(row) : null;
}

/** The account's lease as committed, through the read cache. */
export function cachedLease(db: SqliteDb, accountId: string): LeaseRecord | null {
  return db.cache.get(db.cache.leases, accountId, () => {
    const row = db.query('SELECT * FROM leases WHERE account_id = ?').get(accountId);
    return row ? lease(row) : null;
  });
}

/** The fence, inside a write: the lease of `epoch` is the live one at `now`. */
export function liveEpoch(db: SqliteDb, accountId: string, epoch: number, now: number): boolean {
  const held = db.sql('SELECT epoch, expires_at FROM leases WHERE account_id = ?').get(accountId);
  return isLiveEpoch(held ? { epoch: Number(held.epoch), expiresAt: Number(held.expires_at) } : null, epoch, now);
}

/**
 * Extends the live lease of `epoch` by `ttlMs`, inside a write; null when it is not live. Not
 * synced (the caller's write): a renewal a power loss takes back only ends the lease sooner, and
 * the fence refuses its epoch from then on (connector.yaml, "Leases and fencing").
 */
export function renewed(db: SqliteDb, accountId: string, epoch: number, now: number, ttlMs: number): LeaseRecord | null {
  const row = db.sql('UPDATE leases SET expires_at = ? WHERE account_id = ? AND epoch = ? AND expires_at > ? RETURNING *').get(now + ttlMs, accountId, epoch, now);
  if (!row) return null;
  const held = lease(row);
  db.cache.forgetEntry(db.cache.leases, accountId, held);
  return held;
}

export function leases(db: SqliteDb): LeaseStore {
  return {
    acquireLease(input, now, ttlMs) {
      return db.write(() => {
        const result = acquisition(heldLease(db, input.accountId), input, now, ttlMs);
        if (!result.ok) return result;
        const next = result.value;
        db.cache.forgetEntry(db.cache.leases, input.accountId, next);
        db.sql(
          `INSERT INTO leases (account_id, host_id, epoch, os_major_version, capabilities, acquired_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (account_id) DO UPDATE SET host_id = excluded.host_id, epoch = excluded.epoch, os_major_version = excluded.os_major_version,
             capabilities = excluded.capabilities, acquired_at = excluded.acquired_at, expires_at = excluded.expires_at`,
        ).run(next.accountId, next.hostId, next.epoch, next.osMajorVersion, JSON.stringify(next.capabilities), next.acquiredAt, next.expiresAt);
        // Who held each epoch, for the admin API (an epoch is never granted twice; the upsert only keeps it idempotent).
        db.sql(`INSERT INTO lease_epochs (account_id, epoch, host_id, acquired_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (account_id, epoch) DO UPDATE SET host_id = excluded.host_id, acquired_at = excluded.acquired_at`)
          .run(next.accountId, next.epoch, next.hostId, next.acquiredAt);
        return result;
      });
    },

    renewLease(accountId, epoch, now, ttlMs) {
      return db.write(() => renewed(db, accountId, epoch, now, ttlMs), false);
    },

    renewOpenPollLeases(polls, now, ttlMs) {
      if (polls.length === 0) return Promise.resolve(0);
      // Pairs, not an object by account: two polls of one account under different epochs both count.
      const pairs = JSON.stringify(polls.map((p) => [p.accountId, p.epoch]));
      return db.write(() => {
        // One statement for the batch: the loop runs in SQLite, not a statement a lease.
        const rows = db.sql(`UPDATE leases SET expires_at = ? FROM json_each(?) AS p
            WHERE leases.account_id = p.value ->> 0 AND leases.epoch = p.value ->> 1 AND leases.expires_at > ? AND leases.expires_at < ?
            RETURNING leases.account_id, leases.epoch`).all(now + ttlMs, pairs, now, openPollRenewsBefore(now, ttlMs));
        for (const row of rows) {
          const accountId = row.account_id as string;
          const cached = db.cache.leases.get(accountId);
          // The cached lease with its new expiry once this commits; read again when none is cached.
          db.cache.forgetEntry(db.cache.leases, accountId, cached?.epoch === Number(row.epoch) ? { ...cached, expiresAt: now + ttlMs } : undefined);
        }
        return rows.length;
      }, false);
    },

    releaseLease(accountId, epoch, now) {
      return db.write(() => {
        db.cache.forgetEntry(db.cache.leases, accountId);
        // Expire it rather than delete it: the row keeps the epoch counter for the next holder.
        const changes = db.sql('UPDATE leases SET expires_at = ? WHERE account_id = ? AND epoch = ? AND expires_at > ?')
          .run(now, accountId, epoch, now).changes;
        return Number(changes) > 0;
      });
    },

    liveLease(accountId, now) {
      return db.read(() => {
        const held = cachedLease(db, accountId);
        return held && held.expiresAt > now ? held : null;
      });
    },

    listLeases() {
      return db.read(() => db.query('SELECT * FROM leases ORDER BY account_id').all().map(lease));
    },
  };
}
