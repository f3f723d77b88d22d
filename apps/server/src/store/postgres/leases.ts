import type { LeaseStore } from '../types.ts';
import { lease } from '../rules/rows.ts';
import { acquisition, isLiveEpoch, openPollRenewsBefore } from '../rules/leases.ts';
import { cacheChanged } from './cache.ts';
import { CHANNEL } from './changes.ts';
import type { PostgresDb, Tx } from './transaction.ts';

/** The fence: share-locks the lease row until COMMIT, so a new epoch waits for this transaction. */
export async function liveEpoch(tx: Tx, accountId: string, epoch: number, now: number): Promise<boolean> {
  const [held] = await tx`SELECT epoch, expires_at FROM leases WHERE account_id = ${accountId} FOR SHARE`;
  return isLiveEpoch(held ? { epoch: Number(held.epoch), expiresAt: Number(held.expires_at) } : null, epoch, now);
}

/** Wakes the account's dispatch long-polls: delivered at COMMIT, and only if the transaction commits. */
async function notify(tx: Tx, accountId: string): Promise<void> {
  const payload = `c:${accountId}`;
  tx.announce(payload);
  await tx`SELECT pg_notify(${CHANNEL}, ${payload})`;
}

export function leases(db: PostgresDb): LeaseStore {
  return {
    async acquireLease(input, now, ttlMs) {
      const result = await db.write(async (tx) => {
        // The row exists before it is locked, so racing first acquisitions queue on one row lock.
        await tx`INSERT INTO leases (account_id, host_id, epoch, os_major_version, capabilities, acquired_at, expires_at)
          VALUES (${input.accountId}, '', 0, 0, '[]', 0, 0) ON CONFLICT DO NOTHING`;
        const [row] = await tx`SELECT * FROM leases WHERE account_id = ${input.accountId} FOR UPDATE`;
        const result = acquisition(lease(row!), input, now, ttlMs);
        if (!result.ok) return result;
        const next = result.value;
        await tx`UPDATE leases SET host_id = ${next.hostId}, epoch = ${next.epoch}, os_major_version = ${next.osMajorVersion},
          capabilities = ${JSON.stringify(next.capabilities)}, acquired_at = ${next.acquiredAt}, expires_at = ${next.expiresAt} WHERE account_id = ${input.accountId}`;
        // Who held each epoch, for the admin API (an epoch is never granted twice; the upsert only keeps it idempotent).
        await tx`INSERT INTO lease_epochs (account_id, epoch, host_id, acquired_at) VALUES (${next.accountId}, ${next.epoch}, ${next.hostId}, ${next.acquiredAt})
          ON CONFLICT (account_id, epoch) DO UPDATE SET host_id = excluded.host_id, acquired_at = excluded.acquired_at`;
        // Commands dispatched under an earlier epoch go to this one: wake its polls on every replica.
        await Promise.all([notify(tx, input.accountId), cacheChanged(tx)]);
        return result;
      });
      db.cache.forget(`lease:${input.accountId}`);
      return result;
    },

    async renewLease(accountId, epoch, now, ttlMs) {
      // The version is left alone: another replica's cached copy expires before the lease and is read again then.
      const renewed = await db.write(async (tx) => {
        const [row] = await tx`UPDATE leases SET expires_at = ${now + ttlMs} WHERE account_id = ${accountId} AND epoch = ${epoch} AND expires_at > ${now} RETURNING *`;
        return row ? lease(row) : null;
      });
      if (renewed) db.cache.put(`lease:${accountId}`, renewed);
      return renewed;
    },

    async renewOpenPollLeases(polls, now, ttlMs) {
      if (polls.length === 0) return 0;
      // One statement, its own transaction, not waiting for the WAL flush (a renewal lost only ends the lease sooner).
      // Rows locked in account order: two replicas renewing overlapping accounts queue, not deadlock.
      const rows = await db.statement((sql) => sql`WITH unsynced AS (SELECT set_config('synchronous_commit', 'off', true)),
          due AS (SELECT l.account_id FROM leases l
              JOIN unnest(${polls.map((p) => p.accountId)}::text[], ${polls.map((p) => p.epoch)}::bigint[]) AS p(account_id, epoch)
                ON l.account_id = p.account_id AND l.epoch = p.epoch
              WHERE l.expires_at > ${now} AND l.expires_at < ${openPollRenewsBefore(now, ttlMs)}
              ORDER BY l.account_id FOR UPDATE OF l)
        UPDATE leases l SET expires_at = ${now + ttlMs}
          FROM (SELECT count(*) FROM unsynced) once, due
          WHERE l.account_id = due.account_id AND l.expires_at > ${now}
          RETURNING l.*`);
      for (const row of rows) db.cache.put(`lease:${row.account_id as string}`, lease(row));
      return rows.length;
    },

    async releaseLease(accountId, epoch, now) {
      const released = await db.write(async (tx) => {
        // Expire it rather than delete it: the row keeps the epoch counter for the next holder.
        const expired = await tx`UPDATE leases SET expires_at = ${now} WHERE account_id = ${accountId} AND epoch = ${epoch} AND expires_at > ${now}`;
        if (expired.count > 0) await Promise.all([notify(tx, accountId), cacheChanged(tx)]);
        return expired.count > 0;
      });
      db.cache.forget(`lease:${accountId}`);
      return released;
    },

    /**
     * From the cache while it holds a lease live at `now`; an expired or missing one is read again,
     * so a renewal on another replica is seen. Dispatch and settlement do not rely on it: they check
     * the epoch in their own transaction.
     */
    async liveLease(accountId, now) {
      const held = await db.cache.get(`lease:${accountId}`, () => db.read(async (sql) => {
        const [row] = await sql`SELECT * FROM leases WHERE account_id = ${accountId} AND epoch > 0 AND expires_at > ${now}`;
        return row ? lease(row) : null;
      }), { usable: (cached) => cached.expiresAt > now });
      return held && held.expiresAt > now ? held : null;
    },

    listLeases() {
      return db.read(async (sql) => (await sql`SELECT * FROM leases WHERE epoch > 0 ORDER BY account_id`).map(lease));
    },
  };
}
