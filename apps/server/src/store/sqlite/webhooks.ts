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
import type { Page } from '../types.ts';
import { delivery, endpoint, types } from '../rules/webhook-rows.ts';
import { changedEndpoint, ENDPOINT_STATE_CONDITION } from '../rules/webhooks.ts';
import type { SqliteDb } from './transaction.ts';
import { insertEvents } from './events.ts';

/** The newest event id an account's log ever held, retained or purged (where a new endpoint starts). */
const NEWEST_EVENT = `SELECT MAX(COALESCE((SELECT MAX(id) FROM events WHERE account_id = ?), 0), COALESCE((SELECT events_purged_through FROM accounts WHERE id = ?), 0)) AS newest`;
const DUE = `SELECT e.id FROM webhook_endpoints e
  WHERE e.enabled = 1 AND e.next_attempt_at <= ? AND e.claim_expires_at <= ?
    AND EXISTS (SELECT 1 FROM events v WHERE v.account_id = e.account_id AND v.id > e.cursor)
  ORDER BY e.next_attempt_at, e.id LIMIT ?`;

/**
 * Delivery bookkeeping that a power loss may take back at the price of repeating deliveries, never
 * of losing one: claims (the process holding them dies with the machine), skips, and a delivered
 * attempt's log row and cursor move (lost, the cursor is behind: the events after it are delivered
 * again, with the same webhook-id). These commits skip the fsync; everything else waits for it.
 */
const UNSYNCED = false;

export class SqliteWebhookStore implements WebhookStore {
  private readonly db: SqliteDb;

  constructor(db: SqliteDb) {
    this.db = db;
  }

  private endpointOnWriter(accountId: string, id: string): WebhookEndpointRecord | null {
    const row = this.db.sql('SELECT * FROM webhook_endpoints WHERE account_id = ? AND id = ?').get(accountId, id);
    return row ? endpoint(row) : null;
  }

  createEndpoint(input: NewWebhookEndpoint, maxPerAccount: number): Promise<WebhookEndpointRecord | null> {
    return this.db.write(() => {
      const { n } = this.db.sql('SELECT COUNT(*) AS n FROM webhook_endpoints WHERE account_id = ?').get(input.accountId) as { n: number };
      if (Number(n) >= maxPerAccount) return null;
      const { newest } = this.db.sql(NEWEST_EVENT).get(input.accountId, input.accountId) as { newest: number };
      this.db.sql(
        `INSERT INTO webhook_endpoints (id, account_id, url, description, event_types, secret, cursor, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(input.id, input.accountId, input.url, input.description, types(input.eventTypes), input.secret, Number(newest ?? 0), input.createdAt);
      return this.endpointOnWriter(input.accountId, input.id);
    });
  }

  async listEndpoints(accountId: string): Promise<WebhookEndpointRecord[]> {
    return this.db.query('SELECT * FROM webhook_endpoints WHERE account_id = ? ORDER BY created_at, id').all(accountId).map(endpoint);
  }

  async getEndpoint(accountId: string, id: string): Promise<WebhookEndpointRecord | null> {
    const row = this.db.query('SELECT * FROM webhook_endpoints WHERE account_id = ? AND id = ?').get(accountId, id);
    return row ? endpoint(row) : null;
  }

  updateEndpoint(accountId: string, id: string, change: WebhookEndpointChange, now: number): Promise<WebhookEndpointRecord | null> {
    return this.db.write(() => {
      const current = this.endpointOnWriter(accountId, id);
      if (!current) return null;
      const next = changedEndpoint(current, change, now);
      this.db.sql(
        `UPDATE webhook_endpoints SET url = ?, description = ?, event_types = ?, enabled = ?, disabled_reason = ?, disabled_at = ?,
           attempt = ?, next_attempt_at = ?, failing_since = ? WHERE id = ?`,
      ).run(next.url, next.description, types(next.eventTypes), next.enabled ? 1 : 0, next.disabledReason, next.disabledAt,
        next.attempt, next.nextAttemptAt, next.failingSince, id);
      return this.endpointOnWriter(accountId, id);
    });
  }

  deleteEndpoint(accountId: string, id: string): Promise<boolean> {
    return this.db.write(() => {
      const changes = Number(this.db.sql('DELETE FROM webhook_endpoints WHERE account_id = ? AND id = ?').run(accountId, id).changes);
      if (changes > 0) this.db.sql('DELETE FROM webhook_deliveries WHERE endpoint_id = ?').run(id);
      return changes > 0;
    });
  }

  rotateSecret(accountId: string, id: string, secret: string, now: number, overlapMs: number): Promise<WebhookEndpointRecord | null> {
    return this.db.write(() => {
      const changes = this.db.sql(
        'UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_expires_at = ?, secret = ? WHERE account_id = ? AND id = ?',
      ).run(now + overlapMs, secret, accountId, id).changes;
      return Number(changes) > 0 ? this.endpointOnWriter(accountId, id) : null;
    });
  }

  replayEndpoint(accountId: string, id: string, after: number): Promise<WebhookEndpointRecord | null> {
    return this.db.write(() => {
      const changes = this.db.sql(
        'UPDATE webhook_endpoints SET cursor = ?, attempt = 0, next_attempt_at = 0, failing_since = NULL WHERE account_id = ? AND id = ?',
      ).run(after, accountId, id).changes;
      return Number(changes) > 0 ? this.endpointOnWriter(accountId, id) : null;
    });
  }

  async listDeliveries(accountId: string, endpointId: string, limit: number, cursor: number | null): Promise<Page<DeliveryAttempt>> {
    const rows = this.db.query(
      `SELECT d.* FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
       WHERE e.account_id = ? AND d.endpoint_id = ? AND d.id < ? ORDER BY d.id DESC LIMIT ?`,
    ).all(accountId, endpointId, cursor ?? Number.MAX_SAFE_INTEGER, limit + 1);
    const items = rows.slice(0, limit);
    return { items: items.map(delivery), nextCursor: rows.length > limit ? String(items.at(-1)!.id) : null };
  }

  async listAllEndpoints(state: 'all' | 'failing' | 'disabled'): Promise<WebhookEndpointRecord[]> {
    return this.db.query(`SELECT * FROM webhook_endpoints WHERE ${ENDPOINT_STATE_CONDITION[state]} ORDER BY created_at, id`).all().map(endpoint);
  }

  logResend(accountId: string, endpointId: string, d: DeliveryAttempt): Promise<boolean> {
    // Synced: an operator's action, answered once durable. The cursor and retry state stay as they are.
    return this.db.write(() => this.logAttempt(endpointId, accountId, { ...d, resend: true }));
  }

  /** Logs an attempt of an endpoint that exists (of `accountId`, when given); false when none does. */
  private logAttempt(endpointId: string, accountId: string | null, d: DeliveryAttempt): boolean {
    return Number(this.db.sql(
      `INSERT INTO webhook_deliveries (endpoint_id, event_id, attempt, at, status, error, latency_ms, response_body, resend)
       SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM webhook_endpoints WHERE id = ? AND (? IS NULL OR account_id = ?))`,
    ).run(endpointId, d.eventId, d.attempt, d.at, d.status, d.error, d.latencyMs, d.responseBody, d.resend ? 1 : 0, endpointId, accountId, accountId).changes) > 0;
  }

  async backlogs(accountId: string | null): Promise<Map<string, number>> {
    const rows = this.db.query(
      `SELECT e.id, (SELECT COUNT(*) FROM events v WHERE v.account_id = e.account_id AND v.id > e.cursor) AS backlog
       FROM webhook_endpoints e WHERE ? IS NULL OR e.account_id = ?`,
    ).all(accountId, accountId);
    return new Map(rows.map((r) => [r.id as string, Number(r.backlog)]));
  }

  async claimDue(owner: string, now: number, ttlMs: number, max: number): Promise<WebhookClaim[]> {
    // Looked for on the reader first: a wake-up with nothing due (most commits) takes no write lock.
    if (this.db.query(DUE).all(now, now, 1).length === 0) return [];
    return this.db.write(() => {
      // SQLite has one writer: no one else claims these rows between this read and the update.
      const due = this.db.sql(DUE).all(now, now, max);
      const claims: WebhookClaim[] = [];
      for (const { id } of due) {
        const changes = this.db.sql(
          'UPDATE webhook_endpoints SET claim_owner = ?, claim_token = claim_token + 1, claim_expires_at = ? WHERE id = ? AND claim_expires_at <= ?',
        ).run(owner, now + ttlMs, id as string, now).changes;
        if (Number(changes) === 0) continue;
        const row = this.db.sql('SELECT * FROM webhook_endpoints WHERE id = ?').get(id as string)!;
        claims.push({ endpoint: endpoint(row), token: Number(row.claim_token) });
      }
      return claims;
    }, UNSYNCED);
  }

  renewClaim(endpointId: string, token: number, now: number, ttlMs: number): Promise<boolean> {
    return this.db.write(() => Number(
      this.db.sql('UPDATE webhook_endpoints SET claim_expires_at = ? WHERE id = ? AND claim_token = ? AND claim_expires_at > ? AND enabled = 1')
        .run(now + ttlMs, endpointId, token, now).changes,
    ) > 0, UNSYNCED);
  }

  releaseClaim(endpointId: string, token: number): Promise<void> {
    return this.db.write(() => {
      this.db.sql('UPDATE webhook_endpoints SET claim_expires_at = 0 WHERE id = ? AND claim_token = ?').run(endpointId, token);
    }, UNSYNCED);
  }

  skipTo(endpointId: string, token: number, cursor: number, to: number): Promise<boolean> {
    return this.db.write(() => Number(
      this.db.sql('UPDATE webhook_endpoints SET cursor = ? WHERE id = ? AND claim_token = ? AND cursor = ?').run(to, endpointId, token, cursor).changes,
    ) > 0, UNSYNCED);
  }

  recordAttempt(record: AttemptRecord): Promise<AttemptResult> {
    return this.db.write((): AttemptResult => {
      const { endpointId, token, cursor, delivery: d, outcome } = record;
      // Not for an endpoint deleted during the attempt: its log went with it.
      this.logAttempt(endpointId, null, d);
      const fence = 'WHERE id = ? AND claim_token = ? AND cursor = ?';
      let changes: number | bigint;
      if (outcome.kind === 'delivered') {
        changes = this.db.sql(`UPDATE webhook_endpoints SET cursor = ?, attempt = 0, next_attempt_at = 0, failing_since = NULL, claim_expires_at = ? ${fence}`)
          .run(d.eventId, outcome.claimUntil, endpointId, token, cursor).changes;
      } else if (outcome.kind === 'retry') {
        changes = this.db.sql(`UPDATE webhook_endpoints SET attempt = ?, next_attempt_at = ?, failing_since = ?, claim_expires_at = 0 ${fence}`)
          .run(d.attempt, outcome.at, outcome.failingSince, endpointId, token, cursor).changes;
      } else {
        changes = this.db.sql(
          `UPDATE webhook_endpoints SET attempt = ?, failing_since = ?, enabled = 0, disabled_reason = 'failing', disabled_at = ?, claim_expires_at = 0 ${fence}`,
        ).run(d.attempt, outcome.failingSince, d.at, endpointId, token, cursor).changes;
      }
      if (Number(changes) === 0) return { endpoint: null, events: [] };
      const row = this.db.sql('SELECT * FROM webhook_endpoints WHERE id = ?').get(endpointId)!;
      const updated = endpoint(row);
      const events = outcome.kind === 'disable' ? insertEvents(this.db, updated.accountId, [outcome.event(updated)]) : [];
      return { endpoint: updated, events };
    }, record.outcome.kind !== 'delivered'); // a failure's retry state and a disable (a stream event) are synced
  }

  purgeDeliveries(olderThan: number): Promise<number> {
    return this.db.write(() => Number(this.db.sql('DELETE FROM webhook_deliveries WHERE at < ?').run(olderThan).changes), UNSYNCED);
  }
}
