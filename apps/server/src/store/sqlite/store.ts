import { join } from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { timingSafeEqual } from 'node:crypto';
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
import type { PlatformEvent } from '@switchboard/contracts';
import { openWal } from '@switchboard/sqlite';
import { migrate } from './migrations.ts';
import { account, command, conversation, credential, lease, type Row } from '../rows.ts';
import { SqliteWebhookStore } from './webhooks.ts';
import { heldVote, poll, pollContent, pollVote, voteApplies } from '../polls.ts';
import { announcesConversationOf, changedFrom, changesConversations, sameMembers } from '../platform.ts';
type Waiter = { resolve: () => void; reject: (error: unknown) => void };
/** The writes of one event-loop turn, committed together; `synced`: with an fsync (FULL). */
type Group = { waiters: Waiter[]; synced: boolean; committed: Promise<void>; deferred: Deferred[] };
/** A command without an idempotency key, inserted with the group's others just before its COMMIT. */
type Deferred = { input: NewCommand; resolve: (result: AcceptResult) => void; reject: (error: unknown) => void };

const COMMAND_COLUMNS = 'id, account_id, type, routing_path, status, target, payload, logical_action_id, idempotency_key, conversation_id, created_at';
/**
 * The row counts of the multi-row command inserts, largest first: a group's deferred commands go
 * in as few statements of these sizes as add up to them (28: 16, 8, 4). One statement of many
 * rows costs 40 % less a row than a statement a row (1.9 against 3.2 µs, a loop alone).
 */
const CHUNKS = [64, 32, 16, 8, 4, 2, 1];
const INSERT_COMMANDS = new Map(CHUNKS.map((rows) => [
  rows,
  `INSERT INTO commands (${COMMAND_COLUMNS}) VALUES ${Array(rows).fill("(?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?, ?)").join(', ')}`,
]));

export interface SqliteOptions {
  /** Directory holding `switchboard.db`. */
  dataDir: string;
  busyTimeoutMs?: number;
}

/** A platform event names a conversation nobody announced; the batch is rolled back. */
class UnknownConversation extends Error {
  readonly externalId: string;
  constructor(externalId: string) {
    super(`conversation "${externalId}" is unknown`);
    this.externalId = externalId;
  }
}

/**
 * The embedded store. Durability: WAL with `synchronous = FULL`, so a committed transaction
 * survives power loss. Group commit: every write issued in one event-loop turn shares one
 * transaction and one fsync, and each write's promise resolves only after that COMMIT. A failed
 * COMMIT rolls the whole group back and rejects every write in it, so nothing is half-written.
 * Reads go through a second, read-only connection, which WAL shows only committed (and, with
 * `synchronous = FULL`, already synced) transactions: never a group still open on the writer.
 *
 * Unsynced writes (webhook delivery bookkeeping, see `SqliteAccess.write`) commit in groups of
 * their own with `synchronous = NORMAL`: no fsync, so such a commit survives the process being
 * killed (it is in the OS's hands) but not a power loss or OS crash, until the next synced commit
 * or checkpoint syncs the WAL. WAL recovery keeps a prefix of the commits, so what a power loss
 * can take back is only unsynced commits made after the last synced one.
 */
export class SqliteStore implements Store {
  readonly db: DatabaseSync;
  private readonly reader: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  private readonly queries = new Map<string, StatementSync>();
  private group: Group | null = null;
  /** The connection's `synchronous` setting: FULL (true) or NORMAL; SQLite takes it only between transactions. */
  private synced = true;
  /**
   * Rows every command's intake reads, kept until they change: a map per kind, keyed by strings
   * the request already holds (an account id from the cached credential hashes once), rather than
   * one map under keys built per read (four strings made and hashed a command).
   */
  private readonly cache = {
    /** By the digest's bytes as a latin1 string. */
    credentials: new Map<string, (CredentialRecord & { hash: Buffer }) | null>(),
    /** By id, whichever account's (a conversation id is its primary key). */
    conversations: new Map<string, ConversationRecord | null>(),
    paused: new Map<string, boolean>(),
    leases: new Map<string, LeaseRecord | null>(),
  };
  private cacheVersion = -1;
  private versionChecked = false;
  /** The open group wrote a table the cache reads from: drop the cache again once it commits. */
  private cacheStale = false;
  readonly webhooks: SqliteWebhookStore;

  constructor(options: SqliteOptions) {
    const file = join(options.dataDir, 'switchboard.db');
    // The operator CLI opens the same file, and may open a new one as the server does.
    this.db = openWal(file, options.busyTimeoutMs ?? 5000);
    this.db.exec('PRAGMA synchronous = FULL');
    this.db.exec('PRAGMA foreign_keys = ON');
    migrate(this.db);
    this.reader = new DatabaseSync(file, { readOnly: true });
    this.reader.exec(`PRAGMA busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    this.webhooks = new SqliteWebhookStore({
      write: (fn, synced) => this.write(fn, synced),
      sql: (text) => this.sql(text),
      query: (text) => this.query(text),
      insertEvents: (accountId, events) => this.insertEvents(accountId, events),
    });
  }

  /** A statement on the writer: only inside `write`. */
  private sql(text: string): StatementSync {
    return prepared(this.statements, this.db, text);
  }

  /** A statement on the reader: sees only committed transactions. */
  private query(text: string): StatementSync {
    return prepared(this.queries, this.reader, text);
  }

  /**
   * Serves a read from the cache while neither this connection (see `forget`) nor another one
   * (PRAGMA data_version: the operator CLI, a second server) changed the database.
   */
  private cached<T>(map: Map<string, T>, key: string, load: () => T): T {
    if (!this.versionChecked) {
      // Once per event-loop turn: what another process commits shows within a turn. Asked of the
      // writer, whose own commits leave it unchanged (the reader's moves with every one of them).
      const { data_version: version } = prepared(this.statements, this.db, 'PRAGMA data_version').get() as { data_version: number };
      if (version !== this.cacheVersion) {
        this.clearCache();
        this.cacheVersion = version;
      }
      this.versionChecked = true;
      setImmediate(() => { this.versionChecked = false; });
    }
    // Values are never undefined (null when there is no row).
    const hit = map.get(key);
    if (hit !== undefined) return hit;
    const value = load();
    if (map.size >= 10_000) map.clear();
    map.set(key, value);
    return value;
  }

  private clearCache(): void {
    const { credentials, conversations, paused, leases } = this.cache;
    credentials.clear();
    conversations.clear();
    paused.clear();
    leases.clear();
  }

  /** Drops cached reads when a write touches a table they come from, and again when it commits. */
  private forget(): void {
    this.clearCache();
    this.cacheStale = true;
  }

  /**
   * Runs `fn` inside this turn's transaction; resolves with its result once the transaction commits.
   * `synced: false` writes may share an unsynced (NORMAL) group; a synced write never does: it
   * commits an open unsynced group first (no fsync, so nothing waits) and starts a synced one.
   * An unsynced write joining a synced group is simply synced too.
   * `oneStatement`: `fn` runs a single statement and nothing after it that can throw. SQLite undoes
   * a failed statement on its own and keeps the transaction, so it needs no savepoint of its own
   * (the pair cost 2-3 µs a command at intake).
   */
  private write<T>(fn: () => T, synced = true, oneStatement = false): Promise<T> {
    const group = this.openGroup(synced);
    if (group instanceof Error) return Promise.reject(group);
    // The commands accepted before this write go in first, so it sees them (a dispatch hands
    // them out in the order they were accepted).
    if (group.deferred.length > 0 && !this.insertDeferred(group)) {
      this.group = null;
      return Promise.reject(new StoreError('the transaction was rolled back'));
    }
    let result: T;
    if (!oneStatement) this.sql('SAVEPOINT w').run();
    try {
      result = fn();
      if (!oneStatement) this.sql('RELEASE w').run();
    } catch (error) {
      // Some failures (a full disk, an I/O error) roll the whole transaction back: the group is lost.
      if (!this.db.isTransaction) this.lose(group, error);
      else if (!oneStatement) {
        this.sql('ROLLBACK TO w').run();
        this.sql('RELEASE w').run();
      }
      return Promise.reject(error);
    }
    return new Promise<T>((resolve, reject) => group.waiters.push({ resolve: () => resolve(result), reject }));
  }

  /**
   * A command without a key, inserted at its group's COMMIT together with the group's others
   * (`insertDeferred`), or before the next other write of the group: back to back, in a few
   * multi-row statements, rather than a statement between each request's other work, where
   * SQLite's pages and code are cold.
   */
  private deferInsert(input: NewCommand): Promise<AcceptResult> {
    const group = this.openGroup(true);
    if (group instanceof Error) return Promise.reject(group);
    return new Promise((resolve, reject) => group.deferred.push({ input, resolve, reject }));
  }

  /** The turn's open group, begun if there is none (see `write` for `synced`), or why none could begin. */
  private openGroup(synced: boolean): Group | StoreError {
    if (this.group && synced && !this.group.synced) this.commit(this.group);
    if (!this.group) {
      try {
        if (this.synced !== synced) {
          this.db.exec(`PRAGMA synchronous = ${synced ? 'FULL' : 'NORMAL'}`);
          this.synced = synced;
        }
        this.db.exec('BEGIN IMMEDIATE');
      } catch (error) {
        return new StoreError('could not begin a transaction', { cause: error });
      }
      const group: Group = { waiters: [], synced, committed: Promise.resolve(), deferred: [] };
      group.committed = new Promise((resolve) => setImmediate(() => { this.commit(group); resolve(); }));
      this.group = group;
    }
    return this.group;
  }

  /**
   * SQLite rolled `group`'s transaction back on its own: every write in it is rejected, and the
   * next write begins a new group (rather than running outside any transaction and being
   * committed while its group reports failure).
   */
  private lose(group: Group, cause: unknown): void {
    this.group = null;
    if (this.cacheStale) this.clearCache();
    this.cacheStale = false;
    const failure = new StoreError('the transaction was rolled back', { cause });
    for (const waiter of group.waiters) waiter.reject(failure);
    for (const item of group.deferred.splice(0)) item.reject(failure);
  }

  /**
   * Inserts `group`'s deferred commands in its transaction. A statement SQLite refuses undoes
   * itself alone, and its rows are tried one by one, so a row that fails is rejected alone. A
   * failure that rolls the transaction back loses what the group wrote before it, as in `write`,
   * and the rows after it go on in a new transaction. False when no transaction is open after.
   */
  private insertDeferred(group: Group): boolean {
    const chunks = chunked(group.deferred);
    group.deferred = [];
    for (let i = 0; i < chunks.length; i++) {
      const chunk = chunks[i]!;
      try {
        this.insertCommands(chunk.map((item) => item.input));
      } catch (error) {
        if (this.db.isTransaction) {
          // SQLite undid this statement alone: its rows go again one by one, so only a bad row fails.
          if (chunk.length > 1) chunks.splice(i + 1, 0, ...chunk.map((item) => [item]));
          else chunk[0]!.reject(error);
          continue;
        }
        for (const item of chunk) item.reject(error);
        const failure = new StoreError('the transaction was rolled back', { cause: error });
        for (const waiter of group.waiters) waiter.reject(failure);
        group.waiters = [];
        try {
          this.db.exec('BEGIN IMMEDIATE');
        } catch (begin) {
          const failure = new StoreError('could not begin a transaction', { cause: begin });
          for (const rest of chunks.slice(i + 1).flat()) rest.reject(failure);
          return false;
        }
        continue;
      }
      for (const item of chunk) group.waiters.push({ resolve: () => item.resolve(queued(item.input)), reject: item.reject });
    }
    return true;
  }

  /** Commits `group` if it is still the open one (a synced write may have committed it early). */
  private commit(group: Group): void {
    if (this.group !== group) return;
    const open = group.deferred.length === 0 || this.insertDeferred(group);
    this.group = null;
    try {
      if (!open) return;
      this.db.exec('COMMIT');
    } catch (error) {
      try { this.db.exec('ROLLBACK'); } catch { /* the failed COMMIT may already have rolled back */ }
      const failure = new StoreError('could not commit', { cause: error });
      for (const waiter of group.waiters) waiter.reject(failure);
      return;
    } finally {
      if (this.cacheStale) this.clearCache();
      this.cacheStale = false;
    }
    for (const waiter of group.waiters) waiter.resolve();
  }

  /** Reads on the reader connection: what is durable, never the open group. */
  private async read<T>(fn: () => T): Promise<T> {
    return fn();
  }

  async flushed(): Promise<void> {
    if (this.group) await this.group.committed;
  }

  async close(): Promise<void> {
    await this.flushed();
    this.reader.close();
    this.db.close();
  }

  // Accounts

  createAccount(input: { id: string; name: string; createdAt: number }): Promise<AccountRecord> {
    return this.write(() => {
      this.forget();
      this.sql('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)').run(input.id, input.name, input.createdAt);
      return { ...input, outboundPaused: false };
    });
  }

  getAccount(id: string): Promise<AccountRecord | null> {
    return this.read(() => account(this.query('SELECT * FROM accounts WHERE id = ?').get(id)));
  }

  findAccount(idOrName: string): Promise<AccountRecord | null> {
    return this.read(() => account(this.query('SELECT * FROM accounts WHERE id = ? OR name = ?').get(idOrName, idOrName)));
  }

  listAccounts(): Promise<AccountRecord[]> {
    return this.read(() => this.query('SELECT * FROM accounts ORDER BY created_at, id').all().map((r) => account(r)!));
  }

  setOutboundPaused(accountId: string | null, paused: boolean): Promise<void> {
    return this.write(() => {
      this.forget();
      if (accountId === null) {
        this.sql("INSERT INTO settings (key, value) VALUES ('outbound_paused', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
          .run(paused ? '1' : '0');
      } else {
        this.sql('UPDATE accounts SET outbound_paused = ? WHERE id = ?').run(paused ? 1 : 0, accountId);
      }
    });
  }

  isOutboundPaused(accountId: string): Promise<boolean> {
    return this.read(() => this.cached(this.cache.paused, accountId, () => {
      const row = this.query(
        "SELECT (SELECT outbound_paused FROM accounts WHERE id = ?) AS account, (SELECT value FROM settings WHERE key = 'outbound_paused') AS global",
      ).get(accountId) as { account: number | null; global: string | null };
      return row.account === 1 || row.global === '1';
    }));
  }

  // Credentials

  createCredential(input: Omit<CredentialRecord, 'revokedAt'> & { hash: Buffer }): Promise<CredentialRecord> {
    return this.write(() => {
      this.forget();
      this.sql('INSERT INTO credentials (id, account_id, kind, hash, prefix, label, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(input.id, input.accountId, input.kind, input.hash, input.prefix, input.label, input.createdAt);
      const { hash: _hash, ...record } = input;
      return { ...record, revokedAt: null };
    });
  }

  findCredentialByHash(hash: Buffer): Promise<(CredentialRecord & { hash: Buffer }) | null> {
    return this.read(() => {
      // Kept as the record, not the row: every request of the key reads it.
      const found = this.cached(this.cache.credentials, hash.toString('latin1'), () => {
        const row = this.query('SELECT * FROM credentials WHERE hash = ? AND revoked_at IS NULL').get(hash);
        return row ? Object.freeze({ ...credential(row), hash: Buffer.from(row.hash as Uint8Array) }) : null;
      });
      // The lookup is by hash; compare the stored hash in constant time all the same.
      if (!found || found.hash.length !== hash.length || !timingSafeEqual(found.hash, hash)) return null;
      return found;
    });
  }

  listCredentials(accountId: string): Promise<CredentialRecord[]> {
    return this.read(() => this.query('SELECT * FROM credentials WHERE account_id = ? ORDER BY created_at, id').all(accountId).map(credential));
  }

  revokeCredential(id: string, at: number): Promise<CredentialRecord | null> {
    return this.write(() => {
      this.forget();
      this.sql('UPDATE credentials SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, id);
      const row = this.sql('SELECT * FROM credentials WHERE id = ?').get(id);
      return row ? credential(row) : null;
    });
  }

  // Conversations

  getConversation(accountId: string, id: string): Promise<ConversationRecord | null> {
    return this.read(() => {
      const found = this.cached(this.cache.conversations, id, () => {
        const row = this.query('SELECT * FROM conversations WHERE id = ?').get(id);
        return row ? conversation(row) : null;
      });
      return found && found.accountId === accountId ? found : null;
    });
  }

  findConversationByExternalId(accountId: string, externalId: string): Promise<ConversationRecord | null> {
    return this.read(() => {
      const row = this.query('SELECT * FROM conversations WHERE account_id = ? AND external_id = ?').get(accountId, externalId);
      return row ? conversation(row) : null;
    });
  }

  listConversations(accountId: string, limit: number, cursor: string | null): Promise<Page<ConversationRecord>> {
    return this.read(() => {
      // Ids are UUIDv7, so descending id order is newest first.
      const rows = cursor
        ? this.query('SELECT * FROM conversations WHERE account_id = ? AND id < ? ORDER BY id DESC LIMIT ?').all(accountId, cursor, limit + 1)
        : this.query('SELECT * FROM conversations WHERE account_id = ? ORDER BY id DESC LIMIT ?').all(accountId, limit + 1);
      const items = rows.slice(0, limit).map(conversation);
      return { items, nextCursor: rows.length > limit ? items[items.length - 1]!.id : null };
    });
  }

  // Commands

  private idempotentCommand(statement: (text: string) => StatementSync, accountId: string, key: string, notBefore: number): CommandRecord | null {
    const row = statement(
      'SELECT c.* FROM idempotency_keys k JOIN commands c ON c.id = k.command_id WHERE k.account_id = ? AND k.key = ? AND k.created_at >= ?',
    ).get(accountId, key, notBefore);
    return row ? command(row) : null;
  }

  findIdempotentCommand(accountId: string, key: string, notBefore: number): Promise<CommandRecord | null> {
    return this.read(() => this.idempotentCommand((t) => this.query(t), accountId, key, notBefore));
  }

  acceptCommand(input: NewCommand, keyNotBefore: number): Promise<AcceptResult> {
    const key = input.idempotencyKey;
    if (key === null) return this.deferInsert(input);
    return this.write((): AcceptResult => {
      const original = this.idempotentCommand((t) => this.sql(t), input.accountId, key, keyNotBefore);
      if (original) return { disposition: 'adopted', command: original };
      // A key past retention is forgotten: the new command takes it over.
      this.sql('DELETE FROM idempotency_keys WHERE account_id = ? AND key = ?').run(input.accountId, key);
      this.insertCommands([input]);
      this.sql('INSERT INTO idempotency_keys (account_id, key, command_id, created_at) VALUES (?, ?, ?, ?)')
        .run(input.accountId, key, input.id, input.createdAt);
      return queued(input);
    });
  }

  /** One statement for all of `inputs` (a size in CHUNKS). */
  private insertCommands(inputs: readonly NewCommand[]): void {
    const values: SQLInputValue[] = [];
    for (const input of inputs) {
      values.push(
        input.id, input.accountId, input.type, input.routingPath, JSON.stringify(input.target), JSON.stringify(input.payload),
        input.logicalActionId, input.idempotencyKey, input.conversationId, input.createdAt,
      );
    }
    this.sql(INSERT_COMMANDS.get(inputs.length)!).run(...values);
  }

  getCommand(accountId: string, id: string): Promise<CommandRecord | null> {
    return this.read(() => {
      const row = this.query('SELECT * FROM commands WHERE account_id = ? AND id = ?').get(accountId, id);
      return row ? command(row) : null;
    });
  }

  commandHistory(id: string): Promise<StatusChange[]> {
    // A command is queued once and settled at most once, so its history is its two timestamps.
    return this.read(() => {
      const row = this.query('SELECT status, created_at, settled_at FROM commands WHERE id = ?').get(id);
      if (!row) return [];
      const history: StatusChange[] = [{ status: 'queued', at: Number(row.created_at) }];
      if (row.settled_at !== null) history.push({ status: row.status as StatusChange['status'], at: Number(row.settled_at) });
      return history;
    });
  }

  dispatchCommands(accountId: string, epoch: number, max: number, holding: readonly string[], now: number): Promise<CommandRecord[] | null> {
    return this.write(() => {
      // Fencing in the same transaction as the dispatch: only the live lease's epoch gets work.
      if (!this.isLiveEpoch(accountId, epoch, now)) return null;
      const rows = this.sql(
        `SELECT * FROM commands WHERE account_id = ? AND status = 'queued'
           AND (dispatch_epoch IS NULL OR dispatch_epoch < ? OR (dispatch_epoch = ? AND id NOT IN (SELECT value FROM json_each(?))))
         ORDER BY id LIMIT ?`,
      ).all(accountId, epoch, epoch, JSON.stringify(holding), max);
      const mark = this.sql('UPDATE commands SET dispatch_epoch = ? WHERE id = ?');
      return rows.map((row) => {
        mark.run(epoch, row.id as string);
        return { ...command(row), dispatchEpoch: epoch };
      });
      // Not synced: a dispatch mark a power loss takes back only hands the command out again (connector.yaml, Dispatch).
    }, false);
  }

  private isLiveEpoch(accountId: string, epoch: number, now: number): boolean {
    const held = this.sql('SELECT epoch, expires_at FROM leases WHERE account_id = ?').get(accountId);
    return held !== undefined && Number(held.epoch) === epoch && Number(held.expires_at) > now;
  }

  settleCommand(s: Settlement): Promise<SettleResult> {
    return this.write(() => this.settle(s));
  }

  settleCommands(settlements: readonly Settlement[]): Promise<SettleResult[]> {
    // One write: the batch shares one transaction and one fsync.
    return this.write(() => settlements.map((s) => this.settle(s)));
  }

  private settle(s: Settlement): SettleResult {
    const row = this.sql('SELECT * FROM commands WHERE account_id = ? AND id = ?').get(s.accountId, s.commandId);
    if (!row) return { outcome: 'not_found' };
    let current = command(row);
    const settledHere = current.status !== 'queued' && current.dispatchEpoch === s.epoch;
    // The epoch that settled it repeats itself (a retry after a lost response), live or not.
    if (settledHere && current.status === s.status && current.errorCode === s.errorCode) return { outcome: 'repeated', command: current };
    // Fencing: only the live lease's epoch settles, and only what was dispatched to it.
    if (!this.isLiveEpoch(s.accountId, s.epoch, s.at)) return { outcome: 'lease_lost' };
    // A different outcome from the epoch that settled it records nothing, its events included.
    if (settledHere) return { outcome: 'conflict', command: current };
    if (s.platformEvents) {
      const recorded = this.recordWithin(s.accountId, s.platformEvents.events, s.at, s.platformEvents.newConversationId, s.platformEvents.view);
      if (!recorded.ok) return { outcome: 'unknown_conversation', externalId: recorded.unknownConversation };
      // The conversation the command made (a group.create, a send to a new recipient) is its conversation now.
      if (announcesConversationOf(s.platformEvents.events, s.commandId)) current = command(this.sql('SELECT * FROM commands WHERE id = ?').get(s.commandId)!);
    }
    if (current.status !== 'queued') return { outcome: 'conflict', command: current };
    if (current.dispatchEpoch !== s.epoch) return { outcome: 'not_dispatched' };
    this.sql('UPDATE commands SET status = ?, error_code = ?, error_message = ?, error_path = ?, detail = ?, settled_at = ? WHERE id = ?')
      .run(s.status, s.errorCode, s.errorMessage, s.errorPath, s.detail, s.at, s.commandId);
    const settled: CommandRecord = { ...current, status: s.status, errorCode: s.errorCode, errorMessage: s.errorMessage, errorPath: s.errorPath, settledAt: s.at };
    const [event] = this.insertEvents(s.accountId, [{ type: 'command.settled', time: s.at, data: s.eventData(settled) }]);
    return { outcome: 'settled', command: settled, event: event! };
  }

  // Platform events

  recordPlatformEvents(accountId: string, events: readonly PlatformEvent[], at: number, newConversationId: () => string, view: PlatformEventView): Promise<PlatformEventsResult> {
    return this.write(() => this.recordWithin(accountId, events, at, newConversationId, view));
  }

  /** The events' state changes and stream events, in a savepoint of their own: an unknown conversation rolls back only these events. */
  private recordWithin(accountId: string, events: readonly PlatformEvent[], at: number, newConversationId: () => string, view: PlatformEventView): PlatformEventsResult {
    this.sql('SAVEPOINT e').run();
    try {
      if (changesConversations(events)) this.forget();
      const implied = events.flatMap((event) => this.applyPlatformEvent(accountId, event, at, newConversationId, view));
      const appended = this.insertEvents(accountId, implied);
      this.sql('RELEASE e').run();
      return { ok: true, recorded: events.length, events: appended };
    } catch (error) {
      this.sql('ROLLBACK TO e').run();
      this.sql('RELEASE e').run();
      if (error instanceof UnknownConversation) return { ok: false, unknownConversation: error.externalId };
      throw error;
    }
  }

  /** One platform event's state change; returns the stream event it implies, none when nothing changed. */
  private applyPlatformEvent(accountId: string, event: PlatformEvent, at: number, newConversationId: () => string, view: PlatformEventView): NewEvent[] {
    const byExternalId = (externalId: string) => this.sql('SELECT * FROM conversations WHERE account_id = ? AND external_id = ?').get(accountId, externalId);
    if (event.type === 'conversation.appeared') {
      const existing = byExternalId(event.externalId);
      const id = existing ? (existing.id as string) : newConversationId();
      if (!existing) {
        this.sql('INSERT INTO conversations (id, account_id, external_id, kind, name, participants, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
          .run(id, accountId, event.externalId, event.conversationKind, event.name, JSON.stringify(event.participants), at);
      }
      if (event.commandId) {
        this.sql('UPDATE commands SET conversation_id = ? WHERE account_id = ? AND id = ? AND conversation_id IS NULL').run(id, accountId, event.commandId);
      }
      return existing ? [] : [view(event, conversation(byExternalId(event.externalId)!))];
    }
    const row = byExternalId(event.conversationExternalId);
    if (!row) throw new UnknownConversation(event.conversationExternalId);
    const current = conversation(row);
    if (event.type === 'poll.voted') return this.applyVote(accountId, current, event, view);
    // A message is itself by its id; a group change by the command that made it. A change the
    // platform made on its own has no identity: it applies when it changes something.
    const identity = 'messageExternalId' in event ? event.messageExternalId : event.commandId ? `command:${event.commandId}` : null;
    if (identity !== null) {
      const { changes } = this.sql(
        'INSERT INTO platform_records (account_id, conversation_id, type, identity, recorded_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
      ).run(accountId, current.id, event.type, identity, at);
      if (Number(changes) === 0) return [];
    }
    switch (event.type) {
      case 'message.received':
        return [view(event, current)];
      case 'message.sent':
        this.recordPoll(accountId, current.id, event.messageExternalId, event.commandId, at);
        return [view(event, current)];
      case 'group.renamed': {
        if (current.name === event.name) return [];
        this.sql('UPDATE conversations SET name = ? WHERE id = ?').run(event.name, current.id);
        return [view(event, { ...current, name: event.name })];
      }
      case 'group.participants_changed': {
        if (sameMembers(current.participants, event.participants)) return [];
        this.sql('UPDATE conversations SET participants = ?, membership_version = membership_version + 1 WHERE id = ?')
          .run(JSON.stringify(event.participants), current.id);
        return [view(changedFrom(current.participants, event), { ...current, participants: event.participants, membershipVersion: current.membershipVersion + 1 })];
      }
    }
  }

  /** A confirmed send of a poll makes the poll: votes name its message from now on. */
  private recordPoll(accountId: string, conversationId: string, messageExternalId: string, commandId: string, at: number): void {
    const sent = this.sql('SELECT type, payload FROM commands WHERE account_id = ? AND id = ?').get(accountId, commandId);
    const content = sent ? pollContent(sent.type as string, JSON.parse(sent.payload as string)) : null;
    if (!content) return;
    this.sql(
      `INSERT INTO polls (account_id, id, conversation_id, message_external_id, question, options, sent_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT DO NOTHING`,
    ).run(accountId, commandId, conversationId, messageExternalId, content.question, JSON.stringify(content.options), at);
  }

  /** A vote on a poll the account sent; one on any other message, or one that changes nothing, adds no event. */
  private applyVote(accountId: string, current: ConversationRecord, event: Extract<PlatformEvent, { type: 'poll.voted' }>, view: PlatformEventView): NewEvent[] {
    const found = this.sql('SELECT * FROM polls WHERE account_id = ? AND conversation_id = ? AND message_external_id = ?')
      .get(accountId, current.id, event.pollMessageExternalId);
    if (!found) return [];
    const target = poll(found);
    const held = heldVote(this.sql('SELECT * FROM poll_votes WHERE account_id = ? AND poll_id = ? AND voter = ?').get(accountId, target.id, event.voterExternalId));
    if (!voteApplies(target, held, event)) return [];
    this.sql(
      `INSERT INTO poll_votes (account_id, poll_id, voter, option_index, voted_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (account_id, poll_id, voter) DO UPDATE SET option_index = excluded.option_index, voted_at = excluded.voted_at`,
    ).run(accountId, target.id, event.voterExternalId, event.optionIndex, Date.parse(event.votedAt));
    return [view(event, current, { poll: target, previousOptionIndex: held?.optionIndex ?? null })];
  }

  getPoll(accountId: string, pollId: string): Promise<PollWithVotes | null> {
    return this.read(() => {
      const row = this.query('SELECT * FROM polls WHERE account_id = ? AND id = ?').get(accountId, pollId);
      if (!row) return null;
      const votes = this.query('SELECT * FROM poll_votes WHERE account_id = ? AND poll_id = ? AND option_index IS NOT NULL ORDER BY voted_at, voter')
        .all(accountId, pollId).map(pollVote);
      return { ...poll(row), votes };
    });
  }

  // Events

  private insertEvents(accountId: string, events: NewEvent[]): EventRecord[] {
    const insert = this.sql('INSERT INTO events (account_id, type, time, data) VALUES (?, ?, ?, ?)');
    return events.map((e) => {
      const { lastInsertRowid } = insert.run(accountId, e.type, e.time, JSON.stringify(e.data));
      return { id: Number(lastInsertRowid), accountId, type: e.type, time: e.time, data: e.data };
    });
  }

  appendEvents(accountId: string, events: NewEvent[]): Promise<EventRecord[]> {
    return this.write(() => this.insertEvents(accountId, events));
  }

  followEvents(accountId: string, after: number, limit: number): Promise<EventRecord[]> {
    return this.readEvents(accountId, after, limit);
  }

  readEvents(accountId: string, after: number, limit: number): Promise<EventRecord[]> {
    return this.read(() =>
      this.query('SELECT * FROM events WHERE account_id = ? AND id > ? ORDER BY id LIMIT ?').all(accountId, after, limit).map((r) => ({
        id: Number(r.id),
        accountId: r.account_id as string,
        type: r.type as string,
        time: Number(r.time),
        data: JSON.parse(r.data as string) as unknown,
      })),
    );
  }

  eventsPurgedThrough(accountId: string): Promise<number> {
    return this.read(() => {
      const row = this.query('SELECT events_purged_through FROM accounts WHERE id = ?').get(accountId);
      return row ? Number(row.events_purged_through) : 0;
    });
  }

  newestEventId(accountId: string): Promise<number> {
    return this.read(() => {
      const row = this.query(
        'SELECT MAX(COALESCE((SELECT MAX(id) FROM events WHERE account_id = ?), 0), COALESCE((SELECT events_purged_through FROM accounts WHERE id = ?), 0)) AS newest',
      ).get(accountId, accountId);
      return Number(row?.newest ?? 0);
    });
  }

  purgeEvents(olderThan: number): Promise<number> {
    return this.write(() => {
      this.sql(
        `UPDATE accounts SET events_purged_through = MAX(events_purged_through,
           COALESCE((SELECT MAX(id) FROM events WHERE events.account_id = accounts.id AND time < ?), 0))`,
      ).run(olderThan);
      // A platform record is kept as long as its stream event: a re-report later than that is not expected.
      this.sql('DELETE FROM platform_records WHERE recorded_at < ?').run(olderThan);
      return Number(this.sql('DELETE FROM events WHERE time < ?').run(olderThan).changes);
    });
  }

  purgeIdempotencyKeys(olderThan: number): Promise<number> {
    return this.write(() => Number(this.sql('DELETE FROM idempotency_keys WHERE created_at < ?').run(olderThan).changes));
  }

  purgeCommands(settledBefore: number, limit: number): Promise<number> {
    // A command whose key is still kept stays: an adopted duplicate answers with it.
    return this.write(() => {
      const gone = this.sql(
        `DELETE FROM commands WHERE id IN (
           SELECT c.id FROM commands c WHERE c.settled_at < ? AND c.status <> 'queued'
             AND NOT EXISTS (SELECT 1 FROM idempotency_keys k WHERE k.account_id = c.account_id AND k.key = c.idempotency_key AND k.command_id = c.id)
           LIMIT ?) RETURNING account_id, id`,
      ).all(settledBefore, limit);
      // A poll is kept as long as the command that sent it (its pollId).
      for (const row of gone) {
        this.sql('DELETE FROM poll_votes WHERE account_id = ? AND poll_id = ?').run(row.account_id as string, row.id as string);
        this.sql('DELETE FROM polls WHERE account_id = ? AND id = ?').run(row.account_id as string, row.id as string);
      }
      return gone.length;
    });
  }

  // Leases

  acquireLease(input: Omit<LeaseRecord, 'epoch' | 'acquiredAt' | 'expiresAt'>, now: number, ttlMs: number): Promise<LeaseAcquireResult> {
    return this.write((): LeaseAcquireResult => {
      this.forget();
      const row = this.sql('SELECT * FROM leases WHERE account_id = ?').get(input.accountId);
      const held = row ? lease(row) : null;
      if (held && held.expiresAt > now && held.hostId !== input.hostId) return { ok: false, holder: held };
      const next: LeaseRecord = { ...input, epoch: (held?.epoch ?? 0) + 1, acquiredAt: now, expiresAt: now + ttlMs };
      this.sql(
        `INSERT INTO leases (account_id, host_id, epoch, os_major_version, capabilities, acquired_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (account_id) DO UPDATE SET host_id = excluded.host_id, epoch = excluded.epoch, os_major_version = excluded.os_major_version,
           capabilities = excluded.capabilities, acquired_at = excluded.acquired_at, expires_at = excluded.expires_at`,
      ).run(next.accountId, next.hostId, next.epoch, next.osMajorVersion, JSON.stringify(next.capabilities), now, next.expiresAt);
      return { ok: true, lease: next };
    });
  }

  renewLease(accountId: string, epoch: number, now: number, ttlMs: number): Promise<LeaseRecord | null> {
    return this.write(() => {
      this.forget();
      const changes = this.sql('UPDATE leases SET expires_at = ? WHERE account_id = ? AND epoch = ? AND expires_at > ?')
        .run(now + ttlMs, accountId, epoch, now).changes;
      if (Number(changes) === 0) return null;
      return lease(this.sql('SELECT * FROM leases WHERE account_id = ?').get(accountId)!);
    });
  }

  releaseLease(accountId: string, epoch: number, now: number): Promise<boolean> {
    return this.write(() => {
      this.forget();
      // Expire it rather than delete it: the row keeps the epoch counter for the next holder.
      const changes = this.sql('UPDATE leases SET expires_at = ? WHERE account_id = ? AND epoch = ? AND expires_at > ?')
        .run(now, accountId, epoch, now).changes;
      return Number(changes) > 0;
    });
  }

  liveLease(accountId: string, now: number): Promise<LeaseRecord | null> {
    return this.read(() => {
      const held = this.cached(this.cache.leases, accountId, () => {
        const row = this.query('SELECT * FROM leases WHERE account_id = ?').get(accountId);
        return row ? lease(row) : null;
      });
      return held && held.expiresAt > now ? held : null;
    });
  }

  listLeases(): Promise<LeaseRecord[]> {
    return this.read(() => this.query('SELECT * FROM leases ORDER BY account_id').all().map(lease));
  }

  // Attachments

  putAttachment(record: AttachmentRecord): Promise<void> {
    return this.write(() => {
      this.sql(
        `INSERT INTO attachments (id, account_id, file_name, mime_type, bytes, created_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (account_id, id) DO UPDATE SET file_name = excluded.file_name, mime_type = excluded.mime_type, bytes = excluded.bytes`,
      ).run(record.id, record.accountId, record.fileName, record.mimeType, record.bytes, record.createdAt);
    });
  }

  purgeAttachments(olderThan: number, limit: number): Promise<number> {
    return this.write(() => Number(this.sql(
      'DELETE FROM attachments WHERE rowid IN (SELECT rowid FROM attachments WHERE created_at < ? LIMIT ?)',
    ).run(olderThan, limit).changes));
  }

  getAttachment(accountId: string, id: string): Promise<AttachmentRecord | null> {
    return this.read(() => {
      const row = this.query('SELECT * FROM attachments WHERE account_id = ? AND id = ?').get(accountId, id);
      if (!row) return null;
      return {
        id: row.id as string,
        accountId: row.account_id as string,
        fileName: row.file_name as string,
        mimeType: row.mime_type as string,
        bytes: row.bytes as Uint8Array,
        createdAt: Number(row.created_at),
      };
    });
  }
}

function prepared(statements: Map<string, StatementSync>, db: DatabaseSync, text: string): StatementSync {
  let statement = statements.get(text);
  if (!statement) {
    statement = db.prepare(text);
    statements.set(text, statement);
  }
  return statement;
}

/** A new command as stored: queued, nothing settled. */
function queued(input: NewCommand): AcceptResult {
  return {
    disposition: 'queued',
    command: { ...input, status: 'queued', errorCode: null, errorMessage: null, errorPath: null, settledAt: null, dispatchEpoch: null },
  };
}

/** `items` in runs of the sizes in CHUNKS, as few as add up to them. */
function chunked<T>(items: readonly T[]): T[][] {
  const chunks: T[][] = [];
  for (let at = 0; at < items.length;) {
    const rows = CHUNKS.find((size) => size <= items.length - at)!;
    chunks.push(items.slice(at, (at += rows)));
  }
  return chunks;
}
