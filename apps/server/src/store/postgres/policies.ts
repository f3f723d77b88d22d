import { StoreError, type AcceptResult, type NewCommand, type NewEvent } from '../types.ts';
import { command } from '../rules/rows.ts';
import { queued } from '../rules/commands.ts';
import { decidePolicies, heldEvent, policiesOf, usageQuery, type PolicyUsage } from '../rules/policies.ts';
import { insertEvents } from './events.ts';
import { releaseDue, unanswered, wake } from './holds.ts';
import type { PostgresDb, Tx } from './transaction.ts';

/** The key went to a command committed meanwhile: the transaction is rolled back and that command adopted. */
class KeyTaken extends Error {}

/**
 * Intake's write for a command its account's line policies apply to, outside the accept batches:
 * one transaction that locks the account's `line_policies` row first, so two replicas (or two
 * requests) count and write one after the other and never both spend the last unit. Then as the
 * batch does: an idempotent retry adopts (spending nothing), else the account's due quiet-hours
 * holds are released (so the new command comes after them), the usage is read, the rule decides,
 * and the command (held, with its command.held event, when the rule holds it), its key and its
 * first contacts are written, or nothing of it is.
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
  // The release and the usage read nothing of each other (a quiet-hours release changes no count): one round trip.
  const [releases, usage] = await Promise.all([releaseDue(tx, accountId, policies, now), readUsage(tx, input, usageQuery(policies, input, now))]);
  const released = releases.length;
  const decision = decidePolicies(policies, input, usage, now);
  if (!decision.proceed) {
    // Nothing of the command is written; the releases are, with their events.
    if (released > 0) await Promise.all([insertEvents(tx, accountId, releases), wake(tx, accountId), tx.commit()]);
    return { disposition: 'refused', refusal: decision.refusal, ...releasedCount(released) };
  }
  const { hold } = decision;
  if (key !== null) {
    // As the batch claims it: a key past retention is taken over, a live one adopted (after rollback).
    const claimed = await tx`INSERT INTO idempotency_keys AS k (account_id, key, command_id, created_at) VALUES (${accountId}, ${key}, ${input.id}, ${now})
      ON CONFLICT (account_id, key) DO UPDATE SET command_id = excluded.command_id, created_at = excluded.created_at WHERE k.created_at < ${keyNotBefore}
      RETURNING command_id`;
    if (claimed.length === 0) throw new KeyTaken();
  }
  const events: NewEvent[] = hold ? [...releases, heldEvent(input, hold, now)] : releases;
  await Promise.all([
    tx`INSERT INTO commands (id, account_id, type, routing_path, status, target, payload, logical_action_id, idempotency_key, conversation_id, created_at, held_by, held_at)
      VALUES (${input.id}, ${accountId}, ${input.type}, ${input.routingPath}, 'queued', ${JSON.stringify(input.target)}, ${JSON.stringify(input.payload)},
        ${input.logicalActionId}, ${key}, ${input.conversationId}, ${now}, ${hold?.policy ?? null}, ${hold ? now : null})`,
    ...decision.firstContacts.map((address) => tx`INSERT INTO first_contacts (account_id, address, at, command_id) VALUES (${accountId}, ${address}, ${now}, ${input.id})`),
    insertEvents(tx, accountId, events),
    // A held command wakes no poll: it is not dispatched (released ones are).
    (!hold || released > 0) && wake(tx, accountId),
    tx.commit(),
  ]);
  return { ...queued(input, hold), ...releasedCount(released) };
}

/** `released` as AcceptResult carries it: absent when none. */
const releasedCount = (released: number) => (released > 0 ? { released } : {});

/** What `decidePolicies` counts for `input`, as `query` asks (null: nothing), read under the account's lock. */
async function readUsage(tx: Tx, input: NewCommand, query: ReturnType<typeof usageQuery>): Promise<PolicyUsage> {
  if (query === null) return { participants: [], counted: [], awaiting: [], firstContacts: [], sends: [], unanswered: 0 };
  const { accountId } = input;
  const none = Promise.resolve([]);
  const [participants, counted, contacts, sends, unansweredSends] = await Promise.all([
    query.addresses.length === 0 ? none : tx`SELECT participants FROM conversations WHERE account_id = ${accountId}`,
    // An address a command still held for approval counted is awaiting, not known.
    query.addresses.length === 0 ? none : tx`SELECT f.address, c.held_by FROM first_contacts f LEFT JOIN commands c ON c.id = f.command_id
      WHERE f.account_id = ${accountId} AND f.address = ANY(${query.addresses})`,
    query.firstContactsSince === null ? none : tx`SELECT at FROM first_contacts WHERE account_id = ${accountId} AND at >= ${query.firstContactsSince}`,
    query.sendsSince === null ? none : tx`SELECT created_at FROM commands
      WHERE conversation_id = ${query.conversationId} AND created_at >= ${query.sendsSince} AND type = 'message.send'`,
    query.unansweredUpTo === null ? 0 : unanswered(tx, accountId, query.conversationId!, query.unansweredUpTo),
  ]);
  return {
    participants: participants.flatMap((row) => JSON.parse(row.participants as string) as string[]),
    counted: counted.filter((row) => row.held_by !== 'firstContactApproval').map((row) => row.address as string),
    awaiting: counted.filter((row) => row.held_by === 'firstContactApproval').map((row) => row.address as string),
    firstContacts: contacts.map((row) => Number(row.at)),
    sends: sends.map((row) => Number(row.created_at)),
    unanswered: unansweredSends,
  };
}
