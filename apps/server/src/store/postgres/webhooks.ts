import type { Page } from '../types.ts';
import type {
  AttemptRecord,
  AttemptResult,
  DeliveryAttempt,
  NewWebhookEndpoint,
  WebhookClaim,
  WebhookEndpointChange,
  WebhookEndpointRecord,
  WebhookStore,
} from '../webhooks.ts';
import { delivery, endpoint, types } from '../rules/webhook-rows.ts';
import { changedEndpoint, ENDPOINT_STATE_CONDITION } from '../rules/webhooks.ts';
import { insertEvents } from './events.ts';
import type { PostgresDb } from './transaction.ts';

/*
 * Delivery bookkeeping is one statement each (one round trip) and starts with the CTE `unsynced`,
 * which turns synchronous commit off for its own transaction: COMMIT does not wait for the WAL
 * flush. A PostgreSQL crash may take such a commit back, which repeats deliveries but loses none
 * and breaks no claim: a delivered attempt's log row and cursor move (lost, the cursor is behind,
 * a live worker's next write is fenced by the cursor check, and the events after it are delivered
 * again with the same webhook-id), skips, renewals and releases (lost, a claim lapses early or
 * late). Taking a claim waits for the flush: a claim lost while its worker lives would let
 * another replica take the same token.
 */

/**
 * Webhooks on PostgreSQL, shared by every replica. Claims: `claimDue` picks due endpoints with
 * `FOR UPDATE SKIP LOCKED` and takes them (new token, expiry) in the same statement, rechecking
 * the expiry on the locked row, so two replicas never hold one endpoint; every later write of a
 * worker checks its token (and cursor) in its own statement. Writes that change an endpoint lock
 * its row first, so a delete and a recorded attempt never interleave.
 */
export class PostgresWebhookStore implements WebhookStore {
  private readonly db: PostgresDb;

  constructor(db: PostgresDb) {
    this.db = db;
  }

  createEndpoint(input: NewWebhookEndpoint, maxPerAccount: number): Promise<WebhookEndpointRecord | null> {
    return this.db.write(async (tx) => {
      // The account row orders concurrent creates, so the limit holds across replicas.
      const [acct] = await tx`SELECT GREATEST(last_event_id, events_purged_through) AS newest FROM accounts WHERE id = ${input.accountId} FOR NO KEY UPDATE`;
      if (!acct) return null;
      const [{ n }] = (await tx`SELECT COUNT(*)::int AS n FROM webhook_endpoints WHERE account_id = ${input.accountId}`) as unknown as [{ n: number }];
      if (n >= maxPerAccount) return null;
      const [row] = await tx`INSERT INTO webhook_endpoints (id, account_id, url, description, event_types, secret, cursor, created_at)
        VALUES (${input.id}, ${input.accountId}, ${input.url}, ${input.description}, ${types(input.eventTypes)}, ${input.secret}, ${Number(acct.newest)}, ${input.createdAt})
        RETURNING *`;
      return endpoint(row!);
    });
  }

  listEndpoints(accountId: string): Promise<WebhookEndpointRecord[]> {
    return this.db.read(async (sql) => (await sql`SELECT * FROM webhook_endpoints WHERE account_id = ${accountId} ORDER BY created_at, id`).map(endpoint));
  }

  getEndpoint(accountId: string, id: string): Promise<WebhookEndpointRecord | null> {
    return this.db.read(async (sql) => {
      const [row] = await sql`SELECT * FROM webhook_endpoints WHERE account_id = ${accountId} AND id = ${id}`;
      return row ? endpoint(row) : null;
    });
  }

  updateEndpoint(accountId: string, id: string, change: WebhookEndpointChange, now: number): Promise<WebhookEndpointRecord | null> {
    return this.db.write(async (tx) => {
      const [row] = await tx`SELECT * FROM webhook_endpoints WHERE account_id = ${accountId} AND id = ${id} FOR UPDATE`;
      if (!row) return null;
      const next = changedEndpoint(endpoint(row), change, now);
      const [updated] = await tx`UPDATE webhook_endpoints SET url = ${next.url}, description = ${next.description}, event_types = ${types(next.eventTypes)},
        enabled = ${next.enabled ? 1 : 0}, disabled_reason = ${next.disabledReason}, disabled_at = ${next.disabledAt},
        attempt = ${next.attempt}, next_attempt_at = ${next.nextAttemptAt}, failing_since = ${next.failingSince} WHERE id = ${id} RETURNING *`;
      return endpoint(updated!);
    });
  }

  deleteEndpoint(accountId: string, id: string): Promise<boolean> {
    return this.db.write(async (tx) => {
      const deleted = await tx`DELETE FROM webhook_endpoints WHERE account_id = ${accountId} AND id = ${id}`;
      if (deleted.count > 0) await tx`DELETE FROM webhook_deliveries WHERE endpoint_id = ${id}`;
      return deleted.count > 0;
    });
  }

  rotateSecret(accountId: string, id: string, secret: string, now: number, overlapMs: number): Promise<WebhookEndpointRecord | null> {
    return this.db.write(async (tx) => {
      const [row] = await tx`UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_expires_at = ${now + overlapMs}, secret = ${secret}
        WHERE account_id = ${accountId} AND id = ${id} RETURNING *`;
      return row ? endpoint(row) : null;
    });
  }

  replayEndpoint(accountId: string, id: string, after: number): Promise<WebhookEndpointRecord | null> {
    return this.db.write(async (tx) => {
      const [row] = await tx`UPDATE webhook_endpoints SET cursor = ${after}, attempt = 0, next_attempt_at = 0, failing_since = NULL
        WHERE account_id = ${accountId} AND id = ${id} RETURNING *`;
      return row ? endpoint(row) : null;
    });
  }

  listDeliveries(accountId: string, endpointId: string, limit: number, cursor: number | null): Promise<Page<DeliveryAttempt>> {
    return this.db.read(async (sql) => {
      const rows = await sql`SELECT d.* FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE e.account_id = ${accountId} AND d.endpoint_id = ${endpointId} AND d.id < ${cursor ?? Number.MAX_SAFE_INTEGER}
        ORDER BY d.id DESC LIMIT ${limit + 1}`;
      const items = rows.slice(0, limit);
      return { items: items.map(delivery), nextCursor: rows.length > limit ? String(items.at(-1)!.id) : null };
    });
  }

  listAllEndpoints(state: 'all' | 'failing' | 'disabled'): Promise<WebhookEndpointRecord[]> {
    return this.db.read(async (sql) => (await sql`SELECT * FROM webhook_endpoints WHERE ${sql.unsafe(ENDPOINT_STATE_CONDITION[state])} ORDER BY created_at, id`).map(endpoint));
  }

  logResend(accountId: string, endpointId: string, d: DeliveryAttempt): Promise<boolean> {
    // The endpoint row is share-locked so a delete waits (no log rows for a deleted endpoint); the cursor and retry state stay as they are.
    return this.db.statement(async (sql) => (await sql`WITH held AS (SELECT id FROM webhook_endpoints WHERE id = ${endpointId} AND account_id = ${accountId} FOR SHARE)
      INSERT INTO webhook_deliveries (endpoint_id, event_id, attempt, at, status, error, latency_ms, response_body, resend)
      SELECT held.id, ${d.eventId}, ${d.attempt}, ${d.at}, ${d.status}, ${d.error}, ${d.latencyMs}, ${d.responseBody}, 1 FROM held`).count > 0);
  }

  backlogs(accountId: string | null): Promise<Map<string, number>> {
    return this.db.read(async (sql) => {
      const rows = await sql`SELECT e.id, (SELECT COUNT(*) FROM events v WHERE v.account_id = e.account_id AND v.id > e.cursor) AS backlog
        FROM webhook_endpoints e WHERE ${accountId}::text IS NULL OR e.account_id = ${accountId}`;
      return new Map(rows.map((r) => [r.id as string, Number(r.backlog)]));
    });
  }

  async claimDue(owner: string, now: number, ttlMs: number, max: number): Promise<WebhookClaim[]> {
    // A wake-up with nothing due (most commits) costs one read, not a write transaction.
    const due = await this.db.read((sql) => sql`SELECT 1 FROM webhook_endpoints e
      WHERE e.enabled = 1 AND e.next_attempt_at <= ${now} AND e.claim_expires_at <= ${now}
        AND EXISTS (SELECT 1 FROM events v WHERE v.account_id = e.account_id AND v.id > e.cursor)
      LIMIT 1`);
    if (due.length === 0) return [];
    return this.db.write(async (tx) => {
      // SKIP LOCKED: a replica passes over rows another is claiming; the outer WHERE rechecks the
      // expiry on the row as locked, so a claim taken meanwhile is never taken twice.
      const rows = await tx`WITH due AS (
          SELECT e.id FROM webhook_endpoints e
          WHERE e.enabled = 1 AND e.next_attempt_at <= ${now} AND e.claim_expires_at <= ${now}
            AND EXISTS (SELECT 1 FROM events v WHERE v.account_id = e.account_id AND v.id > e.cursor)
          ORDER BY e.next_attempt_at, e.id LIMIT ${max}
          FOR UPDATE OF e SKIP LOCKED
        )
        UPDATE webhook_endpoints w SET claim_owner = ${owner}, claim_token = w.claim_token + 1, claim_expires_at = ${now + ttlMs}
        FROM due WHERE w.id = due.id AND w.claim_expires_at <= ${now}
        RETURNING w.*`;
      return rows
        .map((row) => ({ endpoint: endpoint(row), token: Number(row.claim_token) }))
        .sort((a, b) => a.endpoint.nextAttemptAt - b.endpoint.nextAttemptAt || (a.endpoint.id < b.endpoint.id ? -1 : 1));
    });
  }

  renewClaim(endpointId: string, token: number, now: number, ttlMs: number): Promise<boolean> {
    return this.db.statement(async (sql) =>
      (await sql`WITH unsynced AS (SELECT set_config('synchronous_commit', 'off', true))
        UPDATE webhook_endpoints SET claim_expires_at = ${now + ttlMs} FROM unsynced
        WHERE id = ${endpointId} AND claim_token = ${token} AND claim_expires_at > ${now} AND enabled = 1`).count > 0);
  }

  releaseClaim(endpointId: string, token: number): Promise<void> {
    return this.db.statement(async (sql) => {
      await sql`WITH unsynced AS (SELECT set_config('synchronous_commit', 'off', true))
        UPDATE webhook_endpoints SET claim_expires_at = 0 FROM unsynced WHERE id = ${endpointId} AND claim_token = ${token}`;
    });
  }

  skipTo(endpointId: string, token: number, cursor: number, to: number): Promise<boolean> {
    return this.db.statement(async (sql) =>
      (await sql`WITH unsynced AS (SELECT set_config('synchronous_commit', 'off', true))
        UPDATE webhook_endpoints SET cursor = ${to} FROM unsynced WHERE id = ${endpointId} AND claim_token = ${token} AND cursor = ${cursor}`).count > 0);
  }

  recordAttempt(record: AttemptRecord): Promise<AttemptResult> {
    const { endpointId, token, cursor, delivery: d, outcome } = record;
    if (outcome.kind === 'delivered') return this.recordDelivered(record, outcome.claimUntil);
    // A failure's retry state and a disable (a stream event) wait for the flush.
    return this.db.write(async (tx): Promise<AttemptResult> => {
      // The row lock orders this against a delete: no log rows for a deleted endpoint.
      const [held] = await tx`SELECT id FROM webhook_endpoints WHERE id = ${endpointId} FOR UPDATE`;
      if (!held) return { endpoint: null, events: [] };
      await tx`INSERT INTO webhook_deliveries (endpoint_id, event_id, attempt, at, status, error, latency_ms, response_body, resend)
        VALUES (${endpointId}, ${d.eventId}, ${d.attempt}, ${d.at}, ${d.status}, ${d.error}, ${d.latencyMs}, ${d.responseBody}, ${d.resend ? 1 : 0})`;
      let rows;
      if (outcome.kind === 'retry') {
        rows = await tx`UPDATE webhook_endpoints SET attempt = ${d.attempt}, next_attempt_at = ${outcome.at}, failing_since = ${outcome.failingSince}, claim_expires_at = 0
          WHERE id = ${endpointId} AND claim_token = ${token} AND cursor = ${cursor} RETURNING *`;
      } else {
        rows = await tx`UPDATE webhook_endpoints SET attempt = ${d.attempt}, failing_since = ${outcome.failingSince}, enabled = 0, disabled_reason = 'failing', disabled_at = ${d.at}, claim_expires_at = 0
          WHERE id = ${endpointId} AND claim_token = ${token} AND cursor = ${cursor} RETURNING *`;
      }
      if (rows.length === 0) return { endpoint: null, events: [] };
      const updated = endpoint(rows[0]!);
      const events = outcome.kind === 'disable' ? await insertEvents(tx, updated.accountId, [outcome.event(updated)]) : [];
      return { endpoint: updated, events };
    });
  }

  /**
   * A 2xx, in one unsynced statement: `held` locks the endpoint row (ordering this against a
   * delete: no log row for a deleted endpoint), the log row goes in if it is there, and the cursor
   * moves if the claim and the cursor are as the worker read them.
   */
  private async recordDelivered(record: AttemptRecord, claimUntil: number): Promise<AttemptResult> {
    const { endpointId, token, cursor, delivery: d } = record;
    const rows = await this.db.statement((sql) => sql`WITH unsynced AS (SELECT set_config('synchronous_commit', 'off', true)),
        held AS (SELECT id, claim_token, cursor FROM webhook_endpoints WHERE id = ${endpointId} FOR UPDATE),
        logged AS (
          INSERT INTO webhook_deliveries (endpoint_id, event_id, attempt, at, status, error, latency_ms, response_body, resend)
          SELECT held.id, ${d.eventId}, ${d.attempt}, ${d.at}, ${d.status}, ${d.error}, ${d.latencyMs}, ${d.responseBody}, ${d.resend ? 1 : 0} FROM held, unsynced
        )
      UPDATE webhook_endpoints w SET cursor = ${d.eventId}, attempt = 0, next_attempt_at = 0, failing_since = NULL, claim_expires_at = ${claimUntil}
      FROM held WHERE w.id = held.id AND held.claim_token = ${token} AND held.cursor = ${cursor}
      RETURNING w.*`);
    return { endpoint: rows[0] ? endpoint(rows[0]) : null, events: [] };
  }

  purgeDeliveries(olderThan: number): Promise<number> {
    return this.db.statement(async (sql) => (await sql`WITH unsynced AS (SELECT set_config('synchronous_commit', 'off', true))
      DELETE FROM webhook_deliveries USING unsynced WHERE at < ${olderThan}`).count);
  }
}
