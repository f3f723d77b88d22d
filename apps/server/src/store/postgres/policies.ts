import { StoreError, type AcceptResult, type NewCommand } from '../types.ts';
import { command } from '../rules/rows.ts';
import { queued } from '../rules/commands.ts';
import { decidePolicies, policiesOf, usageQuery } from '../rules/policies.ts';
import { CHANNEL } from './changes.ts';
import type { PostgresDb, Tx } from './transaction.ts';

/** The key went to a command committed meanwhile: the transaction is rolled back and that command adopted. */
class KeyTaken extends Error {}

/**
 * Intake's write for a command its account's line policies apply to, outside the accept batches:
 * one transaction that locks the account's `line_policies` row first, so two replicas (or two
 * requests) count and write one after the other and never both spend the last unit. Then as the
 * batch does: an idempotent retry adopts (spending nothing), else the usage is read, the rule
 * decides, and the command, its key and its first contacts are written, or nothing is.
 */
export async function acceptPoliced(db: PostgresDb, input: NewCommand, keyNotBefore: number): Promise<AcceptResult> {
  try {
    return await db.write((tx) => policed(tx, input, keyNotBefore));
  } catch (error) {
    if (!(error instanceof KeyTaken)) throw error;
    const [row] = await db.read((sql) => sql`SELECT c.* FROM idempotency_keys k JOIN commands c ON c.id = k.command_id
      WHERE k.account_id = ${input.accountId} AND k.key = ${input.idempotencyKey}`);
    if (!row) throw new StoreError('an idempotency key was claimed without its command');
    return { disposition: 'adopted', command: command(row) };
  }
}

async function policed(tx: Tx, input: NewCommand, keyNotBefore: number): Promise<AcceptResult> {
  const { accountId, idempotencyKey: key, createdAt: now } = input;
  const [locked] = await tx`SELECT policies FROM line_policies WHERE account_id = ${accountId} FOR UPDATE`;
  // Read after the lock: a retry racing its original sees it once the original committed.
  if (key !== null) {
    const [row] = await tx`SELECT c.* FROM idempotency_keys k JOIN commands c ON c.id = k.command_id
      WHERE k.account_id = ${accountId} AND k.key = ${key} AND k.created_at >= ${keyNotBefore}`;
    if (row) return { disposition: 'adopted', command: command(row) };
  }
  const policies = policiesOf(locked);
  const query = usageQuery(policies, input, now);
  let firstContacts: string[] = [];
  if (query !== null) {
    const none = Promise.resolve([]);
    const [participants, counted, contacts, sends, unanswered] = await Promise.all([
      query.addresses.length === 0 ? none : tx`SELECT participants FROM conversations WHERE account_id = ${accountId}`,
      query.addresses.length === 0 ? none : tx`SELECT address FROM first_contacts WHERE account_id = ${accountId} AND address = ANY(${query.addresses})`,
      query.firstContactsSince === null ? none : tx`SELECT at FROM first_contacts WHERE account_id = ${accountId} AND at >= ${query.firstContactsSince}`,
      query.sendsSince === null ? none : tx`SELECT created_at FROM commands
        WHERE conversation_id = ${query.conversationId} AND created_at >= ${query.sendsSince} AND type = 'message.send'`,
      query.unansweredUpTo === null ? none : tx`SELECT count(*) AS n FROM (SELECT 1 FROM commands
        WHERE conversation_id = ${query.conversationId} AND type = 'message.send' AND created_at >= COALESCE((SELECT MAX(recorded_at) FROM messages
          WHERE account_id = ${accountId} AND conversation_id = ${query.conversationId} AND direction = 'inbound'), 0) LIMIT ${query.unansweredUpTo}) s`,
    ]);
    const decision = decidePolicies(policies, input, {
      participants: participants.flatMap((row) => JSON.parse(row.participants as string) as string[]),
      counted: counted.map((row) => row.address as string),
      firstContacts: contacts.map((row) => Number(row.at)),
      sends: sends.map((row) => Number(row.created_at)),
      unanswered: Number(unanswered[0]?.n ?? 0),
    }, now);
    if (!decision.proceed) return { disposition: 'refused', refusal: decision.refusal };
    firstContacts = decision.firstContacts;
  }
  if (key !== null) {
    // As the batch claims it: a key past retention is taken over, a live one adopted (after rollback).
    const claimed = await tx`INSERT INTO idempotency_keys AS k (account_id, key, command_id, created_at) VALUES (${accountId}, ${key}, ${input.id}, ${now})
      ON CONFLICT (account_id, key) DO UPDATE SET command_id = excluded.command_id, created_at = excluded.created_at WHERE k.created_at < ${keyNotBefore}
      RETURNING command_id`;
    if (claimed.length === 0) throw new KeyTaken();
  }
  const wake = `c:${accountId}`;
  tx.announce(wake);
  await Promise.all([
    tx`INSERT INTO commands (id, account_id, type, routing_path, status, target, payload, logical_action_id, idempotency_key, conversation_id, created_at)
      VALUES (${input.id}, ${accountId}, ${input.type}, ${input.routingPath}, 'queued', ${JSON.stringify(input.target)}, ${JSON.stringify(input.payload)},
        ${input.logicalActionId}, ${key}, ${input.conversationId}, ${now})`,
    ...firstContacts.map((address) => tx`INSERT INTO first_contacts (account_id, address, at, command_id) VALUES (${accountId}, ${address}, ${now}, ${input.id})`),
    tx`SELECT pg_notify(${CHANNEL}, ${wake})`,
    tx.commit(),
  ]);
  return queued(input);
}
