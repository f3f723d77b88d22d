import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  registry: Registry;
  requests: Counter<'method' | 'route' | 'status' | 'code'>;
  commands: Counter<'type' | 'routing_path' | 'disposition'>;
  settlements: Counter<'type' | 'routing_path' | 'status' | 'error_code'>;
  settleLatency: Histogram<'routing_path'>;
  streamSubscribers: Gauge;
}

/** Prometheus metrics, served at GET /metrics. Names follow the seed's words. */
export function createMetrics(subscribers: () => number): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'switchboard_' });
  return {
    registry,
    requests: new Counter({
      name: 'switchboard_http_requests_total',
      help: 'HTTP requests by route, status and error code ("" when none).',
      labelNames: ['method', 'route', 'status', 'code'],
      registers: [registry],
    }),
    commands: new Counter({
      name: 'switchboard_commands_accepted_total',
      help: 'Commands acknowledged with 202, by type, routing path and disposition.',
      labelNames: ['type', 'routing_path', 'disposition'],
      registers: [registry],
    }),
    settlements: new Counter({
      name: 'switchboard_commands_settled_total',
      help: 'Commands settled, by type, routing path, status and settlement code.',
      labelNames: ['type', 'routing_path', 'status', 'error_code'],
      registers: [registry],
    }),
    settleLatency: new Histogram({
      name: 'switchboard_command_settle_seconds',
      help: 'From acceptance to settlement.',
      labelNames: ['routing_path'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [registry],
    }),
    streamSubscribers: new Gauge({
      name: 'switchboard_stream_subscribers',
      help: 'Open response-stream connections.',
      registers: [registry],
      collect() {
        this.set(subscribers());
      },
    }),
  };
}
