import type { Sql } from 'postgres';
import type { RateDecision } from '../../ratelimit/sliding-window.ts';
import type { RateLimiter } from '../../ratelimit/limiter.ts';

/**
 * The sliding-log limit counted in the database, so 60 a minute holds however requests are
 * spread over replicas: one statement per request (switchboard_rate_take, migration 1).
 */
export class PostgresRateLimiter implements RateLimiter {
  readonly limit: number;
  readonly windowMs: number;
  private readonly sql: Sql;
  /** Keeps the limits apart in the one table: `commands`, `reads`, `auth`. */
  private readonly name: string;

  constructor(sql: Sql, name: string, limit: number, windowMs: number) {
    this.sql = sql;
    this.name = name;
    this.limit = limit;
    this.windowMs = windowMs;
  }

  async take(key: string, now: number): Promise<RateDecision> {
    const [row] = await this.sql`SELECT * FROM switchboard_rate_take(${`${this.name}:${key}`}, ${now}, ${this.windowMs}, ${this.limit})`;
    const oldest = row!.oldest === null ? now : Number(row!.oldest);
    return { allowed: row!.allowed as boolean, limit: this.limit, remaining: this.limit - Number(row!.counted), resetMs: oldest - (now - this.windowMs) };
  }

  async waitMs(key: string, now: number): Promise<number> {
    const start = now - this.windowMs;
    const [row] = await this.sql`SELECT cardinality(kept) AS counted, kept[1] AS oldest
      FROM (SELECT ARRAY(SELECT t FROM unnest(times) AS t WHERE t > ${start} ORDER BY t) AS kept FROM rate_windows WHERE key = ${`${this.name}:${key}`}) w`;
    if (!row || Number(row.counted) < this.limit) return 0;
    return Number(row.oldest) - start;
  }

  async sweep(now: number): Promise<void> {
    await this.sql`DELETE FROM rate_windows WHERE key LIKE ${`${this.name}:%`} AND COALESCE(times[cardinality(times)], 0) <= ${now - this.windowMs}`;
  }
}
