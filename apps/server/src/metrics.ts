import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** A counter bumped on every request: `inc` only, summed until the counter is read. */
export interface Tally<L extends string> {
  inc(labels: Record<L, string | number>): void;
}

export interface Metrics {
  registry: Registry;
  requests: Tally<'method' | 'route' | 'status' | 'code'>;
  commands: Tally<'type' | 'routing_path' | 'disposition'>;
  settlements: Counter<'type' | 'routing_path' | 'status' | 'error_code'>;
  settleLatency: Histogram<'routing_path'>;
  linePolicies: Counter<'policy' | 'outcome'>;
  streamSubscribers: Gauge;
}

/**
 * A prom-client counter for the hot path: each increment adds to a plain count under its label
 * values, and the counts go to prom-client when the registry is read. prom-client checks and
 * hashes the labels on every `inc`; the two counters of an accepted command cost 7 % of its CPU.
 * The counts are found through a map per label, value by value: a key joined from the values
 * was four strings made a call (0.23 µs, against 0.06).
 */
function tally<L extends string>(config: { name: string; help: string; labelNames: readonly L[]; registers: Registry[] }): Tally<L> {
  type Entry = { labels: Record<L, string | number>; count: number };
  const entries: Entry[] = [];
  const root = new Map<unknown, unknown>();
  const counter: Counter<L> = new Counter<L>({
    ...config,
    collect() {
      for (const entry of entries) {
        if (entry.count === 0) continue;
        counter.inc(entry.labels, entry.count);
        entry.count = 0;
      }
    },
  });
  const names = config.labelNames;
  const last = names.length - 1;
  return {
    inc(labels) {
      let node = root;
      for (let i = 0; i < last; i++) {
        const value = labels[names[i]!];
        let next = node.get(value) as Map<unknown, unknown> | undefined;
        if (next === undefined) node.set(value, (next = new Map()));
        node = next;
      }
      const value = labels[names[last]!];
      const entry = node.get(value) as Entry | undefined;
      if (entry) entry.count++;
      else {
        const added = { labels, count: 1 };
        entries.push(added);
        node.set(value, added);
      }
    },
  };
}

/** Prometheus metrics, served at GET /metrics. Names follow the seed's words. */
export function createMetrics(subscribers: () => number): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'switchboard_' });
  return {
    registry,
    requests: tally({
      name: 'switchboard_http_requests_total',
      help: 'HTTP requests by route, status and error code ("" when none).',
      labelNames: ['method', 'route', 'status', 'code'],
      registers: [registry],
    }),
    commands: tally({
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
    linePolicies: new Counter({
      name: 'switchboard_line_policy_total',
      help: 'What the line policies did, by policy and outcome (refused, held, released, rejected), on this replica.',
      labelNames: ['policy', 'outcome'],
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
