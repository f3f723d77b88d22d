import type { Logger } from 'pino';
import { createLog } from './log.ts';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { systemClock, type Clock } from './clock.ts';
import type { Store } from './store/types.ts';
import { openStore } from './store/open.ts';
import { hasChangeFeed } from './store/postgres/changes.ts';
import { createServices, type Services } from './services.ts';
import { buildApp } from './http/app.ts';
import { DeliveryWorker } from './webhooks/worker.ts';
import { createWebhookMetrics } from './webhooks/metrics.ts';
import { purgeExpired } from './retention.ts';
import { HOLD_RELEASE_INTERVAL_MS, releaseDueHolds } from './commands/holds.ts';

export interface RunningServer {
  url: string;
  app: FastifyInstance;
  services: Services;
  /** One round of the retention job, as its timer runs it (tests move the clock, then call it). */
  retention(): Promise<void>;
  /** One round of the job that releases quiet-hours holds whose window ended (tests move the clock, then call it). */
  releaseHolds(): Promise<void>;
  close(): Promise<void>;
}

export interface StartOptions {
  store?: Store;
  clock?: Clock;
  log?: Logger;
}

const HOUR = 3_600_000;

/** Opens the store, starts the HTTP server and the retention jobs. */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  // Asynchronous writes: a log line never blocks a request on the stdout pipe.
  const log = options.log ?? createLog(config.logLevel);
  const store = options.store ?? await openStore(config);
  const clock = options.clock ?? systemClock;
  const services = createServices(config, store, clock, log);
  const app = buildApp(services);
  // Changes committed by other replicas wake this one's streams and long-polls; after the
  // listening connection was lost, everyone is woken, since a change may have been missed.
  const stopRelay = hasChangeFeed(store)
    ? await store.listen((change) => {
      if (change.kind === 'events') services.hub.notify(change.accountId);
      else services.waiters.wake(change.accountId);
    }, () => {
      services.hub.notifyAll();
      services.waiters.wakeAll();
    })
    : null;
  const { webhooks } = store;
  const worker = new DeliveryWorker({
    store,
    webhooks,
    config: config.webhooks,
    retentionMs: config.eventRetentionMs,
    clock,
    log,
    hub: services.hub,
    ids: services.ids,
    metrics: createWebhookMetrics(services.metrics.registry, () => webhooks.backlogs(null)),
  });

  const retention = async () => {
    const now = clock.now();
    try {
      const purged = await purgeExpired(store, config, now);
      if (Object.values(purged).some((n) => n > 0)) log.info(purged, 'retention purge');
    } catch (error) {
      log.warn({ err: error }, 'retention purge failed; will retry');
    }
    try {
      await services.limiter?.sweep(now);
      await services.readLimiter?.sweep(now);
      await services.authFailures?.sweep(now);
    } catch (error) {
      log.warn({ err: error }, 'rate limit sweep failed; will retry');
    }
  };
  const timer = setInterval(retention, Math.min(HOUR, config.eventRetentionMs, config.attachmentRetentionMs));
  timer.unref();
  let releasing: Promise<void> | null = null;
  const releaseHolds = () => (releasing ??= releaseDueHolds(services)
    .catch((error: unknown) => log.warn({ err: error }, 'releasing held commands failed; will retry'))
    .finally(() => { releasing = null; }));
  const holdTimer = setInterval(releaseHolds, HOLD_RELEASE_INTERVAL_MS);
  holdTimer.unref();
  services.polls.start();

  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  worker.start();

  return {
    url,
    app,
    services,
    retention,
    releaseHolds,
    async close() {
      clearInterval(timer);
      clearInterval(holdTimer);
      await releasing;
      await services.polls.stop();
      await worker.stop();
      await stopRelay?.();
      await app.close();
      await store.close();
      log.flush();
    },
  };
}
