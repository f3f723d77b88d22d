import type { Sql } from 'postgres';
import type { CommandRecord, HoldStore, LinePolicies, NewEvent } from '../types.ts';
import { command } from '../rules/rows.ts';
import { contactKeys, dueReleases, heldEvent, operatorRelease, policiesOf, rejectionCode, releasedEvent, DAY_MS, HOUR_MS, MINUTE_MS } from '../rules/policies.ts';
import { err, ok } from '../../result.ts';
import { insertEvents } from './events.ts';
import { CHANNEL } from './changes.ts';
import type { PostgresDb, Tx } from './transaction.ts';

/**
 * Inside a transaction holding the account's `line_policies` row lock: releases the account's
 * quiet-hours holds `dueReleases` lets go at `now`, in the order they were accepted. Answers
 * their command.released events, for the caller to append (with the NOTIFY that wakes polls). The
 * lock orders every change of a hold; the update checks the hold again all the same, so a
 * command is released (and its event appended) once.
 */
export async function releaseDue(tx: Tx, accountId: string, policies: LinePolicies, now: number): Promise<NewEvent[]> {
  const held = await tx`SELECT id, type, conversation_id FROM commands WHERE account_id = ${accountId} AND held_by = 'quietHours' ORDER BY id`;
  if (held.length === 0) return [];
  const due = dueReleases(policies, held.map((row) => ({ id: row.id as string, conversationId: row.conversation_id as string | null, heldBy: 'quietHours' as const })), now);
  if (due.length === 0) return [];
  const released = await tx`UPDATE commands SET held_by = NULL, released_at = ${now}
    WHERE id = ANY(${due.map((d) => d.id)}) AND account_id = ${accountId} AND held_by = 'quietHours' RETURNING id`;
  const done = new Set(released.map((row) => row.id as string));
  const types = new Map(held.map((row) => [row.id as string, row.type as CommandRecord['type']]));
  return due.filter(({ id }) => done.has(id)).map(({ id, by }) => releasedEvent({ id, type: types.get(id)! }, 'quietHours', by, now));
}

/** Locks the account's policies row (the lock intake takes) and answers its policies. */
async function lockPolicies(tx: Tx, accountId: string): Promise<LinePolicies> {
  return policiesOf((await tx`SELECT policies FROM line_policies WHERE account_id = ${accountId} FOR UPDATE`)[0]);
}

/**
 * Holds on PostgreSQL: each change of a hold is one transaction holding the account's
 * `line_policies` row lock (as intake's policed path does), so replicas change a hold one after
 * the other and each hold ends once; a release wakes the account's polls on every replica.
 */
export function holds(db: PostgresDb): HoldStore {
  /** The account of command `id`, read before its account's lock is taken (lock order: policies row, then command row). */
  const accountOf = async (id: string) => (await db.read((sql) => sql`SELECT account_id FROM commands WHERE id = ${id}`))[0]?.account_id as string | undefined;

  /** Under the account's policies lock, the command locked, or why it is not held. */
  async function lockHeld(tx: Tx, accountId: string, id: string) {
    const [policies, [row]] = await Promise.all([lockPolicies(tx, accountId), tx`SELECT * FROM commands WHERE id = ${id} FOR UPDATE`]);
    if (!row) return err('not_found' as const);
    const current = command(row);
    if (current.heldBy === null) return err('not_held' as const);
    return ok({ policies, current: current as CommandRecord & { heldBy: NonNullable<CommandRecord['heldBy']> } });
  }

  return {
    async releaseDueHolds(now) {
      const accounts = (await db.read((sql) => sql`SELECT DISTINCT account_id FROM commands WHERE held_by = 'quietHours'`)).map((row) => row.account_id as string);
      const released: Array<{ accountId: string; released: number }> = [];
      // One transaction per account: a replica racing this one waits on the lock, then finds nothing left.
      for (const accountId of accounts) {
        const n = await db.write(async (tx) => {
          const events = await releaseDue(tx, accountId, await lockPolicies(tx, accountId), now);
          if (events.length > 0) await Promise.all([insertEvents(tx, accountId, events), wake(tx, accountId), tx.commit()]);
          return events.length;
        });
        if (n > 0) released.push({ accountId, released: n });
      }
      return released;
    },

    async releaseHeld(id, now) {
      const accountId = await accountOf(id);
      if (accountId === undefined) return err('not_found' as const);
      return db.write(async (tx) => {
        const locked = await lockHeld(tx, accountId, id);
        if (!locked.ok) return locked;
        const { policies, current } = locked.value;
        const hold = operatorRelease(policies, { heldBy: current.heldBy, conversationId: current.conversationId }, now);
        if (current.heldBy === 'firstContactApproval') {
          // Its addresses are its first contacts now (taken over from another command still awaiting
          // approval, or counted now when a rejection gave them back): no later rejection takes them back.
          await Promise.all(contactKeys(current).map((address) => tx`INSERT INTO first_contacts AS f (account_id, address, at, command_id)
            VALUES (${accountId}, ${address}, ${now}, ${id})
            ON CONFLICT (account_id, address) DO UPDATE SET command_id = excluded.command_id
            WHERE (SELECT held_by FROM commands WHERE id = f.command_id) = 'firstContactApproval'`));
        }
        const [[row]] = await Promise.all(hold
          ? [tx`UPDATE commands SET held_by = ${hold.policy} WHERE id = ${id} RETURNING *`, insertEvents(tx, accountId, [heldEvent(current, hold, now)]), tx.commit()]
          : [tx`UPDATE commands SET held_by = NULL, released_at = ${now} WHERE id = ${id} RETURNING *`,
            insertEvents(tx, accountId, [releasedEvent(current, current.heldBy, 'operator', now)]), wake(tx, accountId), tx.commit()]);
        return ok(command(row!));
      });
    },

    async rejectHeld(id, reason, now, eventData) {
      const accountId = await accountOf(id);
      if (accountId === undefined) return err('not_found' as const);
      return db.write(async (tx) => {
        const locked = await lockHeld(tx, accountId, id);
        if (!locked.ok) return locked;
        const { current } = locked.value;
        const [[row]] = await Promise.all([
          tx`UPDATE commands SET held_by = NULL, status = 'failed', error_code = ${rejectionCode(current.heldBy)}, error_message = ${reason}, settled_at = ${now}
            WHERE id = ${id} RETURNING *`,
          // The unit it spent goes back: the address is new again.
          tx`DELETE FROM first_contacts WHERE account_id = ${accountId} AND command_id = ${id}`,
        ]);
        const settled = command(row!);
        await Promise.all([insertEvents(tx, accountId, [{ type: 'command.settled', time: now, data: eventData(settled) }]), tx.commit()]);
        return ok(settled);
      });
    },

    policyCounts(accountId, conversationId, now) {
      return db.read(async (sql) => {
        const [contacts, held, conversation] = await Promise.all([
          sql`SELECT count(*) FILTER (WHERE at > ${now - HOUR_MS})::int AS hour, count(*) FILTER (WHERE at > ${now - DAY_MS})::int AS day
            FROM first_contacts WHERE account_id = ${accountId}`,
          sql`SELECT held_by, count(*)::int AS n FROM commands WHERE account_id = ${accountId} AND held_by IS NOT NULL GROUP BY held_by`,
          conversationId === null ? null : Promise.all([
            sql`SELECT count(*)::int AS n FROM commands
              WHERE conversation_id = ${conversationId} AND account_id = ${accountId} AND created_at > ${now - MINUTE_MS} AND type = 'message.send'`,
            unanswered(sql, accountId, conversationId, 1_000_000),
          ]),
        ]);
        const heldBy = (policy: string) => Number(held.find((row) => row.held_by === policy)?.n ?? 0);
        return {
          firstContactsLastHour: Number(contacts[0]!.hour),
          firstContactsLastDay: Number(contacts[0]!.day),
          held: { quietHours: heldBy('quietHours'), firstContactApproval: heldBy('firstContactApproval') },
          conversation: conversation === null ? null : { sendsLastMinute: Number(conversation[0][0]!.n), unanswered: conversation[1] },
        };
      });
    },
  };
}

/** Wakes the account's dispatch polls on every replica once the transaction commits (this one's own: its caller). */
export async function wake(tx: Tx, accountId: string): Promise<void> {
  const payload = `c:${accountId}`;
  tx.announce(payload);
  await tx`SELECT pg_notify(${CHANNEL}, ${payload})`;
}

/** The conversation's `message.send` commands since its newest inbound message, counted up to `upTo`. */
export async function unanswered(sql: Sql, accountId: string, conversationId: string, upTo: number): Promise<number> {
  const [row] = await sql`SELECT count(*) AS n FROM (SELECT 1 FROM commands
    WHERE conversation_id = ${conversationId} AND type = 'message.send' AND created_at >= COALESCE((SELECT MAX(recorded_at) FROM messages
      WHERE account_id = ${accountId} AND conversation_id = ${conversationId} AND direction = 'inbound'), 0) LIMIT ${upTo}) s`;
  return Number(row?.n ?? 0);
}
