import { randomUUID } from 'node:crypto';
import type { Sql } from 'postgres';
import { CHANNEL } from './changes.ts';

/** A rate count is trusted only while this replica provably heard every arrival counted this long ago. */
export const STALENESS_BOUND_MS = 1_000;
/** How often the replica sends itself a ping through the database, to prove its listening connection alive. */
const PING_EVERY_MS = 200;
/** Entries kept, at most; the cache starts over past it. */
const MAX_ENTRIES = 10_000;

/**
 * Two things intake reads on every request, kept in memory.
 *
 * Rows (credential, account pause, lease, conversation), exactly: every write that changes one
 * bumps the one-row `cache_version` in its own transaction (a revocation, a pause, a lease taken
 * or ended, a conversation renamed or its members changed). A credential lookup, the first read
 * of every request, waits for a read of that version sent in its turn of the event loop (after
 * the request arrived), and drops every row when it moved; the reads that follow in the turn the
 * check came back (the rest of that request) use it. So a request sees every change committed
 * before it arrived, on any replica or by the operator CLI, as when reading the database, for
 * one small query per turn that handles new requests, shared by all of them.
 *
 * Rate counts (rate-limiter.ts), within a bound: every counted arrival is announced with NOTIFY,
 * and PostgreSQL delivers notifications in commit order. Each replica NOTIFYs itself a ping every
 * 200 ms; hearing its ping sent at `s` proves it heard every arrival counted before `s`. Counts
 * are used only while the newest ping heard was sent less than 1 s ago; otherwise the key is read.
 */
export class ReadCache {
  private readonly sql: Sql;
  /** Where the version checks go: intake's connection, pipelined with its accept batches. */
  private readonly checks: Sql;
  private readonly token = randomUUID();
  private readonly entries = new Map<string, unknown>();
  /** Rate limit keys: the newest arrival any replica counted (rate-limiter.ts). */
  private readonly counts = new Map<string, number>();
  /** Bumped whenever entries are dropped: a load that overlapped it does not store what it read. */
  private generation = 0;
  private version: number | null = null;
  /** The check sent in this turn of the event loop (cleared by setImmediate). */
  private turnCheck: Promise<void> | null = null;
  /** A check resolved in this turn of the event loop (cleared by setImmediate). */
  private checkedThisTurn = false;
  private heardPingSentAt = -Infinity;
  private started: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private unlisten: (() => Promise<void>) | null = null;
  private closed = false;

  constructor(sql: Sql, checks: Sql = sql) {
    this.sql = sql;
    this.checks = checks;
  }

  /**
   * Serves `key` from memory once the version is checked; otherwise loads it, and keeps it when it
   * is not null (only what exists is cached: a miss always reads, so a new row is seen at once).
   * `strict`: the check must be sent after this call (a request's first read); otherwise a check
   * resolved in this turn will do.
   */
  async get<T>(key: string, load: () => Promise<T | null>, options: { strict?: boolean; usable?: (value: T) => boolean } = {}): Promise<T | null> {
    let checked = true;
    if (options.strict || !this.checkedThisTurn) {
      // An unreachable database fails the load below, as it would without the cache.
      await this.check().catch(() => void (checked = false));
    }
    if (checked) {
      const hit = this.entries.get(key) as T | undefined;
      if (hit !== undefined && (options.usable?.(hit) ?? true)) return hit;
    }
    const generation = this.generation;
    const value = await load();
    if (value !== null && checked && generation === this.generation) this.set(key, value);
    return value;
  }

  /** Replaces an entry this replica just wrote (a renewed lease), after its COMMIT. */
  put(key: string, value: unknown): void {
    this.generation++;
    this.set(key, value);
  }

  /** Drops entries (a prefix) after a change committed here; other replicas see the version move. */
  forget(prefix: string): void {
    this.generation++;
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  /**
   * Resolves once a read of `cache_version` sent in this turn of the event loop came back: sent
   * after every request this turn handles had arrived, so after every write those requests'
   * clients saw resolve. Lookups of one turn share it; checks of successive turns overlap.
   */
  private check(): Promise<void> {
    if (this.turnCheck) return this.turnCheck;
    const check = this.checks`SELECT COALESCE(MAX(version), 0) AS version FROM cache_version`.then(([row]) => {
      this.observed(Number(row!.version));
    }, (error: unknown) => {
      this.entries.clear();
      this.generation++;
      this.version = null;
      throw error;
    });
    this.turnCheck = check;
    setImmediate(() => { if (this.turnCheck === check) this.turnCheck = null; });
    return check;
  }

  /**
   * A version read, by a check or beside another statement after this turn's requests had their
   * first check (a woken long-poll's dispatch): it serves as this turn's check. Rows read before it
   * moved are dropped; versions only grow, so an older read (sent earlier) changes nothing.
   */
  observed(version: number): void {
    if (this.version === null || version > this.version) {
      this.entries.clear();
      this.generation++;
      this.version = version;
    }
    if (!this.checkedThisTurn) {
      this.checkedThisTurn = true;
      setImmediate(() => { this.checkedThisTurn = false; });
    }
  }

  private set(key: string, value: unknown): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, value);
  }

  /** A rate limit arrival counted here or announced by another replica (`r:<time>:<key>`), for a key known already. */
  counted(key: string, at: number): void {
    const known = this.counts.get(key);
    if (known !== undefined && at > known) this.counts.set(key, at);
  }

  /**
   * The newest arrival counted for a rate limit key (-Infinity: none), as read from the database
   * and heard since; undefined when the key must be read (never read, or not trusted).
   */
  lastCounted(key: string): number | undefined {
    if (!this.trusted()) {
      this.start();
      return undefined;
    }
    return this.counts.get(key);
  }

  /** Taken before reading a rate limit key, handed to `learned` after. */
  ticket(): { generation: number; trusted: boolean } {
    return { generation: this.countsGeneration, trusted: this.trusted() };
  }

  /** What the database held for a key; kept if nothing could have been missed since the ticket. */
  learned(key: string, newest: number, ticket: { generation: number; trusted: boolean }): void {
    if (!ticket.trusted || ticket.generation !== this.countsGeneration) return;
    if (this.counts.size >= MAX_ENTRIES && !this.counts.has(key)) this.counts.clear();
    this.counts.set(key, Math.max(this.counts.get(key) ?? -Infinity, newest));
  }

  /** Bumped when the listening connection (re)connects: what was announced meanwhile is unknown. */
  private countsGeneration = 0;

  /** What a notification means to the rate counts: an arrival counted, or this replica's ping. */
  private heard(payload: string): void {
    if (payload.startsWith('p:')) {
      const [token, sentAt] = payload.slice(2).split(':');
      if (token === this.token) this.heardPingSentAt = Math.max(this.heardPingSentAt, Number(sentAt));
    } else if (payload.startsWith('r:')) {
      const rest = payload.slice(2);
      const colon = rest.indexOf(':');
      this.counted(rest.slice(colon + 1), Number(rest.slice(0, colon)));
    }
  }

  private trusted(): boolean {
    return !this.closed && performance.now() - this.heardPingSentAt < STALENESS_BOUND_MS;
  }

  /** Listens and pings, once, on first use: a store that never counts (the CLI) never listens. */
  private start(): void {
    if (this.started || this.closed) return;
    this.started = (async () => {
      const { unlisten } = await this.sql.listen(CHANNEL, (payload) => this.heard(payload), () => {
        this.counts.clear();
        this.countsGeneration++;
      });
      this.unlisten = unlisten;
      if (this.closed) return;
      this.timer = setInterval(() => void this.ping(), PING_EVERY_MS);
      this.timer.unref();
      await this.ping();
    })().catch(() => {
      // The database is away: counts are read from it (and fail there); the next use tries again.
      this.started = null;
    });
  }

  private async ping(): Promise<void> {
    await this.sql`SELECT pg_notify(${CHANNEL}, ${`p:${this.token}:${performance.now()}`})`.catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.started?.catch(() => undefined);
    await this.unlisten?.().catch(() => undefined);
  }
}

/**
 * The transaction changes a row intake caches: every replica drops its cached rows once it
 * commits. Always a transaction's last lock, so two of them never wait on each other.
 */
export async function cacheChanged(tx: Sql): Promise<void> {
  await tx`INSERT INTO cache_version (only_row, version) VALUES (true, 1) ON CONFLICT (only_row) DO UPDATE SET version = cache_version.version + 1`;
}
