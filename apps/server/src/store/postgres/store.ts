import type { Sql } from 'postgres';
import type { Store } from '../types.ts';
import type { SharedRateLimits } from '../../ratelimit/limiter.ts';
import { migrate } from './migrate.ts';
import { connect, databaseTarget, openFailure } from './connect.ts';
import { CHANNEL, type ChangeFeed, parseChange } from './changes.ts';
import { PostgresRateLimiter } from './rate-limiter.ts';
import { PostgresDb } from './transaction.ts';
import { accounts } from './accounts.ts';
import { conversations } from './conversations.ts';
import { commands } from './commands.ts';
import { events } from './events.ts';
import { leases } from './leases.ts';
import { attachments } from './attachments.ts';
import { admin } from './admin.ts';
import { holds } from './holds.ts';
import { transfers } from './transfers.ts';
import { PostgresWebhookStore } from './webhooks.ts';

export interface PostgresOptions {
  url: string;
  /** Connections in the pool, at most. */
  poolMax?: number;
  /** A statement running longer is cancelled and its transaction rolled back. */
  statementTimeoutMs?: number;
  /** Apply pending migrations at start-up (under an advisory lock) or refuse to start. */
  migrate?: boolean;
}

/**
 * The PostgreSQL store, for one or many server replicas on one database. Every write is one
 * transaction at READ COMMITTED and resolves after COMMIT; reads see only committed rows. Where
 * replicas race, PostgreSQL decides: unique keys (idempotency, conversations, platform records),
 * row locks (a command settles once; the lease row fences dispatch and settlement), SKIP LOCKED
 * (concurrent polls never hand out one command twice), and the account's event counter row
 * (stream ids commit in id order). Committed changes are announced with NOTIFY (changes.ts), and
 * rate limits are counted in the database, across replicas (rate-limiter.ts).
 */
export interface PostgresStore extends Store, ChangeFeed, SharedRateLimits {
  readonly sql: Sql;
}

export async function openPostgresStore(options: PostgresOptions): Promise<PostgresStore> {
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
  const db = new PostgresDb(sql, max > 1 ? open(1) : sql);
  return {
    sql,
    close: () => db.close(),
    flushed: () => db.flushed(),
    webhooks: new PostgresWebhookStore(db),
    async listen(listener, onReconnect) {
      db.own.listen((payload) => {
        const change = parseChange(payload);
        if (change?.kind === 'events') db.recent.forget(change.accountId);
        if (change) listener(change);
      });
      const { unlisten } = await sql.listen(CHANNEL, (payload) => db.own.heard(payload), () => {
        db.own.reset();
        db.recent.clear();
        onReconnect();
      });
      db.following = true;
      return unlisten;
    },
    rateLimiter: (name, limit, windowMs) => new PostgresRateLimiter(sql, db.cache, name, limit, windowMs),
    ...accounts(db), ...conversations(db), ...commands(db), ...events(db), ...leases(db), ...attachments(db), ...admin(db), ...holds(db), ...transfers(db),
  };
}
