import type { PlatformEvent } from '@switchboard/contracts';
import type { CommandRecord, ConversationRecord, ConversationStore, NewEvent, PlatformEventsResult, PlatformEventView } from '../types.ts';
import { command, conversation, heldVote, message, MESSAGE_COLUMNS, messageValues, poll, pollVote, UPSERT_MESSAGE_SET } from '../rules/rows.ts';
import { appearedConversation, identityOf, platformEventEffect, UnknownConversation, type HeldMessage, type InConversation } from '../rules/platform.ts';
import { isMessageEvent, messageCursor, parseMessageCursor, type MessageEvent } from '../rules/messages.ts';
import { sentPoll, voteEffect } from '../rules/polls.ts';
import type { SqliteDb } from './transaction.ts';
import { insertEvents } from './events.ts';
import { err, ok } from '../../result.ts';

export function conversations(db: SqliteDb): ConversationStore {
  return {
    getConversation(accountId, id) {
      return db.read(() => {
        const found = db.cache.get(db.cache.conversations, id, () => {
          const row = db.query('SELECT * FROM conversations WHERE id = ?').get(id);
          return row ? conversation(row) : null;
        });
        return found && found.accountId === accountId ? found : null;
      });
    },

    findConversationByExternalId(accountId, externalId) {
      return db.read(() => {
        const row = db.query('SELECT * FROM conversations WHERE account_id = ? AND external_id = ?').get(accountId, externalId);
        return row ? conversation(row) : null;
      });
    },

    listConversations(accountId, limit, cursor) {
      return db.read(() => {
        // Ids are UUIDv7, so descending id order is newest first.
        const rows = cursor
          ? db.query('SELECT * FROM conversations WHERE account_id = ? AND id < ? ORDER BY id DESC LIMIT ?').all(accountId, cursor, limit + 1)
          : db.query('SELECT * FROM conversations WHERE account_id = ? ORDER BY id DESC LIMIT ?').all(accountId, limit + 1);
        const items = rows.slice(0, limit).map(conversation);
        return { items, nextCursor: rows.length > limit ? items[items.length - 1]!.id : null };
      });
    },

    recordPlatformEvents(accountId, events, at, newConversationId, view) {
      return db.write(() => recordPlatformEvents(db, accountId, events, at, newConversationId, view));
    },

    getPoll(accountId, pollId) {
      return db.read(() => {
        const row = db.query('SELECT * FROM polls WHERE account_id = ? AND id = ?').get(accountId, pollId);
        if (!row) return null;
        const votes = db.query('SELECT * FROM poll_votes WHERE account_id = ? AND poll_id = ? AND option_index IS NOT NULL ORDER BY voted_at, voter')
          .all(accountId, pollId).map(pollVote);
        return { ...poll(row), votes };
      });
    },

    getMessageOfCommand(accountId, commandId) {
      return db.read(() => {
        const row = db.query('SELECT * FROM messages WHERE account_id = ? AND command_id = ?').get(accountId, commandId);
        return row ? message(row) : null;
      });
    },

    listMessages(accountId, conversationId, limit, cursor) {
      return db.read(() => {
        const after = cursor === null ? null : parseMessageCursor(cursor);
        const rows = after
          ? db.query(
            `SELECT * FROM messages WHERE account_id = ? AND conversation_id = ? AND (recorded_at, message_external_id) < (?, ?)
             ORDER BY recorded_at DESC, message_external_id DESC LIMIT ?`,
          ).all(accountId, conversationId, after.recordedAt, after.messageExternalId, limit + 1)
          : db.query('SELECT * FROM messages WHERE account_id = ? AND conversation_id = ? ORDER BY recorded_at DESC, message_external_id DESC LIMIT ?')
            .all(accountId, conversationId, limit + 1);
        const items = rows.slice(0, limit).map(message);
        return { items, nextCursor: rows.length > limit ? messageCursor(items[items.length - 1]!) : null };
      });
    },
  };
}

/**
 * The events' state changes and stream events, inside a write, in a savepoint of their own: an
 * unknown conversation rolls back only these events.
 */
export function recordPlatformEvents(
  db: SqliteDb, accountId: string, events: readonly PlatformEvent[], at: number, newConversationId: () => string, view: PlatformEventView,
): PlatformEventsResult {
  db.sql('SAVEPOINT e').run();
  try {
    const implied = events.flatMap((event) => apply(db, accountId, event, at, newConversationId, view));
    const appended = insertEvents(db, accountId, implied);
    db.sql('RELEASE e').run();
    return ok({ recorded: events.length, events: appended });
  } catch (error) {
    db.sql('ROLLBACK TO e').run();
    db.sql('RELEASE e').run();
    if (error instanceof UnknownConversation) return err({ unknownConversation: error.externalId });
    throw error;
  }
}

/** One platform event: reads what its rule needs, writes what the rule returns; the stream event it implies, if any. */
function apply(db: SqliteDb, accountId: string, event: PlatformEvent, at: number, newConversationId: () => string, view: PlatformEventView): NewEvent[] {
  if (event.type === 'conversation.appeared') {
    const existing = byExternalId(db, accountId, event.externalId);
    const made = existing ?? appearedConversation(accountId, event, newConversationId(), at);
    if (!existing) {
      db.sql('INSERT INTO conversations (id, account_id, external_id, kind, name, participants, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(made.id, accountId, made.externalId, made.kind, made.name, JSON.stringify(made.participants), at);
    }
    if (event.commandId) {
      db.sql('UPDATE commands SET conversation_id = ? WHERE account_id = ? AND id = ? AND conversation_id IS NULL').run(made.id, accountId, event.commandId);
    }
    return existing ? [] : [view(event, made)];
  }
  const current = byExternalId(db, accountId, event.conversationExternalId);
  if (!current) throw new UnknownConversation(event.conversationExternalId);
  if (event.type === 'poll.voted') return applyVote(db, current, event, view);
  // A re-reported event (its identity recorded already) does nothing: nothing more is read for it.
  const identity = identityOf(event);
  if (identity !== null) {
    const { changes } = db.sql(
      'INSERT INTO platform_records (account_id, conversation_id, type, identity, recorded_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
    ).run(accountId, current.id, event.type, identity, at);
    if (Number(changes) === 0) return [];
  }
  const held = isMessageEvent(event) ? heldMessage(db, accountId, current.id, event) : undefined;
  const effect = platformEventEffect(current, event, view, at, held);
  if (effect.conversation) {
    const { name, participants, membershipVersion } = effect.conversation;
    db.sql('UPDATE conversations SET name = ?, participants = ?, membership_version = ? WHERE id = ?')
      .run(name, JSON.stringify(participants), membershipVersion, current.id);
    db.cache.forgetEntry(db.cache.conversations, current.id);
  }
  if (effect.message) {
    db.sql(`INSERT INTO messages (${MESSAGE_COLUMNS}) VALUES (${MESSAGE_COLUMNS.split(', ').map(() => '?').join(', ')})
      ON CONFLICT (account_id, conversation_id, message_external_id) DO UPDATE SET ${UPSERT_MESSAGE_SET}`).run(...messageValues(effect.message));
  }
  if (event.type === 'message.sent') recordPoll(db, current.id, event, at, held?.command ?? null);
  return effect.shown ? [effect.shown] : [];
}

/** The message an event names, as stored, and for a message.sent the command it names. */
function heldMessage(db: SqliteDb, accountId: string, conversationId: string, event: MessageEvent): HeldMessage {
  const row = db.sql('SELECT * FROM messages WHERE account_id = ? AND conversation_id = ? AND message_external_id = ?').get(accountId, conversationId, event.messageExternalId);
  const sent = event.type === 'message.sent' ? db.sql('SELECT * FROM commands WHERE account_id = ? AND id = ?').get(accountId, event.commandId) : undefined;
  return { message: row ? message(row) : null, command: sent ? command(sent) : null };
}

function byExternalId(db: SqliteDb, accountId: string, externalId: string): ConversationRecord | null {
  const row = db.sql('SELECT * FROM conversations WHERE account_id = ? AND external_id = ?').get(accountId, externalId);
  return row ? conversation(row) : null;
}

function recordPoll(db: SqliteDb, conversationId: string, event: Extract<InConversation, { type: 'message.sent' }>, at: number, sent: CommandRecord | null): void {
  const made = sentPoll(sent, conversationId, event.messageExternalId, at);
  if (!made) return;
  db.sql(
    `INSERT INTO polls (account_id, id, conversation_id, message_external_id, question, options, sent_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT DO NOTHING`,
  ).run(made.accountId, made.id, made.conversationId, made.messageExternalId, made.question, JSON.stringify(made.options), made.sentAt);
}

function applyVote(db: SqliteDb, current: ConversationRecord, event: Extract<InConversation, { type: 'poll.voted' }>, view: PlatformEventView): NewEvent[] {
  const found = db.sql('SELECT * FROM polls WHERE account_id = ? AND conversation_id = ? AND message_external_id = ?')
    .get(current.accountId, current.id, event.pollMessageExternalId);
  const target = found ? poll(found) : null;
  const held = target ? heldVote(db.sql('SELECT * FROM poll_votes WHERE account_id = ? AND poll_id = ? AND voter = ?').get(current.accountId, target.id, event.voterExternalId)) : null;
  const effect = voteEffect(target, held, event, current, view);
  if (!effect) return [];
  db.sql(
    `INSERT INTO poll_votes (account_id, poll_id, voter, option_index, voted_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (account_id, poll_id, voter) DO UPDATE SET option_index = excluded.option_index, voted_at = excluded.voted_at`,
  ).run(current.accountId, target!.id, event.voterExternalId, effect.vote.optionIndex, effect.vote.votedAt);
  return [effect.shown];
}
