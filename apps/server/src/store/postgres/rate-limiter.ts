import type { Sql } from 'postgres';
import type { RateDecision } from '../../ratelimit/sliding-window.ts';
import type { RateLimiter } from '../../ratelimit/limiter.ts';
import { CHANNEL } from './changes.ts';
import type { ReadCache } from './cache.ts';

/**
 * The sliding-log limit counted in the database, so 60 a minute holds however requests are
 * spread over replicas: one statement per request (switchboard_rate_take, migration 1). Each
 * counted arrival is announced (`r:<time>:<key>`), so `waitMs`, asked on every request of the
 * public API (failed authentications per address), reads the database only for a key counted
 * within the window; a key nobody counted lately waits 0 without a round trip (within the read
 * cache's bound, cache.ts).
 */
export class PostgresRateLimiter implements RateLimiter {
  readonly limit: number;
  readonly windowMs: number;
  private readonly sql: Sql;
  /** Keeps the limits apart in the one table: `commands`, `reads`, `auth`. */
  private readonly name: string;
  private readonly cache: ReadCache;

  constructor(sql: Sql, cache: ReadCache, name: string, limit: number, windowMs: number) {
    this.sql = sql;
    this.cache = cache;
    this.name = name;
    this.limit = limit;
    this.windowMs = windowMs;
  }

  async take(key: string, now: number): Promise<RateDecision> {
    const name = `${this.name}:${key}`;
    const [row] = await this.sql`SELECT r.*, (SELECT count(*) FROM (SELECT pg_notify(${CHANNEL}, ${`r:${now}:${name}`}) WHERE r.allowed) n) AS announced
      FROM switchboard_rate_take(${name}, ${now}, ${this.windowMs}, ${this.limit}) r`;
    if (row!.allowed) this.cache.counted(name, now);
    const oldest = row!.oldest === null ? now : Number(row!.oldest);
    return { allowed: row!.allowed as boolean, limit: this.limit, remaining: this.limit - Number(row!.counted), resetMs: oldest - (now - this.windowMs) };
  }

  async waitMs(key: string, now: number): Promise<number> {
    const start = now - this.windowMs;
    const name = `${this.name}:${key}`;
    const counted = this.cache.lastCounted(name);
    if (counted !== undefined && counted <= start) return 0;
    const ticket = this.cache.ticket();
    const [row] = await this.sql`SELECT cardinality(kept) AS counted, kept[1] AS oldest, newest
      FROM (SELECT ARRAY(SELECT t FROM unnest(times) AS t WHERE t > ${start} ORDER BY t) AS kept, (SELECT max(t) FROM unnest(times) AS t) AS newest
        FROM rate_windows WHERE key = ${name}) w`;
    // Every arrival after this read is announced: the key is known from here on.
    this.cache.learned(name, row?.newest == null ? -Infinity : Number(row.newest), ticket);
    if (!row || Number(row.counted) < this.limit) return 0;
    return Number(row.oldest) - start;
  }

  async sweep(now: number): Promise<void> {
    await this.sql`DELETE FROM rate_windows WHERE key LIKE ${`${this.name}:%`} AND COALESCE(times[cardinality(times)], 0) <= ${now - this.windowMs}`;
  }
}
