import type { JSONValue, Sql } from 'postgres';
import type { AdminStore } from '../types.ts';
import { audit, command, credential, operatorKey } from '../rules/rows.ts';
import { sameHash } from '../rules/credentials.ts';
import { auditBefore, auditPage, commandConditions, commandPage, failureCounts, MINUTE_MS, minuteCounts, type CommandCondition } from '../rules/admin.ts';
import type { PostgresDb } from './transaction.ts';

/** Operator keys, the audit log, and the admin API's reads across accounts (none of it cached: operators read it rarely). */
export function admin(db: PostgresDb): AdminStore {
  return {
    createOperatorKey(input) {
      return db.statement(async (sql) => {
        await sql`INSERT INTO operator_keys (id, hash, prefix, label, role, created_at)
          VALUES (${input.id}, ${input.hash}, ${input.prefix}, ${input.label}, ${input.role}, ${input.createdAt})`;
        const { hash: _hash, ...record } = input;
        return { ...record, revokedAt: null };
      });
    },

    findOperatorKeyByHash(hash) {
      return db.read(async (sql) => {
        const [row] = await sql`SELECT * FROM operator_keys WHERE hash = ${hash} AND revoked_at IS NULL`;
        if (!row) return null;
        const stored = Buffer.from(row.hash as Uint8Array);
        return sameHash(stored, hash) ? { ...operatorKey(row), hash: stored } : null;
      });
    },

    listOperatorKeys() {
      return db.read(async (sql) => (await sql`SELECT * FROM operator_keys ORDER BY created_at, id`).map(operatorKey));
    },

    revokeOperatorKey(id, at) {
      // One statement: the update's snapshot would not show its own change to a second one.
      return db.statement(async (sql) => {
        const [row] = await sql`WITH revoked AS (UPDATE operator_keys SET revoked_at = ${at} WHERE id = ${id} AND revoked_at IS NULL RETURNING *)
          SELECT * FROM revoked UNION ALL SELECT * FROM operator_keys WHERE id = ${id} AND NOT EXISTS (SELECT 1 FROM revoked)`;
        return row ? operatorKey(row) : null;
      });
    },

    getCredential(id) {
      return db.read(async (sql) => {
        const [row] = await sql`SELECT * FROM credentials WHERE id = ${id}`;
        return row ? credential(row) : null;
      });
    },

    appendAudit(record) {
      return db.statement(async (sql) => audit((await sql`INSERT INTO audit_log (at, operator_key_id, action, account_id, subject, detail)
        VALUES (${record.at}, ${record.operatorKeyId}, ${record.action}, ${record.accountId}, ${record.subject}, ${sql.json(record.detail as JSONValue)})
        RETURNING *`)[0]!));
    },

    listAudit(limit, cursor) {
      return db.read(async (sql) => auditPage(
        (await sql`SELECT * FROM audit_log WHERE id < ${auditBefore(cursor)} ORDER BY id DESC LIMIT ${limit + 1}`).map(audit),
        limit,
      ));
    },

    findCommand(id) {
      return db.read(async (sql) => {
        const [row] = await sql`SELECT * FROM commands WHERE id = ${id}`;
        return row ? command(row) : null;
      });
    },

    listCommands(filter, limit, cursor) {
      return db.read(async (sql) => {
        const conditions = commandConditions(filter, cursor).map((c) => condition(sql, c));
        const where = conditions.length === 0 ? sql`` : sql`WHERE ${conditions.reduce((all, c) => sql`${all} AND ${c}`)}`;
        const rows = await sql`SELECT * FROM commands ${where} ORDER BY id DESC LIMIT ${limit + 1}`;
        return commandPage(rows.map(command), limit);
      });
    },

    commandCounts(since) {
      return db.read(async (sql) => {
        const [accepted, settled, failures] = await Promise.all([
          sql`SELECT created_at / ${MINUTE_MS} * ${MINUTE_MS} AS minute, count(*) AS count FROM commands WHERE created_at >= ${since} GROUP BY 1`,
          sql`SELECT settled_at / ${MINUTE_MS} * ${MINUTE_MS} AS minute, status, count(*) AS count FROM commands WHERE settled_at >= ${since} GROUP BY 1, 2`,
          sql`SELECT error_code AS code, count(*) AS count FROM commands
            WHERE settled_at >= ${since} AND status = 'failed' AND error_code IS NOT NULL GROUP BY 1`,
        ]);
        return { minutes: minuteCounts(accepted, settled), failures: failureCounts(failures) };
      });
    },

    outboundPausedForAll() {
      return db.read(async (sql) => (await sql`SELECT value FROM settings WHERE key = 'outbound_paused'`)[0]?.value === '1');
    },

    leaseHolder(accountId, epoch) {
      return db.read(async (sql) => ((await sql`SELECT host_id FROM lease_epochs WHERE account_id = ${accountId} AND epoch = ${epoch}`)[0]?.host_id as string | undefined) ?? null);
    },
  };
}

/** One condition of the search as SQL (the columns and operators are the rule's closed set). */
function condition(sql: Sql, c: CommandCondition) {
  if (!('value' in c)) return c.op === 'is null' ? sql`held_by IS NULL` : sql`held_by IS NOT NULL`;
  if (c.op === '>=') return sql`${sql(c.column)} >= ${c.value}`;
  if (c.op === '<') return sql`${sql(c.column)} < ${c.value}`;
  return sql`${sql(c.column)} = ${c.value}`;
}
