import type { AttachmentStore } from '../types.ts';
import { attachment } from '../rules/rows.ts';
import { retentionTurn, type PostgresDb } from './transaction.ts';

export function attachments(db: PostgresDb): AttachmentStore {
  return {
    async putAttachment(record) {
      await db.write(async (tx) => {
        await tx`INSERT INTO attachments (id, account_id, file_name, mime_type, bytes, created_at)
          VALUES (${record.id}, ${record.accountId}, ${record.fileName}, ${record.mimeType}, ${Buffer.from(record.bytes)}, ${record.createdAt})
          ON CONFLICT (account_id, id) DO UPDATE SET file_name = excluded.file_name, mime_type = excluded.mime_type, bytes = excluded.bytes`;
      });
    },

    getAttachment(accountId, id) {
      return db.read(async (sql) => {
        const [row] = await sql`SELECT * FROM attachments WHERE account_id = ${accountId} AND id = ${id}`;
        return row ? attachment(row) : null;
      });
    },

    purgeAttachments(olderThan, limit) {
      return db.write(async (tx) => {
        if (!(await retentionTurn(tx))) return 0;
        return (await tx`DELETE FROM attachments WHERE (account_id, id) IN (
          SELECT account_id, id FROM attachments WHERE created_at < ${olderThan} LIMIT ${limit} FOR UPDATE SKIP LOCKED)`).count;
      });
    },
  };
}
