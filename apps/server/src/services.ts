import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Clock } from './clock.ts';
import { createIdSource, type IdSource } from './ids.ts';
import type { Store } from './store/types.ts';
import { StreamHub } from './stream/hub.ts';
import { DispatchWaiters } from './leases/dispatch-waiters.ts';
import { OpenPolls } from './leases/open-polls.ts';
import { SlidingWindowLimiter } from './ratelimit/sliding-window.ts';
import { hasSharedRateLimits, type RateLimiter } from './ratelimit/limiter.ts';
import { StreamSlots } from './stream/slots.ts';
import { createMetrics, type Metrics } from './metrics.ts';

/** What the HTTP layer and the domain modules share; built once per server. Domain functions take the parts they use. */
export interface Services {
  config: Config;
  store: Store;
  clock: Clock;
  ids: IdSource;
  log: Logger;
  hub: StreamHub;
  waiters: DispatchWaiters;
  /** The dispatch polls waiting here, whose leases the server keeps live. */
  polls: OpenPolls;
  /** The command endpoint's limit, per credential (the seed's 60 a minute). */
  limiter: RateLimiter | null;
  /** The reads' limit, per credential. */
  readLimiter: RateLimiter | null;
  /** Failed authentications, per client address. */
  authFailures: RateLimiter | null;
  streamSlots: StreamSlots | null;
  metrics: Metrics;
}

export function createServices(config: Config, store: Store, clock: Clock, log: Logger): Services {
  const hub = new StreamHub();
  // Replicas on one PostgreSQL database count their limits there; one embedded server, in memory.
  const limit = (name: string, max: number, windowMs: number): RateLimiter | null =>
    max <= 0 ? null : hasSharedRateLimits(store) ? store.rateLimiter(name, max, windowMs) : new SlidingWindowLimiter(max, windowMs);
  return {
    config,
    store,
    clock,
    ids: createIdSource(),
    log,
    hub,
    waiters: new DispatchWaiters(),
    polls: new OpenPolls({ store, clock, log, ttlMs: config.leaseTtlMs }),
    limiter: limit('commands', config.rateLimit, config.rateLimitWindowMs),
    readLimiter: limit('reads', config.readRateLimit, config.rateLimitWindowMs),
    authFailures: limit('auth', config.authFailureLimit, config.authFailureWindowMs),
    streamSlots: config.maxStreamsPerCredential > 0 ? new StreamSlots(config.maxStreamsPerCredential) : null,
    metrics: createMetrics(() => hub.subscribers),
  };
}
