import type { StatementSync } from 'node:sqlite';
import type { CommandRecord, HoldStore, LinePolicies } from '../types.ts';
import { command } from '../rules/rows.ts';
import { contactKeys, dueReleases, heldEvent, operatorRelease, policiesOf, rejectionCode, releasedEvent, DAY_MS, HOUR_MS, MINUTE_MS } from '../rules/policies.ts';
import { err, ok } from '../../result.ts';
import type { SqliteDb } from './transaction.ts';
import { insertEvents } from './events.ts';

/**
 * Inside a write: releases the account's quiet-hours holds `dueReleases` lets go at `now`, in the
 * order they were accepted, each with its command.released event. Answers how many.
 */
export function releaseDue(db: SqliteDb, accountId: string, policies: LinePolicies, now: number): number {
  const held = db.sql("SELECT id, type, conversation_id, held_by FROM commands WHERE account_id = ? AND held_by = 'quietHours' ORDER BY id").all(accountId);
  if (held.length === 0) return 0;
  const rows = new Map(held.map((row) => [row.id as string, row]));
  const due = dueReleases(policies, held.map((row) => ({ id: row.id as string, conversationId: row.conversation_id as string | null, heldBy: 'quietHours' as const })), now);
  const release = db.sql('UPDATE commands SET held_by = NULL, released_at = ? WHERE id = ?');
  for (const { id, by } of due) {
    release.run(now, id);
    insertEvents(db, accountId, [releasedEvent({ id, type: rows.get(id)!.type as CommandRecord['type'] }, 'quietHours', by, now)]);
  }
  return due.length;
}

const policiesOfAccount = (db: SqliteDb, accountId: string) => policiesOf(db.sql('SELECT policies FROM line_policies WHERE account_id = ?').get(accountId));

export function holds(db: SqliteDb): HoldStore {
  return {
    async releaseDueHolds(now) {
      const accounts = await db.read(() => db.query("SELECT DISTINCT account_id FROM commands WHERE held_by = 'quietHours'").all().map((row) => row.account_id as string));
      if (accounts.length === 0) return [];
      return db.write(() => accounts
        .map((accountId) => ({ accountId, released: releaseDue(db, accountId, policiesOfAccount(db, accountId), now) }))
        .filter((r) => r.released > 0));
    },

    releaseHeld(id, now) {
      return db.write(() => {
        const row = db.sql('SELECT * FROM commands WHERE id = ?').get(id);
        if (!row) return err('not_found' as const);
        const current = command(row);
        if (current.heldBy === null) return err('not_held' as const);
        const policies = policiesOfAccount(db, current.accountId);
        const hold = operatorRelease(policies, { heldBy: current.heldBy, conversationId: current.conversationId }, now);
        if (current.heldBy === 'firstContactApproval') {
          // Its addresses are its first contacts now (taken over from another command still awaiting
          // approval, or counted now when a rejection gave them back): no later rejection takes them back.
          const claim = db.sql(`INSERT INTO first_contacts (account_id, address, at, command_id) VALUES (?, ?, ?, ?)
            ON CONFLICT (account_id, address) DO UPDATE SET command_id = excluded.command_id
            WHERE (SELECT held_by FROM commands WHERE id = first_contacts.command_id) = 'firstContactApproval'`);
          for (const address of contactKeys(current)) claim.run(current.accountId, address, now, id);
        }
        if (hold) {
          db.sql('UPDATE commands SET held_by = ? WHERE id = ?').run(hold.policy, id);
          insertEvents(db, current.accountId, [heldEvent(current, hold, now)]);
        } else {
          db.sql('UPDATE commands SET held_by = NULL, released_at = ? WHERE id = ?').run(now, id);
          insertEvents(db, current.accountId, [releasedEvent(current, current.heldBy, 'operator', now)]);
        }
        return ok(command(db.sql('SELECT * FROM commands WHERE id = ?').get(id)!));
      });
    },

    rejectHeld(id, reason, now, eventData) {
      return db.write(() => {
        const row = db.sql('SELECT * FROM commands WHERE id = ?').get(id);
        if (!row) return err('not_found' as const);
        const current = command(row);
        if (current.heldBy === null) return err('not_held' as const);
        const code = rejectionCode(current.heldBy);
        db.sql("UPDATE commands SET held_by = NULL, status = 'failed', error_code = ?, error_message = ?, settled_at = ? WHERE id = ?").run(code, reason, now, id);
        db.sql('DELETE FROM first_contacts WHERE account_id = ? AND command_id = ?').run(current.accountId, id);
        const settled = command(db.sql('SELECT * FROM commands WHERE id = ?').get(id)!);
        insertEvents(db, current.accountId, [{ type: 'command.settled', time: now, data: eventData(settled) }]);
        return ok(settled);
      });
    },

    policyCounts(accountId, conversationId, now) {
      return db.read(() => {
        const count = (text: string, ...params: Array<string | number>) => Number((db.query(text).get(...params) as { n: number }).n);
        const held = db.query('SELECT held_by, count(*) AS n FROM commands WHERE account_id = ? AND held_by IS NOT NULL GROUP BY held_by').all(accountId);
        const heldBy = (policy: string) => Number(held.find((row) => row.held_by === policy)?.n ?? 0);
        return {
          firstContactsLastHour: count('SELECT count(*) AS n FROM first_contacts WHERE account_id = ? AND at > ?', accountId, now - HOUR_MS),
          firstContactsLastDay: count('SELECT count(*) AS n FROM first_contacts WHERE account_id = ? AND at > ?', accountId, now - DAY_MS),
          held: { quietHours: heldBy('quietHours'), firstContactApproval: heldBy('firstContactApproval') },
          conversation: conversationId === null ? null : {
            sendsLastMinute: count("SELECT count(*) AS n FROM commands WHERE conversation_id = ? AND account_id = ? AND created_at > ? AND type = 'message.send'", conversationId, accountId, now - MINUTE_MS),
            unanswered: unanswered((text) => db.query(text), accountId, conversationId, 1_000_000),
          },
        };
      });
    },
  };
}

/** The conversation's `message.send` commands since its newest inbound message, counted up to `upTo`. */
export function unanswered(statement: (text: string) => StatementSync, accountId: string, conversationId: string, upTo: number): number {
  return Number((statement(`SELECT count(*) AS n FROM (SELECT 1 FROM commands
      WHERE conversation_id = ? AND type = 'message.send' AND created_at >= COALESCE((SELECT MAX(recorded_at) FROM messages
        WHERE account_id = ? AND conversation_id = ? AND direction = 'inbound'), 0) LIMIT ?)`)
    .get(conversationId, accountId, conversationId, upTo) as { n: number }).n);
}
