import type { SQLInputValue } from 'node:sqlite';
import type { AdminStore } from '../types.ts';
import { audit, command, credential, operatorKey } from '../rules/rows.ts';
import { sameHash } from '../rules/credentials.ts';
import { auditBefore, auditPage, commandConditions, commandPage, failureCounts, MINUTE_MS, minuteCounts } from '../rules/admin.ts';
import type { SqliteDb } from './transaction.ts';

/** Operator keys, the audit log, and the admin API's reads across accounts (none of it cached: operators read it rarely). */
export function admin(db: SqliteDb): AdminStore {
  return {
    createOperatorKey(input) {
      return db.write(() => {
        db.sql('INSERT INTO operator_keys (id, hash, prefix, label, role, created_at) VALUES (?, ?, ?, ?, ?, ?)')
          .run(input.id, input.hash, input.prefix, input.label, input.role, input.createdAt);
        const { hash: _hash, ...record } = input;
        return { ...record, revokedAt: null };
      });
    },

    findOperatorKeyByHash(hash) {
      return db.read(() => {
        const row = db.query('SELECT * FROM operator_keys WHERE hash = ? AND revoked_at IS NULL').get(hash);
        if (!row) return null;
        const stored = Buffer.from(row.hash as Uint8Array);
        return sameHash(stored, hash) ? { ...operatorKey(row), hash: stored } : null;
      });
    },

    listOperatorKeys() {
      return db.read(() => db.query('SELECT * FROM operator_keys ORDER BY created_at, id').all().map(operatorKey));
    },

    revokeOperatorKey(id, at) {
      return db.write(() => {
        db.sql('UPDATE operator_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, id);
        const row = db.sql('SELECT * FROM operator_keys WHERE id = ?').get(id);
        return row ? operatorKey(row) : null;
      });
    },

    getCredential(id) {
      return db.read(() => {
        const row = db.query('SELECT * FROM credentials WHERE id = ?').get(id);
        return row ? credential(row) : null;
      });
    },

    appendAudit(record) {
      return db.write(() => audit(db.sql(
        'INSERT INTO audit_log (at, operator_key_id, action, account_id, subject, detail) VALUES (?, ?, ?, ?, ?, ?) RETURNING *',
      ).get(record.at, record.operatorKeyId, record.action, record.accountId, record.subject, JSON.stringify(record.detail))!));
    },

    listAudit(limit, cursor) {
      return db.read(() => auditPage(
        db.query('SELECT * FROM audit_log WHERE id < ? ORDER BY id DESC LIMIT ?').all(auditBefore(cursor), limit + 1).map(audit),
        limit,
      ));
    },

    findCommand(id) {
      return db.read(() => {
        const row = db.query('SELECT * FROM commands WHERE id = ?').get(id);
        return row ? command(row) : null;
      });
    },

    listCommands(filter, limit, cursor) {
      return db.read(() => {
        // The text depends only on which filters are given: a few dozen statements, each prepared once.
        const conditions = commandConditions(filter, cursor);
        const where = conditions.length === 0 ? '' : `WHERE ${conditions.map((c) => ('value' in c ? `${c.column} ${c.op} ?` : `${c.column} ${c.op}`)).join(' AND ')}`;
        const values: SQLInputValue[] = conditions.flatMap((c) => ('value' in c ? [c.value] : []));
        const rows = db.query(`SELECT * FROM commands ${where} ORDER BY id DESC LIMIT ?`).all(...values, limit + 1);
        return commandPage(rows.map(command), limit);
      });
    },

    commandCounts(since) {
      return db.read(() => {
        const accepted = db.query(`SELECT created_at / ${MINUTE_MS} * ${MINUTE_MS} AS minute, COUNT(*) AS count FROM commands WHERE created_at >= ? GROUP BY 1`).all(since);
        const settled = db.query(
          `SELECT settled_at / ${MINUTE_MS} * ${MINUTE_MS} AS minute, status, COUNT(*) AS count FROM commands WHERE settled_at >= ? GROUP BY 1, 2`,
        ).all(since);
        const failures = db.query(
          "SELECT error_code AS code, COUNT(*) AS count FROM commands WHERE settled_at >= ? AND status = 'failed' AND error_code IS NOT NULL GROUP BY 1",
        ).all(since);
        return { minutes: minuteCounts(accepted, settled), failures: failureCounts(failures) };
      });
    },

    outboundPausedForAll() {
      return db.read(() => (db.query("SELECT value FROM settings WHERE key = 'outbound_paused'").get() as { value: string } | undefined)?.value === '1');
    },

    leaseHolder(accountId, epoch) {
      return db.read(() => (db.query('SELECT host_id FROM lease_epochs WHERE account_id = ? AND epoch = ?').get(accountId, epoch)?.host_id as string | undefined) ?? null);
    },
  };
}
