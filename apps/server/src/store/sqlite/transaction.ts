import { join } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { openWal } from '@switchboard/sqlite';
import { StoreError, type AcceptResult, type NewCommand } from '../types.ts';
import { insertDeferred, type Group } from './accept.ts';
import { ReadCache } from './cache.ts';
import { migrate } from './migrate.ts';

export interface SqliteOptions {
  /** Directory holding `switchboard.db`. */
  dataDir: string;
  busyTimeoutMs?: number;
}

/**
 * The embedded store's two connections and its group commit. Durability: WAL with
 * `synchronous = FULL`, so a committed transaction survives power loss. Group commit: every
 * write issued in one event-loop turn shares one transaction and one fsync, and each write's
 * promise resolves only after that COMMIT. A failed COMMIT rolls the whole group back and rejects
 * every write in it, so nothing is half-written. Reads go through a second, read-only connection,
 * which WAL shows only committed (and, with `synchronous = FULL`, already synced) transactions:
 * never a group still open on the writer.
 *
 * Unsynced writes (webhook delivery bookkeeping) commit in groups of their own with
 * `synchronous = NORMAL`: no fsync, so such a commit survives the process being killed (it is in
 * the OS's hands) but not a power loss or OS crash, until the next synced commit or checkpoint
 * syncs the WAL. WAL recovery keeps a prefix of the commits, so what a power loss can take back is
 * only unsynced commits made after the last synced one.
 */
export class SqliteDb {
  readonly writer: DatabaseSync;
  private readonly reader: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  private readonly queries = new Map<string, StatementSync>();
  private group: Group | null = null;
  /** The connection's `synchronous` setting: FULL (true) or NORMAL; SQLite takes it only between transactions. */
  private synced = true;
  readonly cache: ReadCache;

  constructor(options: SqliteOptions) {
    const file = join(options.dataDir, 'switchboard.db');
    // The operator CLI opens the same file, and may open a new one as the server does.
    this.writer = openWal(file, options.busyTimeoutMs ?? 5000);
    this.writer.exec('PRAGMA synchronous = FULL');
    this.writer.exec('PRAGMA foreign_keys = ON');
    migrate(this.writer);
    this.reader = new DatabaseSync(file, { readOnly: true });
    this.reader.exec(`PRAGMA busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    this.cache = new ReadCache(() => (this.sql('PRAGMA data_version').get() as { data_version: number }).data_version);
  }

  /** A statement on the writer: only inside `write`. */
  sql(text: string): StatementSync {
    return prepared(this.statements, this.writer, text);
  }

  /** A statement on the reader: sees only committed transactions. */
  query(text: string): StatementSync {
    return prepared(this.queries, this.reader, text);
  }

  /**
   * Runs `fn` inside this turn's transaction; resolves with its result once the transaction commits.
   * `synced: false` writes may share an unsynced (NORMAL) group; a synced write never does: it
   * commits an open unsynced group first (no fsync, so nothing waits) and starts a synced one.
   * An unsynced write joining a synced group is simply synced too.
   */
  write<T>(fn: () => T, synced = true): Promise<T> {
    const group = this.openGroup(synced);
    if (group instanceof Error) return Promise.reject(group);
    // The commands accepted before this write go in first, so it sees them (a dispatch hands
    // them out in the order they were accepted).
    if (group.deferred.length > 0 && !insertDeferred(this.writer, (text) => this.sql(text), group)) {
      this.group = null;
      return Promise.reject(new StoreError('the transaction was rolled back'));
    }
    let result: T;
    const changes = this.cache.savepoint();
    this.sql('SAVEPOINT w').run();
    try {
      result = fn();
      this.sql('RELEASE w').run();
    } catch (error) {
      // Some failures (a full disk, an I/O error) roll the whole transaction back: the group is lost.
      if (!this.writer.isTransaction) this.lose(group, error);
      else {
        this.sql('ROLLBACK TO w').run();
        this.sql('RELEASE w').run();
        this.cache.rolledBackTo(changes);
      }
      return Promise.reject(error);
    }
    return new Promise<T>((resolve, reject) => group.waiters.push({ resolve: () => resolve(result), reject }));
  }

  /** A command without a key, inserted with its group's others (accept.ts). */
  defer(input: NewCommand): Promise<AcceptResult> {
    const group = this.openGroup(true);
    if (group instanceof Error) return Promise.reject(group);
    return new Promise((resolve, reject) => group.deferred.push({ input, resolve, reject }));
  }

  /** Reads run on the reader connection (`query`), which shows only what is durable, never the open group. */
  async read<T>(fn: () => T): Promise<T> {
    return fn();
  }

  async flushed(): Promise<void> {
    if (this.group) await this.group.committed;
  }

  async close(): Promise<void> {
    await this.flushed();
    this.reader.close();
    this.writer.close();
  }

  /** The turn's open group, begun if there is none (see `write` for `synced`), or why none could begin. */
  private openGroup(synced: boolean): Group | StoreError {
    if (this.group && synced && !this.group.synced) this.commit(this.group);
    if (!this.group) {
      try {
        if (this.synced !== synced) {
          this.writer.exec(`PRAGMA synchronous = ${synced ? 'FULL' : 'NORMAL'}`);
          this.synced = synced;
        }
        this.writer.exec('BEGIN IMMEDIATE');
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
    this.cache.groupEnded(false);
    const failure = new StoreError('the transaction was rolled back', { cause });
    for (const waiter of group.waiters) waiter.reject(failure);
    for (const item of group.deferred.splice(0)) item.reject(failure);
  }

  /** Commits `group` if it is still the open one (a synced write may have committed it early). */
  private commit(group: Group): void {
    if (this.group !== group) return;
    const open = group.deferred.length === 0 || insertDeferred(this.writer, (text) => this.sql(text), group);
    this.group = null;
    let committed = false;
    try {
      if (!open) return;
      this.writer.exec('COMMIT');
      committed = true;
    } catch (error) {
      try { this.writer.exec('ROLLBACK'); } catch { /* the failed COMMIT may already have rolled back */ }
      const failure = new StoreError('could not commit', { cause: error });
      for (const waiter of group.waiters) waiter.reject(failure);
      return;
    } finally {
      this.cache.groupEnded(committed);
    }
    for (const waiter of group.waiters) waiter.resolve();
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
