import postgres, { type Sql } from 'postgres';
import { timingSafeEqual } from 'node:crypto';
import type { PlatformEvent } from '@switchboard/contracts';
import {
  StoreError,
  type AcceptResult,
  type AccountRecord,
  type AttachmentRecord,
  type CommandRecord,
  type ConversationRecord,
  type CredentialRecord,
  type EventRecord,
  type LeaseAcquireResult,
  type LeaseRecord,
  type NewCommand,
  type NewEvent,
  type Page,
  type PlatformEventsResult,
  type PlatformEventView,
  type PollWithVotes,
  type SettleResult,
  type Settlement,
  type StatusChange,
  type Store,
} from '../types.ts';
import { account, command, conversation, credential, lease, type Row } from '../rows.ts';
import { migrate } from './migrate.ts';
import { connect, databaseTarget, openFailure } from './connect.ts';
import { CHANNEL, type ChangeFeed, type ChangeListener, parseChange } from './changes.ts';
import { PostgresRateLimiter } from './rate-limiter.ts';
import { PostgresWebhookStore } from './webhooks.ts';
import { heldVote, poll, pollContent, pollVote, voteApplies } from '../polls.ts';
import { ReadCache } from './cache.ts';
import { AcceptBatches } from './accept.ts';
import { settleBatch } from './settle.ts';
import { transaction, type Tx } from './transaction.ts';
import { RecentAppends } from './recent.ts';
import { OwnAnnouncements } from './announcements.ts';
import { changedFrom, sameMembers } from '../platform.ts';

export interface PostgresOptions {
  url: string;
  /** Connections in the pool, at most. */
  poolMax?: number;
  /** A statement running longer is cancelled and its transaction rolled back. */
  statementTimeoutMs?: number;
  /** Apply pending migrations at start-up (under an advisory lock) or refuse to start. */
  migrate?: boolean;
}

/** Retention runs in the replica that takes this lock first; the others skip the round. */
const RETENTION_LOCK = 0x5357_0002;

/** A platform event names a conversation nobody announced; the batch is rolled back. */
class UnknownConversation extends Error {
  readonly externalId: string;
  constructor(externalId: string) {
    super(`conversation "${externalId}" is unknown`);
    this.externalId = externalId;
  }
}

/**
 * The PostgreSQL store, for one or many server replicas on one database. Every write is one
 * transaction at READ COMMITTED and resolves after COMMIT; reads see only committed rows. Where
 * replicas race, PostgreSQL decides: unique keys (idempotency, conversations, platform records),
 * row locks (a command settles once; the lease row fences dispatch and settlement), SKIP LOCKED
 * (concurrent polls never hand out one command twice), and the account's event counter row
 * (stream ids commit in id order). Committed changes are announced with NOTIFY (changes.ts).
 */
export class PostgresStore implements Store, ChangeFeed {
  readonly sql: Sql;
  /** Writes issued and not yet committed or rolled back. */
  private readonly pending = new Set<Promise<unknown>>();
  readonly webhooks: PostgresWebhookStore;
  /** Intake's reads, kept until a replica announces a change (cache.ts). */
  private readonly cache: ReadCache;
  private readonly accepts: AcceptBatches;
  /** What this replica announced and has not heard back yet. */
  private readonly own = new OwnAnnouncements();
  /** This replica's own appends, for its stream readers (recent.ts); kept only while it hears the others'. */
  private readonly recent = new RecentAppends();
  private following = false;

  /** Intake's own connection (accept batches, the cache's version checks); `sql` when the pool is one connection. */
  private readonly intake: Sql;

  private constructor(sql: Sql, intake: Sql) {
    this.sql = sql;
    this.intake = intake;
    this.cache = new ReadCache(sql, intake);
    this.accepts = new AcceptBatches(intake, this.own);
    this.webhooks = new PostgresWebhookStore({ write: (fn) => this.write(fn), statement: (fn) => this.statement(fn), read: (fn) => this.read(fn), insertEvents });
  }

  static async open(options: PostgresOptions): Promise<PostgresStore> {
    const max = options.poolMax ?? 10;
    const target = databaseTarget(options.url);
    const open = (connections: number) => connect(target, {
      max: connections,
      connect_timeout: 5,
      idle_timeout: 60,
      onnotice: () => undefined,
      connection: {
        statement_timeout: options.statementTimeoutMs ?? 5_000,
        idle_in_transaction_session_timeout: 30_000,
        application_name: 'switchboard',
      },
    });
    // One connection of the pool is intake's own: every statement of the hot path goes down it,
    // pipelined (see "The intake path" in README.md).
    const sql = open(max > 1 ? max - 1 : 1);
    try {
      await migrate(sql, options.migrate ?? true);
    } catch (error) {
      await sql.end({ timeout: 1 });
      throw openFailure(target, error);
    }
    return new PostgresStore(sql, max > 1 ? open(1) : sql);
  }

  /** One transaction; a database failure (not the caller's own error) becomes a StoreError. */
  private write<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    // PostgreSQL delivers a payload sent twice in one transaction once: it is expected once.
    const announced = new Set<string>();
    const appends: Array<[accountId: string, after: number, events: EventRecord[]]> = [];
    const run = transaction(this.sql, fn, {
      announce: (payload) => {
        if (announced.has(payload)) return;
        announced.add(payload);
        this.own.expect(payload);
      },
      appended: (accountId, after, events) => appends.push([accountId, after, events]),
    });
    // Kept before the caller hears of the COMMIT (and wakes the streams): this runs first.
    run.then(() => { if (this.following) for (const [accountId, after, events] of appends) this.recent.record(accountId, after, events); }, () => {
      for (const payload of announced) this.own.failed(payload);
    });
    return this.committed(run);
  }

  /** A write that is one statement, its own transaction: no BEGIN and COMMIT round trips. */
  private statement<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    return this.committed(fn(this.sql));
  }

  private committed<T>(write: Promise<T>): Promise<T> {
    const done = write.catch((error: unknown) => {
      throw databaseFailure(error) ? new StoreError('the transaction did not commit; nothing of it was written', { cause: error }) : error;
    });
    this.pending.add(done);
    const forget = () => this.pending.delete(done);
    done.then(forget, forget);
    return done;
  }

  private async read<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    try {
      return await fn(this.sql);
    } catch (error) {
      throw databaseFailure(error) ? new StoreError('the database could not be read', { cause: error }) : error;
    }
  }

  async flushed(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }

  async close(): Promise<void> {
    await this.cache.close();
    if (this.intake !== this.sql) await this.intake.end({ timeout: 5 });
    await this.sql.end({ timeout: 5 });
  }

  async listen(listener: ChangeListener, onReconnect: () => void): Promise<() => Promise<void>> {
    this.own.listen((payload) => {
      const change = parseChange(payload);
      if (change?.kind === 'events') this.recent.forget(change.accountId);
      if (change) listener(change);
    });
    const { unlisten } = await this.sql.listen(CHANNEL, (payload) => this.own.heard(payload), () => {
      this.own.reset();
      this.recent.clear();
      onReconnect();
    });
    this.following = true;
    return unlisten;
  }

  /** A rate limit counted across every replica on this database. */
  rateLimiter(name: string, limit: number, windowMs: number): PostgresRateLimiter {
    return new PostgresRateLimiter(this.sql, this.cache, name, limit, windowMs);
  }

  // Accounts

  createAccount(input: { id: string; name: string; createdAt: number }): Promise<AccountRecord> {
    return this.write(async (tx) => {
      await tx`INSERT INTO accounts (id, name, created_at) VALUES (${input.id}, ${input.name}, ${input.createdAt})`;
      return { ...input, outboundPaused: false };
    });
  }

  getAccount(id: string): Promise<AccountRecord | null> {
    return this.read(async (sql) => account((await sql`SELECT * FROM accounts WHERE id = ${id}`)[0]));
  }

  findAccount(idOrName: string): Promise<AccountRecord | null> {
    return this.read(async (sql) => account((await sql`SELECT * FROM accounts WHERE id = ${idOrName} OR name = ${idOrName}`)[0]));
  }

  listAccounts(): Promise<AccountRecord[]> {
    return this.read(async (sql) => (await sql`SELECT * FROM accounts ORDER BY created_at, id`).map((r) => account(r)!));
  }

  async setOutboundPaused(accountId: string | null, paused: boolean): Promise<void> {
    await this.write(async (tx) => {
      if (accountId === null) {
        await tx`INSERT INTO settings (key, value) VALUES ('outbound_paused', ${paused ? '1' : '0'}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`;
      } else {
        await tx`UPDATE accounts SET outbound_paused = ${paused ? 1 : 0} WHERE id = ${accountId}`;
      }
      await cacheChanged(tx);
    });
    this.cache.forget(accountId === null ? 'paused:' : `paused:${accountId}`);
  }

  async isOutboundPaused(accountId: string): Promise<boolean> {
    return (await this.cache.get(`paused:${accountId}`, () => this.read(async (sql) => {
      const [row] = await sql`SELECT (SELECT outbound_paused FROM accounts WHERE id = ${accountId}) AS account, (SELECT value FROM settings WHERE key = 'outbound_paused') AS global`;
      return row!.account === 1 || row!.global === '1';
    })))!;
  }

  // Credentials

  createCredential(input: Omit<CredentialRecord, 'revokedAt'> & { hash: Buffer }): Promise<CredentialRecord> {
    return this.write(async (tx) => {
      await tx`INSERT INTO credentials (id, account_id, kind, hash, prefix, label, created_at)
        VALUES (${input.id}, ${input.accountId}, ${input.kind}, ${input.hash}, ${input.prefix}, ${input.label}, ${input.createdAt})`;
      const { hash: _hash, ...record } = input;
      return { ...record, revokedAt: null };
    });
  }

  findCredentialByHash(hash: Buffer): Promise<(CredentialRecord & { hash: Buffer }) | null> {
    // A request's first read: it waits for a check of the cache's version sent after it arrived.
    return this.cache.get(`credential:${hash.toString('hex')}`, () => this.read(async (sql) => {
      const [row] = await sql`SELECT * FROM credentials WHERE hash = ${hash} AND revoked_at IS NULL`;
      if (!row) return null;
      const stored = Buffer.from(row.hash as Uint8Array);
      // The lookup is by hash; compare the stored hash in constant time all the same.
      if (stored.length !== hash.length || !timingSafeEqual(stored, hash)) return null;
      return { ...credential(row), hash: stored };
    }), { strict: true });
  }

  listCredentials(accountId: string): Promise<CredentialRecord[]> {
    return this.read(async (sql) => (await sql`SELECT * FROM credentials WHERE account_id = ${accountId} ORDER BY created_at, id`).map(credential));
  }

  async revokeCredential(id: string, at: number): Promise<CredentialRecord | null> {
    const revoked = await this.write(async (tx) => {
      const changed = await tx`UPDATE credentials SET revoked_at = ${at} WHERE id = ${id} AND revoked_at IS NULL`;
      if (changed.count > 0) await cacheChanged(tx);
      const [row] = await tx`SELECT * FROM credentials WHERE id = ${id}`;
      return row ? credential(row) : null;
    });
    this.cache.forget('credential:');
    return revoked;
  }

  // Conversations

  getConversation(accountId: string, id: string): Promise<ConversationRecord | null> {
    return this.cache.get(`conversation:${accountId}:${id}`, () => this.read(async (sql) => {
      const [row] = await sql`SELECT * FROM conversations WHERE account_id = ${accountId} AND id = ${id}`;
      return row ? conversation(row) : null;
    }));
  }

  findConversationByExternalId(accountId: string, externalId: string): Promise<ConversationRecord | null> {
    return this.read(async (sql) => {
      const [row] = await sql`SELECT * FROM conversations WHERE account_id = ${accountId} AND external_id = ${externalId}`;
      return row ? conversation(row) : null;
    });
  }

  listConversations(accountId: string, limit: number, cursor: string | null): Promise<Page<ConversationRecord>> {
    return this.read(async (sql) => {
      // Ids are UUIDv7, so descending id order is newest first. Ids compare bytewise (COLLATE "C"), as in SQLite.
      const rows = cursor
        ? await sql`SELECT * FROM conversations WHERE account_id = ${accountId} AND id < ${cursor} ORDER BY id DESC LIMIT ${limit + 1}`
        : await sql`SELECT * FROM conversations WHERE account_id = ${accountId} ORDER BY id DESC LIMIT ${limit + 1}`;
      const items = rows.slice(0, limit).map(conversation);
      return { items, nextCursor: rows.length > limit ? items[items.length - 1]!.id : null };
    });
  }

  // Commands

  findIdempotentCommand(accountId: string, key: string, notBefore: number): Promise<CommandRecord | null> {
    return this.read((sql) => idempotentCommand(sql, accountId, key, notBefore));
  }

  acceptCommand(input: NewCommand, keyNotBefore: number): Promise<AcceptResult> {
    return this.committed(this.accepts.accept(input, keyNotBefore));
  }

  getCommand(accountId: string, id: string): Promise<CommandRecord | null> {
    return this.read(async (sql) => {
      const [row] = await sql`SELECT * FROM commands WHERE account_id = ${accountId} AND id = ${id}`;
      return row ? command(row) : null;
    });
  }

  commandHistory(id: string): Promise<StatusChange[]> {
    // A command is queued once and settled at most once, so its history is its two timestamps.
    return this.read(async (sql) => {
      const [row] = await sql`SELECT status, created_at, settled_at FROM commands WHERE id = ${id}`;
      if (!row) return [];
      const history: StatusChange[] = [{ status: 'queued', at: Number(row.created_at) }];
      if (row.settled_at !== null) history.push({ status: row.status as StatusChange['status'], at: Number(row.settled_at) });
      return history;
    });
  }

  dispatchCommands(accountId: string, epoch: number, max: number, holding: readonly string[], now: number): Promise<CommandRecord[] | null> {
    // One statement, its own transaction: one round trip. Fencing: the lease row is share-locked
    // until it commits, so no new epoch can be granted between the check and the dispatch it
    // allows; the update marks nothing when the check fails. The COMMIT does not wait for the WAL
    // flush: a dispatch mark lost to a crash only hands the command out again (connector.yaml,
    // Dispatch). One row with `live` null: not the live epoch; with `id` null: nothing to hand out.
    return this.statement(async (sql) => {
      const rows = await sql`WITH unsynced AS (SELECT set_config('synchronous_commit', 'off', true)),
          live AS (SELECT epoch FROM leases WHERE account_id = ${accountId} AND epoch = ${epoch} AND expires_at > ${now} FOR SHARE),
          pick AS (SELECT id FROM commands WHERE account_id = ${accountId} AND status = 'queued'
                  AND (dispatch_epoch IS NULL OR dispatch_epoch < ${epoch}
                    OR (dispatch_epoch = ${epoch} AND id NOT IN (SELECT jsonb_array_elements_text(${sql.json([...holding])}))))
                  AND EXISTS (SELECT 1 FROM live)
                ORDER BY id LIMIT ${max} FOR UPDATE SKIP LOCKED),
          marked AS (UPDATE commands c SET dispatch_epoch = ${epoch} FROM pick WHERE c.id = pick.id RETURNING c.*)
        SELECT live.epoch AS live, (SELECT COALESCE(MAX(version), 0) FROM cache_version) AS cache_version, marked.*
          FROM (SELECT count(*) FROM unsynced) once LEFT JOIN live ON true LEFT JOIN marked ON true`;
      // The version read with the dispatch serves the reads that follow it (the commands' conversations).
      if (rows[0]) this.cache.observed(Number(rows[0].cache_version));
      if (rows[0]?.live == null) return null;
      return rows.filter((r) => r.id !== null).map(command).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    });
  }

  settleCommand(s: Settlement): Promise<SettleResult> {
    return this.settleCommands([s]).then(([result]) => result!);
  }

  settleCommands(settlements: readonly Settlement[]): Promise<SettleResult[]> {
    const withEvents = settlements.find((s) => s.platformEvents);
    // Until the batch says otherwise, a rename or a membership change may have committed.
    let changed = true;
    return this.write(async (tx) => {
      const batch = await settleBatch(tx, settlements);
      changed = batch.conversationsChanged;
      return batch.results;
    }).finally(() => {
      if (withEvents && changed) this.cache.forget(`conversation:${withEvents.accountId}:`);
    });
  }

  // Platform events

  async recordPlatformEvents(accountId: string, events: readonly PlatformEvent[], at: number, newConversationId: () => string, view: PlatformEventView): Promise<PlatformEventsResult> {
    // Until the events are applied, a rename or a membership change may have committed.
    let changed = { conversations: true };
    try {
      return await this.write(async (tx) => {
        const implied: NewEvent[] = [];
        changed = { conversations: false };
        for (const event of events) implied.push(...await applyPlatformEvent(tx, accountId, event, at, newConversationId, view, changed));
        // The appends, the version bump (the last lock) and COMMIT go in one round trip.
        const [appended] = await Promise.all([insertEvents(tx, accountId, implied), changed.conversations && cacheChanged(tx), tx.commit()]);
        return { ok: true, recorded: events.length, events: appended };
      });
    } catch (error) {
      if (error instanceof UnknownConversation) return { ok: false, unknownConversation: error.externalId };
      throw error;
    } finally {
      // The version moved for the other replicas; this one drops its rows at once.
      if (changed.conversations) this.cache.forget(`conversation:${accountId}:`);
    }
  }

  getPoll(accountId: string, pollId: string): Promise<PollWithVotes | null> {
    return this.read(async (sql) => {
      const [row] = await sql`SELECT * FROM polls WHERE account_id = ${accountId} AND id = ${pollId}`;
      if (!row) return null;
      const votes = await sql`SELECT * FROM poll_votes WHERE account_id = ${accountId} AND poll_id = ${pollId} AND option_index IS NOT NULL ORDER BY voted_at, voter`;
      return { ...poll(row), votes: votes.map(pollVote) };
    });
  }

  // Events

  appendEvents(accountId: string, events: NewEvent[]): Promise<EventRecord[]> {
    return this.write(async (tx) => (await Promise.all([insertEvents(tx, accountId, events), tx.commit()]))[0]);
  }

  readEvents(accountId: string, after: number, limit: number): Promise<EventRecord[]> {
    return this.read(async (sql) =>
      (await sql`SELECT * FROM events WHERE account_id = ${accountId} AND id > ${after} ORDER BY id LIMIT ${limit}`).map((r) => ({
        id: Number(r.id),
        accountId: r.account_id as string,
        type: r.type as string,
        time: Number(r.time),
        data: JSON.parse(r.data as string) as unknown,
      })),
    );
  }

  followEvents(accountId: string, after: number, limit: number): Promise<EventRecord[]> {
    const recent = this.following ? this.recent.follow(accountId, after, limit) : null;
    return recent ? Promise.resolve(recent) : this.readEvents(accountId, after, limit);
  }

  eventsPurgedThrough(accountId: string): Promise<number> {
    return this.read(async (sql) => {
      const [row] = await sql`SELECT events_purged_through FROM accounts WHERE id = ${accountId}`;
      return row ? Number(row.events_purged_through) : 0;
    });
  }

  newestEventId(accountId: string): Promise<number> {
    // The counter is the largest id ever taken, committed: a rolled-back append takes none.
    return this.read(async (sql) => {
      const [row] = await sql`SELECT last_event_id FROM accounts WHERE id = ${accountId}`;
      return row ? Number(row.last_event_id) : 0;
    });
  }

  purgeEvents(olderThan: number): Promise<number> {
    return this.write(async (tx) => {
      if (!(await retentionTurn(tx))) return 0;
      await tx`UPDATE accounts a SET events_purged_through = GREATEST(a.events_purged_through, p.through)
        FROM (SELECT account_id, MAX(id) AS through FROM events WHERE time < ${olderThan} GROUP BY account_id) p
        WHERE a.id = p.account_id`;
      // A platform record is kept as long as its stream event: a re-report later than that is not expected.
      await tx`DELETE FROM platform_records WHERE recorded_at < ${olderThan}`;
      return (await tx`DELETE FROM events WHERE time < ${olderThan}`).count;
    });
  }

  purgeIdempotencyKeys(olderThan: number): Promise<number> {
    return this.write(async (tx) => {
      if (!(await retentionTurn(tx))) return 0;
      return (await tx`DELETE FROM idempotency_keys WHERE created_at < ${olderThan}`).count;
    });
  }

  purgeCommands(settledBefore: number, limit: number): Promise<number> {
    return this.write(async (tx) => {
      if (!(await retentionTurn(tx))) return 0;
      // A command whose key is still kept stays: an adopted duplicate answers with it.
      // A poll is kept as long as the command that sent it (its pollId).
      const [row] = await tx`WITH gone AS (DELETE FROM commands WHERE id IN (
          SELECT c.id FROM commands c WHERE c.settled_at < ${settledBefore} AND c.status <> 'queued'
            AND NOT EXISTS (SELECT 1 FROM idempotency_keys k WHERE k.account_id = c.account_id AND k.key = c.idempotency_key AND k.command_id = c.id)
          LIMIT ${limit} FOR UPDATE SKIP LOCKED) RETURNING account_id, id),
        votes AS (DELETE FROM poll_votes v USING gone WHERE v.account_id = gone.account_id AND v.poll_id = gone.id),
        polls AS (DELETE FROM polls p USING gone WHERE p.account_id = gone.account_id AND p.id = gone.id)
        SELECT count(*)::int AS n FROM gone`;
      return row!.n as number;
    });
  }

  // Leases

  async acquireLease(input: Omit<LeaseRecord, 'epoch' | 'acquiredAt' | 'expiresAt'>, now: number, ttlMs: number): Promise<LeaseAcquireResult> {
    const result = await this.write(async (tx): Promise<LeaseAcquireResult> => {
      // The row exists before it is locked, so racing first acquisitions queue on one row lock.
      await tx`INSERT INTO leases (account_id, host_id, epoch, os_major_version, capabilities, acquired_at, expires_at)
        VALUES (${input.accountId}, '', 0, 0, '[]', 0, 0) ON CONFLICT DO NOTHING`;
      const [row] = await tx`SELECT * FROM leases WHERE account_id = ${input.accountId} FOR UPDATE`;
      const held = lease(row!);
      if (held.expiresAt > now && held.hostId !== input.hostId) return { ok: false, holder: held };
      const next: LeaseRecord = { ...input, epoch: held.epoch + 1, acquiredAt: now, expiresAt: now + ttlMs };
      await tx`UPDATE leases SET host_id = ${next.hostId}, epoch = ${next.epoch}, os_major_version = ${next.osMajorVersion},
        capabilities = ${JSON.stringify(next.capabilities)}, acquired_at = ${now}, expires_at = ${next.expiresAt} WHERE account_id = ${input.accountId}`;
      // Commands dispatched under an earlier epoch go to this one: wake its polls on every replica.
      await Promise.all([notify(tx, input.accountId), cacheChanged(tx)]);
      return { ok: true, lease: next };
    });
    this.cache.forget(`lease:${input.accountId}`);
    return result;
  }

  async renewLease(accountId: string, epoch: number, now: number, ttlMs: number): Promise<LeaseRecord | null> {
    // The version is left alone: another replica's cached copy expires before the lease and is read again then.
    const renewed = await this.write(async (tx) => {
      const [row] = await tx`UPDATE leases SET expires_at = ${now + ttlMs} WHERE account_id = ${accountId} AND epoch = ${epoch} AND expires_at > ${now} RETURNING *`;
      return row ? lease(row) : null;
    });
    if (renewed) this.cache.put(`lease:${accountId}`, renewed);
    return renewed;
  }

  async releaseLease(accountId: string, epoch: number, now: number): Promise<boolean> {
    const released = await this.write(async (tx) => {
      // Expire it rather than delete it: the row keeps the epoch counter for the next holder.
      const expired = await tx`UPDATE leases SET expires_at = ${now} WHERE account_id = ${accountId} AND epoch = ${epoch} AND expires_at > ${now}`;
      if (expired.count > 0) await Promise.all([notify(tx, accountId), cacheChanged(tx)]);
      return expired.count > 0;
    });
    this.cache.forget(`lease:${accountId}`);
    return released;
  }

  /**
   * From the cache while it holds a lease live at `now`; an expired or missing one is read again,
   * so a renewal on another replica is seen. Dispatch and settlement do not rely on it: they check
   * the epoch in their own transaction.
   */
  async liveLease(accountId: string, now: number): Promise<LeaseRecord | null> {
    const held = await this.cache.get(`lease:${accountId}`, () => this.read(async (sql) => {
      const [row] = await sql`SELECT * FROM leases WHERE account_id = ${accountId} AND epoch > 0 AND expires_at > ${now}`;
      return row ? lease(row) : null;
    }), { usable: (cached) => cached.expiresAt > now });
    return held && held.expiresAt > now ? held : null;
  }

  listLeases(): Promise<LeaseRecord[]> {
    return this.read(async (sql) => (await sql`SELECT * FROM leases WHERE epoch > 0 ORDER BY account_id`).map(lease));
  }

  // Attachments

  putAttachment(record: AttachmentRecord): Promise<void> {
    return this.write(async (tx) => {
      await tx`INSERT INTO attachments (id, account_id, file_name, mime_type, bytes, created_at)
        VALUES (${record.id}, ${record.accountId}, ${record.fileName}, ${record.mimeType}, ${Buffer.from(record.bytes)}, ${record.createdAt})
        ON CONFLICT (account_id, id) DO UPDATE SET file_name = excluded.file_name, mime_type = excluded.mime_type, bytes = excluded.bytes`;
    });
  }

  purgeAttachments(olderThan: number, limit: number): Promise<number> {
    return this.write(async (tx) => {
      if (!(await retentionTurn(tx))) return 0;
      return (await tx`DELETE FROM attachments WHERE (account_id, id) IN (
        SELECT account_id, id FROM attachments WHERE created_at < ${olderThan} LIMIT ${limit} FOR UPDATE SKIP LOCKED)`).count;
    });
  }

  getAttachment(accountId: string, id: string): Promise<AttachmentRecord | null> {
    return this.read(async (sql) => {
      const [row] = await sql`SELECT * FROM attachments WHERE account_id = ${accountId} AND id = ${id}`;
      if (!row) return null;
      return {
        id: row.id as string,
        accountId: row.account_id as string,
        fileName: row.file_name as string,
        mimeType: row.mime_type as string,
        bytes: new Uint8Array(row.bytes as Buffer),
        createdAt: Number(row.created_at),
      };
    });
  }
}

/** What the database (or the way to it) failed at, as opposed to an error of the caller's own code. */
function databaseFailure(error: unknown): boolean {
  if (error instanceof postgres.PostgresError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  // The client's connection errors (CONNECT_TIMEOUT, CONNECTION_CLOSED...) and node's (ECONNREFUSED...).
  return typeof code === 'string' && /^(CONNECT|CONNECTION_|E[A-Z]+$)/.test(code);
}

async function idempotentCommand(sql: Sql | Tx, accountId: string, key: string, notBefore: number): Promise<CommandRecord | null> {
  const [row] = await sql`SELECT c.* FROM idempotency_keys k JOIN commands c ON c.id = k.command_id
    WHERE k.account_id = ${accountId} AND k.key = ${key} AND k.created_at >= ${notBefore}`;
  return row ? command(row) : null;
}

/** Share-locks the lease row until COMMIT: a new epoch waits for this transaction. */
export async function isLiveEpoch(tx: Tx, accountId: string, epoch: number, now: number): Promise<boolean> {
  const [held] = await tx`SELECT epoch, expires_at FROM leases WHERE account_id = ${accountId} FOR SHARE`;
  return held !== undefined && Number(held.epoch) === epoch && Number(held.expires_at) > now;
}

/** True in the one transaction (across replicas) that may run retention now. */
async function retentionTurn(tx: Tx): Promise<boolean> {
  const [row] = await tx`SELECT pg_try_advisory_xact_lock(${RETENTION_LOCK}) AS mine`;
  return row!.mine === true;
}

/** Wakes the account's dispatch long-polls: delivered at COMMIT, and only if the transaction commits. */
async function notify(tx: Tx, accountId: string): Promise<void> {
  const payload = `c:${accountId}`;
  tx.announce(payload);
  await tx`SELECT pg_notify(${CHANNEL}, ${payload})`;
}

/**
 * The transaction changes a row intake caches: every replica drops its cached rows once it
 * commits (cache.ts). Always a transaction's last lock, so two of them never wait on each other.
 */
export async function cacheChanged(tx: Tx): Promise<void> {
  await tx`INSERT INTO cache_version (only_row, version) VALUES (true, 1) ON CONFLICT (only_row) DO UPDATE SET version = cache_version.version + 1`;
}

/**
 * Appends `events` under the account's row lock, kept until COMMIT: the account's appends take
 * their ids and commit in one order, so a reader that sees id n has already seen every id of the
 * account below n. Its statements all go out at once, the lock first (granted before the ids are
 * taken), so the caller sends COMMIT with them (`tx.commit()`) and the lock is held for that one
 * round trip. The ids are taken in the insert and given to the events in order.
 */
export async function insertEvents(tx: Tx, accountId: string, events: NewEvent[]): Promise<EventRecord[]> {
  if (events.length === 0) return [];
  const input = events.map((e) => ({ type: e.type, time: e.time, data: JSON.stringify(e.data) }));
  // The NOTIFY (see notify) goes in the insert: delivered at COMMIT, and only if it commits.
  const payload = `e:${accountId}`;
  tx.announce(payload);
  const [[locked], [appended]] = await Promise.all([
    tx`SELECT id FROM accounts WHERE id = ${accountId} FOR NO KEY UPDATE`,
    tx`WITH ids AS (SELECT nextval('event_ids') AS id FROM generate_series(1, ${events.length})),
        numbered AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM ids),
        input AS (SELECT * FROM ROWS FROM (jsonb_to_recordset(${tx.json(input)}::jsonb) AS (type text, time bigint, data text)) WITH ORDINALITY AS t(type, time, data, n)),
        appended AS (INSERT INTO events (account_id, id, type, time, data)
          SELECT ${accountId}, numbered.id, input.type, input.time, input.data FROM numbered JOIN input USING (n)
          WHERE EXISTS (SELECT 1 FROM accounts WHERE id = ${accountId}) RETURNING id),
        woken AS (SELECT pg_notify(${CHANNEL}, ${payload}) FROM appended LIMIT 1)
      UPDATE accounts a SET last_event_id = (SELECT max(id) FROM appended)
        FROM (SELECT last_event_id AS before FROM accounts WHERE id = ${accountId}) b WHERE a.id = ${accountId}
      RETURNING (SELECT array_agg(id ORDER BY id) FROM appended) AS ids, (SELECT count(*) FROM woken) AS woken, b.before`,
  ]);
  // Nothing was appended (the insert checks the account too), whether or not COMMIT went with it.
  if (!locked || !appended) throw new StoreError(`no account "${accountId}" to append events to`);
  const ids = (appended.ids as string[]).map(Number);
  const records = events.map((e, i) => ({ id: ids[i]!, accountId, type: e.type, time: e.time, data: e.data }));
  tx.appended(accountId, Number(appended.before), records);
  return records;
}

/** One platform event's state change; returns the stream event it implies, none when nothing changed. */
export async function applyPlatformEvent(
  tx: Tx, accountId: string, event: PlatformEvent, at: number, newConversationId: () => string, view: PlatformEventView, changed: { conversations: boolean },
  settling?: CommandRecord,
  locked?: ReadonlyMap<string, Row>,
): Promise<NewEvent[]> {
  const byExternalId = async (externalId: string): Promise<Row | undefined> =>
    (await tx`SELECT * FROM conversations WHERE account_id = ${accountId} AND external_id = ${externalId} FOR UPDATE`)[0];
  if (event.type === 'conversation.appeared') {
    // The unique (account, externalId) decides between racing replicas: the loser waits, then finds it.
    const inserted = await tx`INSERT INTO conversations (id, account_id, external_id, kind, name, participants, created_at)
      VALUES (${newConversationId()}, ${accountId}, ${event.externalId}, ${event.conversationKind}, ${event.name}, ${JSON.stringify(event.participants)}, ${at})
      ON CONFLICT (account_id, external_id) DO NOTHING RETURNING *`;
    const row = inserted[0] ?? (await byExternalId(event.externalId))!;
    if (event.commandId) {
      await tx`UPDATE commands SET conversation_id = ${row.id as string} WHERE account_id = ${accountId} AND id = ${event.commandId} AND conversation_id IS NULL`;
    }
    return inserted[0] ? [view(event, conversation(row))] : [];
  }
  // A row the caller locked already serves the events that read only its id; a group change reads it afresh.
  const mutable = event.type === 'group.renamed' || event.type === 'group.participants_changed';
  const row = (mutable ? undefined : locked?.get(event.conversationExternalId)) ?? await byExternalId(event.conversationExternalId);
  if (!row) throw new UnknownConversation(event.conversationExternalId);
  const current = conversation(row);
  if (event.type === 'poll.voted') return applyVote(tx, accountId, current, event, view);
  // A message is itself by its id; a group change by the command that made it. A change the
  // platform made on its own has no identity: it applies when it changes something.
  const identity = 'messageExternalId' in event ? event.messageExternalId : event.commandId ? `command:${event.commandId}` : null;
  if (identity !== null) {
    const recorded = await tx`INSERT INTO platform_records (account_id, conversation_id, type, identity, recorded_at)
      VALUES (${accountId}, ${current.id}, ${event.type}, ${identity}, ${at}) ON CONFLICT DO NOTHING`;
    if (recorded.count === 0) return [];
  }
  switch (event.type) {
    case 'message.received':
      return [view(event, current)];
    case 'message.sent':
      await recordPoll(tx, accountId, current.id, event.messageExternalId, event.commandId, at, settling);
      return [view(event, current)];
    case 'group.renamed': {
      if (current.name === event.name) return [];
      await tx`UPDATE conversations SET name = ${event.name} WHERE id = ${current.id}`;
      changed.conversations = true;
      return [view(event, { ...current, name: event.name })];
    }
    case 'group.participants_changed': {
      if (sameMembers(current.participants, event.participants)) return [];
      await tx`UPDATE conversations SET participants = ${JSON.stringify(event.participants)}, membership_version = membership_version + 1 WHERE id = ${current.id}`;
      changed.conversations = true;
      return [view(changedFrom(current.participants, event), { ...current, participants: event.participants, membershipVersion: current.membershipVersion + 1 })];
    }
  }
}

/** A confirmed send of a poll makes the poll: votes name its message from now on. */
async function recordPoll(tx: Tx, accountId: string, conversationId: string, messageExternalId: string, commandId: string, at: number, settling?: CommandRecord): Promise<void> {
  // The command being settled with this event is read already.
  const [sent] = settling?.id === commandId ? [{ type: settling.type, payload: settling.payload }] : await tx`SELECT type, payload FROM commands WHERE account_id = ${accountId} AND id = ${commandId}`;
  const content = sent ? pollContent(sent.type as string, typeof sent.payload === 'string' ? JSON.parse(sent.payload) : sent.payload) : null;
  if (!content) return;
  await tx`INSERT INTO polls (account_id, id, conversation_id, message_external_id, question, options, sent_at)
    VALUES (${accountId}, ${commandId}, ${conversationId}, ${messageExternalId}, ${content.question}, ${JSON.stringify(content.options)}, ${at})
    ON CONFLICT DO NOTHING`;
}

/**
 * A vote on a poll the account sent; one on any other message, or one that changes nothing, adds
 * no event. Racing replicas queue on the conversation's row lock (taken by the caller), so the
 * held vote read here is still the held vote at the write.
 */
async function applyVote(tx: Tx, accountId: string, current: ConversationRecord, event: Extract<PlatformEvent, { type: 'poll.voted' }>, view: PlatformEventView): Promise<NewEvent[]> {
  const [found] = await tx`SELECT * FROM polls WHERE account_id = ${accountId} AND conversation_id = ${current.id} AND message_external_id = ${event.pollMessageExternalId}`;
  if (!found) return [];
  const target = poll(found);
  const [held] = await tx`SELECT * FROM poll_votes WHERE account_id = ${accountId} AND poll_id = ${target.id} AND voter = ${event.voterExternalId}`;
  const previous = heldVote(held);
  if (!voteApplies(target, previous, event)) return [];
  await tx`INSERT INTO poll_votes (account_id, poll_id, voter, option_index, voted_at)
    VALUES (${accountId}, ${target.id}, ${event.voterExternalId}, ${event.optionIndex}, ${Date.parse(event.votedAt)})
    ON CONFLICT (account_id, poll_id, voter) DO UPDATE SET option_index = excluded.option_index, voted_at = excluded.voted_at`;
  return [view(event, current, { poll: target, previousOptionIndex: previous?.optionIndex ?? null })];
}
