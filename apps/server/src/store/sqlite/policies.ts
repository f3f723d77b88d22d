import type { NewCommand } from '../types.ts';
import { decidePolicies, policiesOf, usageQuery, type PolicyRefusal } from '../rules/policies.ts';
import type { SqliteDb } from './transaction.ts';

/**
 * Holds `input` to its account's line policies, inside the write that records it: SQLite has one
 * writer, so what is read here (the open group's commands included) cannot change before the
 * write commits. Records the first contacts it makes and answers null, or answers the refusal
 * having written nothing.
 */
export function spendPolicies(db: SqliteDb, input: NewCommand): PolicyRefusal | null {
  const policies = policiesOf(db.sql('SELECT policies FROM line_policies WHERE account_id = ?').get(input.accountId));
  const now = input.createdAt;
  const query = usageQuery(policies, input, now);
  if (query === null) return null;
  const addresses = JSON.stringify(query.addresses);
  const usage = {
    participants: query.addresses.length === 0 ? [] : db.sql('SELECT participants FROM conversations WHERE account_id = ?')
      .all(input.accountId).flatMap((row) => JSON.parse(row.participants as string) as string[]),
    counted: query.addresses.length === 0 ? [] : db.sql('SELECT address FROM first_contacts WHERE account_id = ? AND address IN (SELECT value FROM json_each(?))')
      .all(input.accountId, addresses).map((row) => row.address as string),
    firstContacts: query.firstContactsSince === null ? [] : db.sql('SELECT at FROM first_contacts WHERE account_id = ? AND at >= ?')
      .all(input.accountId, query.firstContactsSince).map((row) => Number(row.at)),
    sends: query.sendsSince === null ? [] : db.sql("SELECT created_at FROM commands WHERE conversation_id = ? AND created_at >= ? AND type = 'message.send'")
      .all(query.conversationId, query.sendsSince).map((row) => Number(row.created_at)),
    unanswered: query.unansweredUpTo === null ? 0 : Number((db.sql(`SELECT count(*) AS n FROM (SELECT 1 FROM commands
        WHERE conversation_id = ? AND type = 'message.send' AND created_at >= COALESCE((SELECT MAX(recorded_at) FROM messages
          WHERE account_id = ? AND conversation_id = ? AND direction = 'inbound'), 0) LIMIT ?)`)
      .get(query.conversationId, input.accountId, query.conversationId, query.unansweredUpTo) as { n: number }).n),
  };
  const decision = decidePolicies(policies, input, usage, now);
  if (!decision.proceed) return decision.refusal;
  const record = db.sql('INSERT INTO first_contacts (account_id, address, at, command_id) VALUES (?, ?, ?, ?)');
  for (const address of decision.firstContacts) record.run(input.accountId, address, now, input.id);
  return null;
}
