import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Clock } from './clock.ts';
import { createIdSource, type IdSource } from './ids.ts';
import type { Store } from './store/types.ts';
import { StreamHub } from './stream/hub.ts';
import { DispatchWaiters } from './leases/dispatcher.ts';
import { SlidingWindowLimiter } from './ratelimit/sliding-window.ts';
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
  /** The command endpoint's limit, per credential (the seed's 60 a minute). */
  limiter: SlidingWindowLimiter | null;
  /** The reads' limit, per credential. */
  readLimiter: SlidingWindowLimiter | null;
  /** Failed authentications, per client address. */
  authFailures: SlidingWindowLimiter | null;
  streamSlots: StreamSlots | null;
  metrics: Metrics;
}

export function createServices(config: Config, store: Store, clock: Clock, log: Logger): Services {
  const hub = new StreamHub();
  return {
    config,
    store,
    clock,
    ids: createIdSource(),
    log,
    hub,
    waiters: new DispatchWaiters(),
    limiter: config.rateLimit > 0 ? new SlidingWindowLimiter(config.rateLimit, config.rateLimitWindowMs) : null,
    readLimiter: config.readRateLimit > 0 ? new SlidingWindowLimiter(config.readRateLimit, config.rateLimitWindowMs) : null,
    authFailures: config.authFailureLimit > 0 ? new SlidingWindowLimiter(config.authFailureLimit, config.authFailureWindowMs) : null,
    streamSlots: config.maxStreamsPerCredential > 0 ? new StreamSlots(config.maxStreamsPerCredential) : null,
    metrics: createMetrics(() => hub.subscribers),
  };
}
