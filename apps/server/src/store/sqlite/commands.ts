import type { StatementSync } from 'node:sqlite';
import type { AcceptResult, CommandRecord, CommandStore, SettleResult, Settlement } from '../types.ts';
import { command, history } from '../rules/rows.ts';
import { queued } from '../rules/commands.ts';
import { announcesConversationOf } from '../rules/platform.ts';
import { decideSettlement, settledCommand } from '../rules/settle.ts';
import type { SqliteDb } from './transaction.ts';
import { insertCommands } from './accept.ts';
import { spendPolicies, writeHold } from './policies.ts';
import { recordPlatformEvents } from './conversations.ts';
import { insertEvents } from './events.ts';
import { cachedLease, heldLease, liveEpoch, renewed } from './leases.ts';
import { emptyReadRenewsBefore, isLiveEpoch, pollRenewsBefore } from '../rules/leases.ts';
import { err, ok } from '../../result.ts';

/** A command a poll of an epoch hands out (parameters: account, epoch, epoch, the JSON of `holding`). */
const DISPATCHABLE = `account_id = ? AND status = 'queued' AND held_by IS NULL
  AND (dispatch_epoch IS NULL OR dispatch_epoch < ? OR (dispatch_epoch = ? AND id NOT IN (SELECT value FROM json_each(?))))`;

export function commands(db: SqliteDb): CommandStore {
  return {
    findIdempotentCommand(accountId, key, notBefore) {
      return db.read(() => idempotentCommand((t) => db.query(t), accountId, key, notBefore));
    },

    acceptCommand(input, keyNotBefore, policed = false) {
      const key = input.idempotencyKey;
      if (key === null && !policed) return db.defer(input);
      return db.write((): AcceptResult => {
        if (key !== null) {
          const original = idempotentCommand((t) => db.sql(t), input.accountId, key, keyNotBefore);
          if (original) return { disposition: 'adopted', command: original };
        }
        // After adoption: a retry of a command accepted already spends nothing.
        const policy = policed ? spendPolicies(db, input) : { released: 0, hold: null };
        const released = policy.released > 0 ? { released: policy.released } : {};
        if ('refusal' in policy) return { disposition: 'refused', refusal: policy.refusal, ...released };
        // A key past retention is forgotten: the new command takes it over.
        if (key !== null) db.sql('DELETE FROM idempotency_keys WHERE account_id = ? AND key = ?').run(input.accountId, key);
        insertCommands((t) => db.sql(t), [input]);
        if (key !== null) {
          db.sql('INSERT INTO idempotency_keys (account_id, key, command_id, created_at) VALUES (?, ?, ?, ?)')
            .run(input.accountId, key, input.id, input.createdAt);
        }
        if (policy.hold) writeHold(db, input, policy.hold);
        return { ...queued(input, policy.hold), ...released };
      });
    },

    getCommand(accountId, id) {
      return db.read(() => {
        const row = db.query('SELECT * FROM commands WHERE account_id = ? AND id = ?').get(accountId, id);
        return row ? command(row) : null;
      });
    },

    commandHistory(id) {
      return db.read(() => history(db.query('SELECT status, created_at, settled_at, held_at, released_at FROM commands WHERE id = ?').get(id)));
    },

    dispatchCommands(accountId, epoch, max, holding, now, ttlMs) {
      const held = JSON.stringify(holding);
      // Nothing to hand out: read on the reader, and written only to renew the lease when due.
      const lease = cachedLease(db, accountId);
      if (isLiveEpoch(lease, epoch, now) && !db.query(`SELECT 1 FROM commands WHERE ${DISPATCHABLE} LIMIT 1`).get(accountId, epoch, epoch, held)) {
        if (lease!.expiresAt >= emptyReadRenewsBefore(now, ttlMs, holding.length === 0)) return Promise.resolve({ commands: [], leaseExpiresAt: lease!.expiresAt });
        return db.write(() => {
          const renewal = renewed(db, accountId, epoch, now, ttlMs);
          return renewal && { commands: [], leaseExpiresAt: renewal.expiresAt };
        }, false);
      }
      return db.write(() => {
        // Fencing in the same transaction as the dispatch: only the live lease's epoch gets work.
        const current = heldLease(db, accountId);
        if (!isLiveEpoch(current, epoch, now)) return null;
        const leaseExpiresAt = current!.expiresAt < pollRenewsBefore(now, ttlMs) ? renewed(db, accountId, epoch, now, ttlMs)!.expiresAt : current!.expiresAt;
        const rows = db.sql(`SELECT * FROM commands WHERE ${DISPATCHABLE} ORDER BY id LIMIT ?`).all(accountId, epoch, epoch, held, max);
        const mark = db.sql('UPDATE commands SET dispatch_epoch = ?, dispatched_at = ? WHERE id = ?');
        const commands = rows.map((row) => {
          mark.run(epoch, now, row.id as string);
          return { ...command(row), dispatchEpoch: epoch, dispatchedAt: now };
        });
        return { commands, leaseExpiresAt };
        // Not synced: a dispatch mark a power loss takes back only hands the command out again (connector.yaml, Dispatch).
      }, false);
    },

    settleCommand(s) {
      return db.write(() => settle(db, s));
    },

    settleCommands(settlements) {
      // One write: the batch shares one transaction and one fsync.
      return db.write(() => settlements.map((s) => settle(db, s)));
    },

    purgeIdempotencyKeys(olderThan) {
      return db.write(() => Number(db.sql('DELETE FROM idempotency_keys WHERE created_at < ?').run(olderThan).changes));
    },

    purgeCommands(settledBefore, limit) {
      // A command whose key is still kept stays: an adopted duplicate answers with it.
      return db.write(() => {
        const gone = db.sql(
          `DELETE FROM commands WHERE id IN (
             SELECT c.id FROM commands c WHERE c.settled_at < ? AND c.status <> 'queued'
               AND NOT EXISTS (SELECT 1 FROM idempotency_keys k WHERE k.account_id = c.account_id AND k.key = c.idempotency_key AND k.command_id = c.id)
             LIMIT ?) RETURNING account_id, id`,
        ).all(settledBefore, limit);
        // A poll is kept as long as the command that sent it (its pollId).
        for (const row of gone) {
          db.sql('DELETE FROM poll_votes WHERE account_id = ? AND poll_id = ?').run(row.account_id as string, row.id as string);
          db.sql('DELETE FROM polls WHERE account_id = ? AND id = ?').run(row.account_id as string, row.id as string);
        }
        return gone.length;
      });
    },
  };
}

function idempotentCommand(statement: (text: string) => StatementSync, accountId: string, key: string, notBefore: number): CommandRecord | null {
  const row = statement(
    'SELECT c.* FROM idempotency_keys k JOIN commands c ON c.id = k.command_id WHERE k.account_id = ? AND k.key = ? AND k.created_at >= ?',
  ).get(accountId, key, notBefore);
  return row ? command(row) : null;
}

/** One settlement, inside a write: read, decide (rules/settle.ts), write. */
function settle(db: SqliteDb, s: Settlement): SettleResult {
  const row = db.sql('SELECT * FROM commands WHERE account_id = ? AND id = ?').get(s.accountId, s.commandId);
  const current = row ? command(row) : null;
  const decision = decideSettlement(current, s, current !== null && liveEpoch(db, s.accountId, s.epoch, s.at));
  if (decision !== 'proceed') return decision;
  let settling = current!;
  if (s.platformEvents) {
    const { events, newConversationId, view } = s.platformEvents;
    const recorded = recordPlatformEvents(db, s.accountId, events, s.at, newConversationId, view);
    if (!recorded.ok) return err({ reason: 'unknown_conversation', externalId: recorded.error.unknownConversation });
    // The conversation the command made (a group.create, a send to a new recipient) is its conversation now.
    if (announcesConversationOf(events, s.commandId)) settling = command(db.sql('SELECT * FROM commands WHERE id = ?').get(s.commandId)!);
  }
  const settled = settledCommand(settling, s);
  if (!settled.ok) return settled;
  db.sql('UPDATE commands SET status = ?, error_code = ?, error_message = ?, error_path = ?, detail = ?, settled_at = ? WHERE id = ?')
    .run(s.status, s.errorCode, s.errorMessage, s.errorPath, s.detail, s.at, s.commandId);
  const [event] = insertEvents(db, s.accountId, [settled.value.event]);
  return ok({ command: settled.value.command, event: event! });
}
