import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

export interface WebhookMetrics {
  deliveries: Counter<'outcome'>;
  attemptSeconds: Histogram<'outcome'>;
}

/** Webhook figures, served with the rest at GET /metrics. */
export function createWebhookMetrics(registry: Registry, backlogs: () => Promise<Map<string, number>>): WebhookMetrics {
  new Gauge({
    name: 'switchboard_webhook_backlog_events',
    help: 'Stream events after each webhook endpoint\'s cursor, before its filter.',
    labelNames: ['endpoint'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const [endpoint, backlog] of await backlogs()) this.set({ endpoint }, backlog);
    },
  });
  return {
    deliveries: new Counter({
      name: 'switchboard_webhook_attempts_total',
      help: 'Webhook delivery attempts by outcome: delivered, failed (a non-2xx status), timeout, refused (SSRF rules), error (no response).',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    attemptSeconds: new Histogram({
      name: 'switchboard_webhook_attempt_seconds',
      help: 'From the start of an attempt to its answer (or failure).',
      labelNames: ['outcome'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
  };
}
