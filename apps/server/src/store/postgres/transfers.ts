import type { TransferStore } from '../types.ts';
import { command } from '../rules/rows.ts';
import { transfer, transferFetchable, transferLimitsOf } from '../rules/transfers.ts';
import { retentionTurn, type PostgresDb } from './transaction.ts';

export function transfers(db: PostgresDb): TransferStore {
  return {
    async beginTransfer(input) {
      await db.statement((sql) => sql`INSERT INTO transfers (account_id, id, file_name, mime_type, state, created_at)
        VALUES (${input.accountId}, ${input.id}, ${input.fileName}, ${input.mimeType}, 'uploading', ${input.createdAt})`);
    },

    async appendTransferChunk(accountId, transferId, seq, bytes) {
      await db.statement((sql) => sql`INSERT INTO transfer_chunks (account_id, transfer_id, seq, bytes)
        VALUES (${accountId}, ${transferId}, ${seq}, ${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)})`);
    },

    finishTransfer(accountId, transferId, done) {
      return db.statement(async (sql) => {
        const [row] = await sql`UPDATE transfers SET state = 'ready', byte_size = ${done.byteSize}, sha256 = ${done.sha256}, expires_at = ${done.expiresAt}
          WHERE account_id = ${accountId} AND id = ${transferId} AND state = 'uploading' RETURNING *`;
        return row ? transfer(row) : null;
      });
    },

    async abandonTransfer(accountId, transferId) {
      await db.statement((sql) => sql`DELETE FROM transfers WHERE account_id = ${accountId} AND id = ${transferId}`);
    },

    fetchTransfer(accountId, transferId, commandId) {
      return db.write(async (tx) => {
        // The share lock holds off a purge of the transfer until the use is committed (purgeTransfers).
        const [[row], [commandRow], [use]] = await Promise.all([
          tx`SELECT * FROM transfers WHERE account_id = ${accountId} AND id = ${transferId} FOR SHARE`,
          tx`SELECT * FROM commands WHERE account_id = ${accountId} AND id = ${commandId}`,
          tx`SELECT 1 FROM transfer_uses WHERE account_id = ${accountId} AND transfer_id = ${transferId} AND command_id = ${commandId}`,
        ]);
        const found = row ? transfer(row) : null;
        if (!transferFetchable(found, commandRow ? command(commandRow) : null, use !== undefined)) return null;
        if (!use) {
          await tx`INSERT INTO transfer_uses (account_id, transfer_id, command_id) VALUES (${accountId}, ${transferId}, ${commandId}) ON CONFLICT DO NOTHING`;
        }
        return found;
      });
    },

    readTransferChunk(accountId, transferId, seq) {
      return db.read(async (sql) => {
        const [row] = await sql`SELECT bytes FROM transfer_chunks WHERE account_id = ${accountId} AND transfer_id = ${transferId} AND seq = ${seq}`;
        return row ? (row.bytes as Uint8Array) : null;
      });
    },

    purgeTransfers(now, uploadingBefore, limit) {
      return db.write(async (tx) => {
        if (!(await retentionTurn(tx))) return 0;
        // Lock first, then look for uses in a statement of its own: its snapshot sees a use committed
        // by a fetch that held the row until then (one statement would not).
        const candidates = await tx`SELECT account_id, id FROM transfers t
          WHERE (t.state = 'ready' AND t.expires_at <= ${now}
              AND NOT EXISTS (SELECT 1 FROM transfer_uses u WHERE u.account_id = t.account_id AND u.transfer_id = t.id)
              -- A queued command accepted before it expired may still fetch it (rules/transfers.ts):
              -- looked up only for an expired transfer, among the account's queued commands.
              AND NOT EXISTS (SELECT 1 FROM commands c WHERE c.account_id = t.account_id AND c.status = 'queued'
                AND c.created_at < t.expires_at AND c.payload::jsonb->>'transferId' = t.id))
            OR (t.state = 'uploading' AND t.created_at < ${uploadingBefore})
          LIMIT ${limit} FOR UPDATE SKIP LOCKED`;
        if (candidates.length === 0) return 0;
        const accountIds = candidates.map((c) => c.account_id as string);
        const ids = candidates.map((c) => c.id as string);
        return (await tx`DELETE FROM transfers t USING unnest(${accountIds}::text[], ${ids}::text[]) AS c(account_id, id)
          WHERE t.account_id = c.account_id AND t.id = c.id
            AND (t.state = 'uploading' OR NOT EXISTS (SELECT 1 FROM transfer_uses u WHERE u.account_id = t.account_id AND u.transfer_id = t.id))`).count;
      });
    },

    getTransferLimits(accountId) {
      return db.read(async (sql) => {
        const [row] = await sql`SELECT limits FROM transfer_limits WHERE account_id = ${accountId}`;
        return transferLimitsOf(row);
      });
    },

    async setTransferLimits(accountId, limits, at) {
      await db.statement((sql) => sql`INSERT INTO transfer_limits (account_id, limits, updated_at) VALUES (${accountId}, ${sql.json(limits as never)}, ${at})
        ON CONFLICT (account_id) DO UPDATE SET limits = excluded.limits, updated_at = excluded.updated_at`);
    },
  };
}
