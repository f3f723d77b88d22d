import type { NewCommand } from '../types.ts';
import { decidePolicies, heldEvent, policiesOf, usageQuery, type Hold, type PolicyRefusal } from '../rules/policies.ts';
import type { SqliteDb } from './transaction.ts';
import { insertEvents } from './events.ts';
import { releaseDue, unanswered } from './holds.ts';

/**
 * Holds `input` to its account's line policies, inside the write that records it: SQLite has one
 * writer, so what is read here (the open group's commands included) cannot change before the
 * write commits. First releases the account's due quiet-hours holds, so the new command comes
 * after them. Records the first contacts it makes and answers the hold to write the command
 * under (null: none), or answers the refusal having written nothing of the command.
 */
export function spendPolicies(db: SqliteDb, input: NewCommand): { released: number } & ({ refusal: PolicyRefusal } | { hold: Hold | null }) {
  const policies = policiesOf(db.sql('SELECT policies FROM line_policies WHERE account_id = ?').get(input.accountId));
  const now = input.createdAt;
  const released = releaseDue(db, input.accountId, policies, now);
  const query = usageQuery(policies, input, now);
  const addresses = JSON.stringify(query?.addresses ?? []);
  const lookup = query !== null && query.addresses.length > 0;
  const counted = !lookup ? [] : db.sql(`SELECT f.address, c.held_by FROM first_contacts f LEFT JOIN commands c ON c.id = f.command_id
      WHERE f.account_id = ? AND f.address IN (SELECT value FROM json_each(?))`).all(input.accountId, addresses);
  const usage = {
    participants: !lookup ? [] : db.sql('SELECT participants FROM conversations WHERE account_id = ?')
      .all(input.accountId).flatMap((row) => JSON.parse(row.participants as string) as string[]),
    counted: counted.filter((row) => row.held_by !== 'firstContactApproval').map((row) => row.address as string),
    awaiting: counted.filter((row) => row.held_by === 'firstContactApproval').map((row) => row.address as string),
    firstContacts: query?.firstContactsSince == null ? [] : db.sql('SELECT at FROM first_contacts WHERE account_id = ? AND at >= ?')
      .all(input.accountId, query.firstContactsSince).map((row) => Number(row.at)),
    sends: query?.sendsSince == null ? [] : db.sql("SELECT created_at FROM commands WHERE conversation_id = ? AND created_at >= ? AND type = 'message.send'")
      .all(query.conversationId, query.sendsSince).map((row) => Number(row.created_at)),
    unanswered: query?.unansweredUpTo == null ? 0 : unanswered((text) => db.sql(text), input.accountId, query.conversationId!, query.unansweredUpTo),
  };
  const decision = decidePolicies(policies, input, usage, now);
  if (!decision.proceed) return { released, refusal: decision.refusal };
  const record = db.sql('INSERT INTO first_contacts (account_id, address, at, command_id) VALUES (?, ?, ?, ?)');
  for (const address of decision.firstContacts) record.run(input.accountId, address, now, input.id);
  return { released, hold: decision.hold };
}

/** Writes the hold of a command just inserted, and its command.held event. */
export function writeHold(db: SqliteDb, input: NewCommand, hold: Hold): void {
  db.sql('UPDATE commands SET held_by = ?, held_at = ? WHERE id = ?').run(hold.policy, input.createdAt, input.id);
  insertEvents(db, input.accountId, [heldEvent(input, hold, input.createdAt)]);
}
