import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Clock } from './clock.ts';
import type { Store } from './store/types.ts';
import { StreamHub } from './stream/hub.ts';
import { DispatchWaiters } from './leases/dispatcher.ts';
import { SlidingWindowLimiter } from './ratelimit/sliding-window.ts';
import { createMetrics, type Metrics } from './metrics.ts';

/** What the HTTP layer and the domain modules share; built once per server. */
export interface Services {
  config: Config;
  store: Store;
  clock: Clock;
  log: Logger;
  hub: StreamHub;
  waiters: DispatchWaiters;
  limiter: SlidingWindowLimiter | null;
  metrics: Metrics;
}

export function createServices(config: Config, store: Store, clock: Clock, log: Logger): Services {
  const hub = new StreamHub();
  return {
    config,
    store,
    clock,
    log,
    hub,
    waiters: new DispatchWaiters(),
    limiter: config.rateLimit > 0 ? new SlidingWindowLimiter(config.rateLimit, config.rateLimitWindowMs) : null,
    metrics: createMetrics(() => hub.subscribers),
  };
}
