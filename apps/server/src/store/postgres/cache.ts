import { randomUUID } from 'node:crypto';
import type { Sql } from 'postgres';
import { CHANNEL } from './changes.ts';

/** A cached read is served only while this replica provably heard every change committed this long ago. */
export const STALENESS_BOUND_MS = 1_000;
/** How often the replica sends itself a ping through the database, to prove its listening connection alive. */
const PING_EVERY_MS = 200;
/** Entries kept, at most; the cache starts over past it. */
const MAX_ENTRIES = 10_000;

/**
 * The rows every command's intake reads (credential, account pause, lease, conversation), kept in
 * memory so a command costs no reads. What changes them announces it with NOTIFY in its own
 * transaction (`k:` a credential revoked, `a:` a pause, `l:` a lease, `v:` a conversation), and
 * every replica drops the entries on hearing it; the writing replica drops them itself at COMMIT.
 *
 * The bound: PostgreSQL delivers notifications in commit order, and each replica NOTIFYs itself a
 * ping every 200 ms. Hearing its ping sent at `s` proves it heard every change committed before
 * `s`. Entries are served only while the newest ping heard was sent less than 1 s ago, so a change
 * (a revoked credential, a pause, a lost lease) is honoured at most 1 s after it committed even
 * when the listening connection silently stalls; normally for as long as a NOTIFY takes, about a
 * millisecond. Past the bound, and until the first ping returns, reads go to the database.
 * Only what exists is cached: a miss always reads, so a new row is seen at once.
 */
export class ReadCache {
  private readonly sql: Sql;
  private readonly token = randomUUID();
  private readonly entries = new Map<string, unknown>();
  /** Rate limit keys: the newest arrival any replica counted (rate-limiter.ts). */
  private readonly counts = new Map<string, number>();
  /** Bumped by every invalidation: a load that overlapped one does not store what it read. */
  private generation = 0;
  private heardPingSentAt = -Infinity;
  private started: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private unlisten: (() => Promise<void>) | null = null;
  private closed = false;

  constructor(sql: Sql) {
    this.sql = sql;
  }

  /** Serves `key` from memory when trusted; otherwise loads it, and keeps it when it is not null. */
  async get<T>(key: string, load: () => Promise<T | null>, usable: (value: T) => boolean = () => true): Promise<T | null> {
    const trusted = this.trusted();
    if (trusted) {
      const hit = this.entries.get(key) as T | undefined;
      if (hit !== undefined && usable(hit)) return hit;
    } else {
      this.start();
    }
    const generation = this.generation;
    const value = await load();
    if (value !== null && trusted && generation === this.generation) this.set(key, value);
    return value;
  }

  /** Replaces an entry this replica just wrote (a renewed lease), after its COMMIT. */
  put(key: string, value: unknown): void {
    this.generation++;
    if (this.trusted()) this.set(key, value);
  }

  /** Drops entries (a prefix, or one key) after a change committed here or was heard from another replica. */
  forget(prefix: string): void {
    this.generation++;
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  /** A rate limit arrival counted here or announced by another replica (`r:<time>:<key>`), for a key known already. */
  counted(key: string, at: number): void {
    const known = this.counts.get(key);
    if (known !== undefined && at > known) this.counts.set(key, at);
  }

  /**
   * The newest arrival counted for a rate limit key (-Infinity: none), as read from the database
   * and heard since; undefined when the key must be read (never read, or the cache not trusted).
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
    return { generation: this.generation, trusted: this.trusted() };
  }

  /** What the database held for a key; kept if nothing could have been missed since the ticket. */
  learned(key: string, newest: number, ticket: { generation: number; trusted: boolean }): void {
    if (!ticket.trusted || ticket.generation !== this.generation) return;
    if (this.counts.size >= MAX_ENTRIES && !this.counts.has(key)) this.counts.clear();
    this.counts.set(key, Math.max(this.counts.get(key) ?? -Infinity, newest));
  }

  /** What a change announced with NOTIFY means to the cache. */
  heard(payload: string): void {
    const tag = payload.slice(0, 2);
    const rest = payload.slice(2);
    if (tag === 'p:') {
      const [token, sentAt] = rest.split(':');
      if (token === this.token) this.heardPingSentAt = Math.max(this.heardPingSentAt, Number(sentAt));
    } else if (tag === 'k:') this.forget('credential:');
    else if (tag === 'a:') this.forget(rest === '' ? 'paused:' : `paused:${rest}`);
    else if (tag === 'l:') this.forget(`lease:${rest}`);
    else if (tag === 'v:') this.forget(`conversation:${rest}:`);
    else if (tag === 'r:') {
      const colon = rest.indexOf(':');
      this.counted(rest.slice(colon + 1), Number(rest.slice(0, colon)));
    }
  }

  private trusted(): boolean {
    return !this.closed && performance.now() - this.heardPingSentAt < STALENESS_BOUND_MS;
  }

  private set(key: string, value: unknown): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, value);
  }

  /** Listens and pings, once, on first use: a store that never serves intake (the CLI) never listens. */
  private start(): void {
    if (this.started || this.closed) return;
    this.started = (async () => {
      const { unlisten } = await this.sql.listen(CHANNEL, (payload) => this.heard(payload), () => {
        // (Re)connected: whatever was announced meanwhile is unknown.
        this.entries.clear();
        this.counts.clear();
        this.generation++;
      });
      this.unlisten = unlisten;
      if (this.closed) return;
      this.timer = setInterval(() => void this.ping(), PING_EVERY_MS);
      this.timer.unref();
      await this.ping();
    })().catch(() => {
      // The database is away: reads go to it (and fail there); the next use tries again.
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
