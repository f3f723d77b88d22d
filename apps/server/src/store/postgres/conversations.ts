import type { PlatformEvent } from '@switchboard/contracts';
import type { CommandRecord, ConversationRecord, ConversationStore, NewEvent, PlatformEventView } from '../types.ts';
import { command, conversation, heldVote, message, MESSAGE_COLUMNS, messageValues, poll, pollVote, UPSERT_MESSAGE_SET, type Row } from '../rules/rows.ts';
import { isMessageEvent, messageCursor, parseMessageCursor, type MessageEvent } from '../rules/messages.ts';
import { appearedConversation, identityOf, platformEventEffect, UnknownConversation, type HeldMessage, type InConversation } from '../rules/platform.ts';
import { sentPoll, voteEffect } from '../rules/polls.ts';
import { cacheChanged } from './cache.ts';
import { insertEvents } from './events.ts';
import type { PostgresDb, Tx } from './transaction.ts';
import { err, ok } from '../../result.ts';

export function conversations(db: PostgresDb): ConversationStore {
  return {
    getConversation(accountId, id) {
      return db.cache.get(`conversation:${accountId}:${id}`, () => db.read(async (sql) => {
        const [row] = await sql`SELECT * FROM conversations WHERE account_id = ${accountId} AND id = ${id}`;
        return row ? conversation(row) : null;
      }));
    },

    findConversationByExternalId(accountId, externalId) {
      return db.read(async (sql) => {
        const [row] = await sql`SELECT * FROM conversations WHERE account_id = ${accountId} AND external_id = ${externalId}`;
        return row ? conversation(row) : null;
      });
    },

    listConversations(accountId, limit, cursor) {
      return db.read(async (sql) => {
        // Ids are UUIDv7, so descending id order is newest first. Ids compare bytewise (COLLATE "C"), as in SQLite.
        const rows = cursor
          ? await sql`SELECT * FROM conversations WHERE account_id = ${accountId} AND id < ${cursor} ORDER BY id DESC LIMIT ${limit + 1}`
          : await sql`SELECT * FROM conversations WHERE account_id = ${accountId} ORDER BY id DESC LIMIT ${limit + 1}`;
        const items = rows.slice(0, limit).map(conversation);
        return { items, nextCursor: rows.length > limit ? items[items.length - 1]!.id : null };
      });
    },

    async recordPlatformEvents(accountId, events, at, newConversationId, view) {
      // Until the events are applied, a rename or a membership change may have committed.
      let changed = { conversations: true };
      try {
        return await db.write(async (tx) => {
          const implied: NewEvent[] = [];
          changed = { conversations: false };
          for (const event of events) implied.push(...await applyPlatformEvent(tx, accountId, event, at, newConversationId, view, changed));
          // The appends, the version bump (the last lock) and COMMIT go in one round trip.
          const [appended] = await Promise.all([insertEvents(tx, accountId, implied), changed.conversations && cacheChanged(tx), tx.commit()]);
          return ok({ recorded: events.length, events: appended });
        });
      } catch (error) {
        if (error instanceof UnknownConversation) return err({ unknownConversation: error.externalId });
        throw error;
      } finally {
        // The version moved for the other replicas; this one drops its rows at once.
        if (changed.conversations) db.cache.forget(`conversation:${accountId}:`);
      }
    },

    getPoll(accountId, pollId) {
      return db.read(async (sql) => {
        const [row] = await sql`SELECT * FROM polls WHERE account_id = ${accountId} AND id = ${pollId}`;
        if (!row) return null;
        const votes = await sql`SELECT * FROM poll_votes WHERE account_id = ${accountId} AND poll_id = ${pollId} AND option_index IS NOT NULL ORDER BY voted_at, voter`;
        return { ...poll(row), votes: votes.map(pollVote) };
      });
    },

    getMessageOfCommand(accountId, commandId) {
      return db.read(async (sql) => {
        const [row] = await sql`SELECT * FROM messages WHERE account_id = ${accountId} AND command_id = ${commandId}`;
        return row ? message(row) : null;
      });
    },

    listMessages(accountId, conversationId, limit, cursor) {
      return db.read(async (sql) => {
        const after = cursor === null ? null : parseMessageCursor(cursor);
        const rows = after
          ? await sql`SELECT * FROM messages WHERE account_id = ${accountId} AND conversation_id = ${conversationId}
              AND (recorded_at, message_external_id) < (${after.recordedAt}, ${after.messageExternalId})
              ORDER BY recorded_at DESC, message_external_id DESC LIMIT ${limit + 1}`
          : await sql`SELECT * FROM messages WHERE account_id = ${accountId} AND conversation_id = ${conversationId}
              ORDER BY recorded_at DESC, message_external_id DESC LIMIT ${limit + 1}`;
        const items = rows.slice(0, limit).map(message);
        return { items, nextCursor: rows.length > limit ? messageCursor(items[items.length - 1]!) : null };
      });
    },
  };
}

/**
 * One platform event: reads (and locks) what its rule needs, writes what the rule returns; the
 * stream event it implies, if any. `settling`: the command being settled with it, read already;
 * `locked`: conversation rows the caller locked, by platform id.
 */
export async function applyPlatformEvent(
  tx: Tx, accountId: string, event: PlatformEvent, at: number, newConversationId: () => string, view: PlatformEventView, changed: { conversations: boolean },
  settling?: CommandRecord,
  locked?: ReadonlyMap<string, Row>,
): Promise<NewEvent[]> {
  if (event.type === 'conversation.appeared') {
    const made = appearedConversation(accountId, event, newConversationId(), at);
    // The unique (account, externalId) decides between racing replicas: the loser waits, then finds it.
    const inserted = await tx`INSERT INTO conversations (id, account_id, external_id, kind, name, participants, created_at)
      VALUES (${made.id}, ${accountId}, ${made.externalId}, ${made.kind}, ${made.name}, ${JSON.stringify(made.participants)}, ${at})
      ON CONFLICT (account_id, external_id) DO NOTHING RETURNING id`;
    const id = inserted[0] ? made.id : (await byExternalId(tx, accountId, event.externalId))!.id;
    if (event.commandId) {
      await tx`UPDATE commands SET conversation_id = ${id} WHERE account_id = ${accountId} AND id = ${event.commandId} AND conversation_id IS NULL`;
    }
    return inserted[0] ? [view(event, made)] : [];
  }
  // A row the caller locked already serves the events that read only its id; a group change reads it afresh.
  const mutable = event.type === 'group.renamed' || event.type === 'group.participants_changed';
  const lockedRow = mutable ? undefined : locked?.get(event.conversationExternalId);
  const current = lockedRow ? conversation(lockedRow) : await byExternalId(tx, accountId, event.conversationExternalId);
  if (!current) throw new UnknownConversation(event.conversationExternalId);
  if (event.type === 'poll.voted') return applyVote(tx, current, event, view);
  // The identity's record and the message's row go out together (one round trip); a re-reported
  // event (its identity recorded already) does nothing.
  const identity = identityOf(event);
  const [recorded, held] = await Promise.all([
    identity === null ? null : tx`INSERT INTO platform_records (account_id, conversation_id, type, identity, recorded_at)
      VALUES (${accountId}, ${current.id}, ${event.type}, ${identity}, ${at}) ON CONFLICT DO NOTHING`,
    isMessageEvent(event) ? heldMessage(tx, accountId, current.id, event, settling) : undefined,
  ]);
  if (recorded?.count === 0) return [];
  const effect = platformEventEffect(current, event, view, at, held);
  if (effect.conversation) {
    const { name, participants, membershipVersion } = effect.conversation;
    await tx`UPDATE conversations SET name = ${name}, participants = ${JSON.stringify(participants)}, membership_version = ${membershipVersion} WHERE id = ${current.id}`;
    changed.conversations = true;
  }
  if (effect.message) {
    await tx.unsafe(`INSERT INTO messages (${MESSAGE_COLUMNS}) VALUES (${MESSAGE_COLUMNS.split(', ').map((_, i) => `$${i + 1}`).join(', ')})
      ON CONFLICT (account_id, conversation_id, message_external_id) DO UPDATE SET ${UPSERT_MESSAGE_SET}`, messageValues(effect.message));
  }
  if (event.type === 'message.sent') await recordPoll(tx, current.id, event, at, held?.command ?? null);
  return effect.shown ? [effect.shown] : [];
}

/**
 * The message an event names, as stored, and for a message.sent the command it names (the one
 * being settled with it is read already). The conversation's row lock, taken before, keeps a
 * message's events in one order across replicas.
 */
async function heldMessage(tx: Tx, accountId: string, conversationId: string, event: MessageEvent, settling?: CommandRecord): Promise<HeldMessage> {
  const [[row], sent] = await Promise.all([
    tx`SELECT * FROM messages WHERE account_id = ${accountId} AND conversation_id = ${conversationId} AND message_external_id = ${event.messageExternalId}`,
    event.type !== 'message.sent' ? null
      : settling?.id === event.commandId ? settling
      : tx`SELECT * FROM commands WHERE account_id = ${accountId} AND id = ${event.commandId}`.then(([found]) => (found ? command(found) : null)),
  ]);
  return { message: row ? message(row) : null, command: sent };
}

async function byExternalId(tx: Tx, accountId: string, externalId: string): Promise<ConversationRecord | null> {
  const [row] = await tx`SELECT * FROM conversations WHERE account_id = ${accountId} AND external_id = ${externalId} FOR UPDATE`;
  return row ? conversation(row) : null;
}

async function recordPoll(tx: Tx, conversationId: string, event: Extract<InConversation, { type: 'message.sent' }>, at: number, sent: CommandRecord | null): Promise<void> {
  const made = sentPoll(sent, conversationId, event.messageExternalId, at);
  if (!made) return;
  await tx`INSERT INTO polls (account_id, id, conversation_id, message_external_id, question, options, sent_at)
    VALUES (${made.accountId}, ${made.id}, ${made.conversationId}, ${made.messageExternalId}, ${made.question}, ${JSON.stringify(made.options)}, ${made.sentAt})
    ON CONFLICT DO NOTHING`;
}

/** Racing replicas queue on the conversation's row lock (taken by the caller), so the held vote read here is still the held vote at the write. */
async function applyVote(tx: Tx, current: ConversationRecord, event: Extract<InConversation, { type: 'poll.voted' }>, view: PlatformEventView): Promise<NewEvent[]> {
  const [found] = await tx`SELECT * FROM polls WHERE account_id = ${current.accountId} AND conversation_id = ${current.id} AND message_external_id = ${event.pollMessageExternalId}`;
  const target = found ? poll(found) : null;
  const held = target
    ? heldVote((await tx`SELECT * FROM poll_votes WHERE account_id = ${current.accountId} AND poll_id = ${target.id} AND voter = ${event.voterExternalId}`)[0])
    : null;
  const effect = voteEffect(target, held, event, current, view);
  if (!effect) return [];
  await tx`INSERT INTO poll_votes (account_id, poll_id, voter, option_index, voted_at)
    VALUES (${current.accountId}, ${target!.id}, ${event.voterExternalId}, ${effect.vote.optionIndex}, ${effect.vote.votedAt})
    ON CONFLICT (account_id, poll_id, voter) DO UPDATE SET option_index = excluded.option_index, voted_at = excluded.voted_at`;
  return [effect.shown];
}
