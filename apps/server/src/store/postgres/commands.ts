import type { CommandStore } from '../types.ts';
import { command, history, lease } from '../rules/rows.ts';
import { emptyReadRenewsBefore, pollRenewsBefore } from '../rules/leases.ts';
import { settleBatch } from './settle.ts';
import { acceptPoliced } from './policies.ts';
import { retentionTurn, type PostgresDb } from './transaction.ts';

export function commands(db: PostgresDb): CommandStore {
  const store: CommandStore = {
    findIdempotentCommand(accountId, key, notBefore) {
      return db.read(async (sql) => {
        const [row] = await sql`SELECT c.* FROM idempotency_keys k JOIN commands c ON c.id = k.command_id
          WHERE k.account_id = ${accountId} AND k.key = ${key} AND k.created_at >= ${notBefore}`;
        return row ? command(row) : null;
      });
    },

    acceptCommand(input, keyNotBefore, policed = false) {
      // Only a command the account's policies apply to leaves the batches for a locked transaction.
      if (policed) return acceptPoliced(db, input, keyNotBefore);
      return db.committed(db.accepts.accept(input, keyNotBefore));
    },

    getCommand(accountId, id) {
      return db.read(async (sql) => {
        const [row] = await sql`SELECT * FROM commands WHERE account_id = ${accountId} AND id = ${id}`;
        return row ? command(row) : null;
      });
    },

    commandHistory(id) {
      return db.read(async (sql) => history((await sql`SELECT status, created_at, settled_at, held_at, released_at FROM commands WHERE id = ${id}`)[0]));
    },

    dispatchCommands(accountId, epoch, max, holding, now, ttlMs) {
      // One statement, its own transaction: one round trip. Fencing: the lease row is share-locked
      // (and locked by its renewal, when one is due) until it commits, so no new epoch can be
      // granted between the check and the dispatch it allows; the update marks nothing when the
      // check fails. The COMMIT does not wait for the WAL flush: a dispatch mark lost to a crash
      // only hands the command out again, a renewal lost only ends the lease sooner (connector.yaml,
      // Dispatch, Leases and fencing). One row with `live` null: not the live epoch; with `id`
      // null: nothing to hand out.
      return db.statement(async (sql) => {
        const rows = await sql`WITH unsynced AS (SELECT set_config('synchronous_commit', 'off', true)),
            live AS (SELECT epoch, expires_at FROM leases WHERE account_id = ${accountId} AND epoch = ${epoch} AND expires_at > ${now} FOR SHARE),
            pick AS (SELECT id FROM commands WHERE account_id = ${accountId} AND status = 'queued' AND held_by IS NULL
                    AND (dispatch_epoch IS NULL OR dispatch_epoch < ${epoch}
                      OR (dispatch_epoch = ${epoch} AND id NOT IN (SELECT jsonb_array_elements_text(${sql.json([...holding])}))))
                    AND EXISTS (SELECT 1 FROM live)
                  ORDER BY id LIMIT ${max} FOR UPDATE SKIP LOCKED),
            marked AS (UPDATE commands c SET dispatch_epoch = ${epoch}, dispatched_at = ${now} FROM pick WHERE c.id = pick.id RETURNING c.*),
            renewal AS (UPDATE leases SET expires_at = ${now + ttlMs}
                    WHERE account_id = ${accountId} AND epoch = ${epoch} AND expires_at > ${now}
                      AND (expires_at < ${emptyReadRenewsBefore(now, ttlMs, holding.length === 0)} OR (expires_at < ${pollRenewsBefore(now, ttlMs)} AND EXISTS (SELECT 1 FROM pick))) RETURNING *)
          SELECT live.epoch AS live, live.expires_at AS lease_expires_at, (SELECT to_jsonb(r) FROM renewal r) AS renewed,
              (SELECT COALESCE(MAX(version), 0) FROM cache_version) AS cache_version, marked.*
            FROM (SELECT count(*) FROM unsynced) once LEFT JOIN live ON true LEFT JOIN marked ON true`;
        // The version read with the dispatch serves the reads that follow it (the commands' conversations).
        if (rows[0]) db.cache.observed(Number(rows[0].cache_version));
        if (rows[0]?.live == null) return null;
        const renewed = rows[0].renewed ? lease(rows[0].renewed as Record<string, unknown>) : null;
        if (renewed) db.cache.put(`lease:${accountId}`, renewed);
        const commands = rows.filter((r) => r.id !== null).map(command).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
        return { commands, leaseExpiresAt: renewed?.expiresAt ?? Number(rows[0].lease_expires_at) };
      });
    },

    settleCommand(s) {
      return store.settleCommands([s]).then(([result]) => result!);
    },

    settleCommands(settlements) {
      const withEvents = settlements.find((s) => s.platformEvents);
      // Until the batch says otherwise, a rename or a membership change may have committed.
      let changed = true;
      return db.write(async (tx) => {
        const batch = await settleBatch(tx, settlements);
        changed = batch.conversationsChanged;
        return batch.results;
      }).finally(() => {
        if (withEvents && changed) db.cache.forget(`conversation:${withEvents.accountId}:`);
      });
    },

    purgeIdempotencyKeys(olderThan) {
      return db.write(async (tx) => {
        if (!(await retentionTurn(tx))) return 0;
        return (await tx`DELETE FROM idempotency_keys WHERE created_at < ${olderThan}`).count;
      });
    },

    purgeCommands(settledBefore, limit) {
      return db.write(async (tx) => {
        if (!(await retentionTurn(tx))) return 0;
        // A command whose key is still kept stays: an adopted duplicate answers with it.
        // A poll is kept as long as the command that sent it (its pollId).
        const [row] = await tx`WITH gone AS (DELETE FROM commands WHERE id IN (
            SELECT c.id FROM commands c WHERE c.settled_at < ${settledBefore} AND c.status <> 'queued'
              AND NOT EXISTS (SELECT 1 FROM idempotency_keys k WHERE k.account_id = c.account_id AND k.key = c.idempotency_key AND k.command_id = c.id)
            LIMIT ${limit} FOR UPDATE SKIP LOCKED) RETURNING account_id, id),
          votes AS (DELETE FROM poll_votes v USING gone WHERE v.account_id = gone.account_id AND v.poll_id = gone.id),
          polls AS (DELETE FROM polls p USING gone WHERE p.account_id = gone.account_id AND p.id = gone.id)
          SELECT count(*)::int AS n FROM gone`;
        return row!.n as number;
      });
    },
  };
  return store;
}
