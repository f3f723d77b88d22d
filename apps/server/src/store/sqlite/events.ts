import type { EventRecord, EventStore, NewEvent } from '../types.ts';
import { event } from '../rules/rows.ts';
import type { SqliteDb } from './transaction.ts';

/** Appends inside a write; SQLite's single writer gives ids in commit order. */
export function insertEvents(db: SqliteDb, accountId: string, events: readonly NewEvent[]): EventRecord[] {
  const insert = db.sql('INSERT INTO events (account_id, type, time, data) VALUES (?, ?, ?, ?)');
  return events.map((e) => {
    const { lastInsertRowid } = insert.run(accountId, e.type, e.time, JSON.stringify(e.data));
    return { id: Number(lastInsertRowid), accountId, type: e.type, time: e.time, data: e.data };
  });
}

export function events(db: SqliteDb): EventStore {
  const readEvents = (accountId: string, after: number, limit: number) =>
    db.read(() => db.query('SELECT * FROM events WHERE account_id = ? AND id > ? ORDER BY id LIMIT ?').all(accountId, after, limit).map(event));
  return {
    appendEvents(accountId, events) {
      return db.write(() => insertEvents(db, accountId, events));
    },

    readEvents,
    followEvents: readEvents,

    eventsPurgedThrough(accountId) {
      return db.read(() => {
        const row = db.query('SELECT events_purged_through FROM accounts WHERE id = ?').get(accountId);
        return row ? Number(row.events_purged_through) : 0;
      });
    },

    newestEventId(accountId) {
      return db.read(() => {
        const row = db.query(
          'SELECT MAX(COALESCE((SELECT MAX(id) FROM events WHERE account_id = ?), 0), COALESCE((SELECT events_purged_through FROM accounts WHERE id = ?), 0)) AS newest',
        ).get(accountId, accountId);
        return Number(row?.newest ?? 0);
      });
    },

    purgeEvents(olderThan) {
      return db.write(() => {
        db.sql(
          `UPDATE accounts SET events_purged_through = MAX(events_purged_through,
             COALESCE((SELECT MAX(id) FROM events WHERE events.account_id = accounts.id AND time < ?), 0))`,
        ).run(olderThan);
        // A platform record is kept as long as its stream event: a re-report later than that is not expected.
        db.sql('DELETE FROM platform_records WHERE recorded_at < ?').run(olderThan);
        // Messages are kept as long as the events that reported them.
        db.sql('DELETE FROM messages WHERE recorded_at < ?').run(olderThan);
        return Number(db.sql('DELETE FROM events WHERE time < ?').run(olderThan).changes);
      });
    },
  };
}
