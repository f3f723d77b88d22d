import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Adds one to a counter's series for these label values, in the counter's label order. */
export type Count = (...values: Array<string | number>) => void;

export interface Metrics {
  registry: Registry;
  requests: Counter<'method' | 'route' | 'status' | 'code'>;
  /** `requests` by method, route, status, code. */
  countRequest: Count;
  commands: Counter<'type' | 'routing_path' | 'disposition'>;
  /** `commands` by type, routing path, disposition. */
  countCommand: Count;
  settlements: Counter<'type' | 'routing_path' | 'status' | 'error_code'>;
  settleLatency: Histogram<'routing_path'>;
  streamSubscribers: Gauge;
}

/**
 * The counter's child per label values, kept: prom-client hashes a label object (its keys
 * sorted) on every `inc`, and a request counts twice. The series are few (routes, statuses,
 * codes), so the map stays small.
 */
function bound<L extends string>(counter: Counter<L>): Count {
  const children = new Map<string, Counter.Internal>();
  return (...values) => {
    const key = values.join('\u0000');
    let child = children.get(key);
    if (!child) {
      child = counter.labels(...values.map(String));
      children.set(key, child);
    }
    child.inc();
  };
}

/** Prometheus metrics, served at GET /metrics. Names follow the seed's words. */
export function createMetrics(subscribers: () => number): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'switchboard_' });
  const requests = new Counter({
    name: 'switchboard_http_requests_total',
    help: 'HTTP requests by route, status and error code ("" when none).',
    labelNames: ['method', 'route', 'status', 'code'] as const,
    registers: [registry],
  });
  const commands = new Counter({
    name: 'switchboard_commands_accepted_total',
    help: 'Commands acknowledged with 202, by type, routing path and disposition.',
    labelNames: ['type', 'routing_path', 'disposition'] as const,
    registers: [registry],
  });
  return {
    registry,
    requests,
    countRequest: bound(requests),
    commands,
    countCommand: bound(commands),
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
