import type { TransferStore } from '../types.ts';
import { command } from '../rules/rows.ts';
import { transfer, transferFetchable, transferLimitsOf } from '../rules/transfers.ts';
import type { SqliteDb } from './transaction.ts';

/**
 * A queued command of the account, accepted before the transfer `t` expired, that names it: it
 * may still fetch it (rules/transfers.ts). Looked up only for an expired transfer, among the
 * account's queued commands (commands_queue).
 */
const QUEUED_NAMING = `SELECT 1 FROM commands c WHERE c.account_id = t.account_id AND c.status = 'queued'
  AND c.created_at < t.expires_at AND json_extract(c.payload, '$.transferId') = t.id`;

export function transfers(db: SqliteDb): TransferStore {
  return {
    beginTransfer(input) {
      return db.write(() => {
        db.sql("INSERT INTO transfers (account_id, id, file_name, mime_type, state, created_at) VALUES (?, ?, ?, ?, 'uploading', ?)")
          .run(input.accountId, input.id, input.fileName, input.mimeType, input.createdAt);
      }, false);
    },

    appendTransferChunk(accountId, transferId, seq, bytes) {
      // Not synced: the finish's synced commit syncs the WAL up to it, chunks included; a chunk
      // lost to a power loss before it belongs to an upload that never became ready.
      return db.write(() => {
        db.sql('INSERT INTO transfer_chunks (account_id, transfer_id, seq, bytes) VALUES (?, ?, ?, ?)').run(accountId, transferId, seq, bytes);
      }, false);
    },

    finishTransfer(accountId, transferId, done) {
      return db.write(() => {
        const row = db.sql(`UPDATE transfers SET state = 'ready', byte_size = ?, sha256 = ?, expires_at = ?
          WHERE account_id = ? AND id = ? AND state = 'uploading' RETURNING *`).get(done.byteSize, done.sha256, done.expiresAt, accountId, transferId);
        return row ? transfer(row) : null;
      });
    },

    abandonTransfer(accountId, transferId) {
      return db.write(() => {
        db.sql('DELETE FROM transfers WHERE account_id = ? AND id = ?').run(accountId, transferId);
      }, false);
    },

    fetchTransfer(accountId, transferId, commandId) {
      return db.write(() => {
        const row = db.sql('SELECT * FROM transfers WHERE account_id = ? AND id = ?').get(accountId, transferId);
        const commandRow = db.sql('SELECT * FROM commands WHERE account_id = ? AND id = ?').get(accountId, commandId);
        const used = db.sql('SELECT 1 FROM transfer_uses WHERE account_id = ? AND transfer_id = ? AND command_id = ?').get(accountId, transferId, commandId) !== undefined;
        const found = row ? transfer(row) : null;
        if (!transferFetchable(found, commandRow ? command(commandRow) : null, used)) return null;
        if (!used) db.sql('INSERT INTO transfer_uses (account_id, transfer_id, command_id) VALUES (?, ?, ?)').run(accountId, transferId, commandId);
        return found;
      });
    },

    readTransferChunk(accountId, transferId, seq) {
      return db.read(() => {
        const row = db.query('SELECT bytes FROM transfer_chunks WHERE account_id = ? AND transfer_id = ? AND seq = ?').get(accountId, transferId, seq);
        return row ? (row.bytes as Uint8Array) : null;
      });
    },

    purgeTransfers(now, uploadingBefore, limit) {
      return db.write(() => Number(db.sql(
        `DELETE FROM transfers WHERE (account_id, id) IN (
           SELECT account_id, id FROM transfers t WHERE t.state = 'ready' AND t.expires_at <= ?
             AND NOT EXISTS (SELECT 1 FROM transfer_uses u WHERE u.account_id = t.account_id AND u.transfer_id = t.id)
             AND NOT EXISTS (${QUEUED_NAMING})
           UNION ALL
           SELECT account_id, id FROM transfers WHERE state = 'uploading' AND created_at < ?
           LIMIT ?)`,
      ).run(now, uploadingBefore, limit).changes));
    },

    getTransferLimits(accountId) {
      return db.read(() => transferLimitsOf(db.query('SELECT limits FROM transfer_limits WHERE account_id = ?').get(accountId)));
    },

    setTransferLimits(accountId, limits, at) {
      return db.write(() => {
        db.sql(`INSERT INTO transfer_limits (account_id, limits, updated_at) VALUES (?, ?, ?)
          ON CONFLICT (account_id) DO UPDATE SET limits = excluded.limits, updated_at = excluded.updated_at`)
          .run(accountId, JSON.stringify(limits), at);
      });
    },
  };
}
