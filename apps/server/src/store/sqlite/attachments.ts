import type { AttachmentStore } from '../types.ts';
import { attachment } from '../rules/rows.ts';
import type { SqliteDb } from './transaction.ts';

export function attachments(db: SqliteDb): AttachmentStore {
  return {
    putAttachment(record) {
      return db.write(() => {
        db.sql(
          `INSERT INTO attachments (id, account_id, file_name, mime_type, bytes, created_at) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (account_id, id) DO UPDATE SET file_name = excluded.file_name, mime_type = excluded.mime_type, bytes = excluded.bytes`,
        ).run(record.id, record.accountId, record.fileName, record.mimeType, record.bytes, record.createdAt);
      });
    },

    getAttachment(accountId, id) {
      return db.read(() => {
        const row = db.query('SELECT * FROM attachments WHERE account_id = ? AND id = ?').get(accountId, id);
        return row ? attachment(row) : null;
      });
    },

    purgeAttachments(olderThan, limit) {
      return db.write(() => Number(db.sql(
        'DELETE FROM attachments WHERE rowid IN (SELECT rowid FROM attachments WHERE created_at < ? LIMIT ?)',
      ).run(olderThan, limit).changes));
    },
  };
}
