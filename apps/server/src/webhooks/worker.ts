import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';
import { iso } from '../clock.ts';
import type { EventRecord, Store } from '../store/types.ts';
import type { AttemptOutcome, WebhookClaim, WebhookEndpointRecord, WebhookStore } from '../store/webhooks.ts';
import type { StreamHub } from '../stream/hub.ts';
import type { WebhookConfig } from './config.ts';
import type { WebhookMetrics } from './metrics.ts';
import { backoffMs, retryAfterMs } from './schedule.ts';
import { deliverEvent, type SendResult } from './send.ts';
import type { Resolver } from './address.ts';
import { Connections } from './connections.ts';
import type { IdSource } from '../ids.ts';

export interface WorkerDeps {
  store: Store;
  webhooks: WebhookStore;
  config: WebhookConfig;
  /** Delivery log rows older than this are purged (the stream's own retention). */
  retentionMs: number;
  clock: Clock;
  log: Logger;
  hub: StreamHub;
  ids: IdSource;
  metrics: WebhookMetrics;
  random?: () => number;
  resolve?: Resolver;
}

const PAGE = 100;
const HOUR = 3_600_000;
/** A waiting endpoint is let go this long before its claim would lapse, leaving time to renew it. */
const LINGER_MARGIN = 250;

/** Whether `event` goes to `endpoint`: its filter, except that a webhook.test goes only to the endpoint it names. */
export function wanted(endpoint: WebhookEndpointRecord, event: EventRecord): boolean {
  if (event.type === 'webhook.test') return (event.data as { endpointId?: unknown }).endpointId === endpoint.id;
  return endpoint.eventTypes === null || endpoint.eventTypes.includes(event.type);
}

function outcomeLabel(result: SendResult): string {
  if (result.status !== null) return result.status >= 200 && result.status < 300 ? 'delivered' : 'failed';
  if (result.error === 'timeout') return 'timeout';
  return result.error.startsWith('address_refused') ? 'refused' : 'error';
}

/**
 * Delivers the stream to webhook endpoints. Woken by every commit (the hub) and by a poll (other
 * replicas' commits, retries coming due); claims due endpoints and, per endpoint, delivers one
 * event at a time in stream order, moving the endpoint's cursor only on a 2xx. An endpoint whose
 * backlog empties stays claimed for `lingerMs`, so its next event goes out on the commit signal
 * without a new claim (it does not count against `concurrency` while it waits).
 */
export class DeliveryWorker {
  private readonly deps: WorkerDeps;
  private readonly owner: string;
  private readonly running = new Set<Promise<void>>();
  /** Ends the wait of each endpoint waiting for its next event (false: stop waiting and release). */
  private readonly lingering = new Set<(woke: boolean) => void>();
  private readonly connections = new Connections();
  /** Per account, the deliveries under way to its endpoints, told of each commit. */
  private readonly listeners = new Map<string, Set<() => void>>();
  private ticking = false;
  private again = false;
  private stopping = false;
  private poll: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryAt = Infinity;
  private unsubscribe: (() => void) | undefined;
  private lastPurge = 0;

  constructor(deps: WorkerDeps) {
    this.deps = deps;
    this.owner = `worker-${deps.ids.next()}`;
  }

  start(): void {
    this.unsubscribe = this.deps.hub.subscribeAll((accountId) => {
      const told = accountId === null ? [...this.listeners.values()] : [this.listeners.get(accountId) ?? []];
      for (const set of told) for (const listener of [...set]) listener();
      this.wake();
    });
    this.poll = setInterval(() => {
      this.wake();
      void this.purge();
    }, this.deps.config.pollMs);
    this.poll.unref();
    this.wake();
  }

  /** Stops claiming and waits for the attempts under way (each ends within the attempt timeout). */
  async stop(): Promise<void> {
    this.stopping = true;
    this.unsubscribe?.();
    clearInterval(this.poll);
    clearTimeout(this.retryTimer);
    for (const end of [...this.lingering]) end(false);
    while (this.ticking || this.running.size > 0) await Promise.allSettled([...this.running, new Promise((r) => setImmediate(r))]);
    this.connections.close();
  }

  /** Deliveries making attempts (not waiting for their next event). */
  private get active(): number {
    return this.running.size - this.lingering.size;
  }

  wake(): void {
    if (this.stopping) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    void this.tick();
  }

  private async tick(): Promise<void> {
    this.ticking = true;
    try {
      do {
        this.again = false;
        const free = this.deps.config.concurrency - this.active;
        if (free <= 0 || this.stopping) break;
        const { config, clock } = this.deps;
        const claims = await this.deps.webhooks.claimDue(this.owner, clock.now(), config.claimTtlMs, free);
        for (const claim of claims) {
          const run: Promise<void> = this.deliverTo(claim)
            .catch((error: unknown) => this.deps.log.warn({ err: error, endpointId: claim.endpoint.id }, 'webhook delivery failed; will retry'))
            .finally(() => {
              this.running.delete(run);
              this.wake();
            });
          this.running.add(run);
        }
      } while (this.again);
    } catch (error) {
      this.deps.log.warn({ err: error }, 'could not claim webhook deliveries; will retry');
    } finally {
      this.ticking = false;
    }
  }

  /**
   * Delivers to one claimed endpoint until its backlog is empty and no event came within the
   * linger, an attempt fails, or the claim is lost.
   */
  private async deliverTo(claim: WebhookClaim): Promise<void> {
    const { webhooks, store, clock, config } = this.deps;
    const { token } = claim;
    let endpoint: WebhookEndpointRecord = claim.endpoint;
    let claimedUntil = clock.now() + config.claimTtlMs;
    let page: EventRecord[] = [];
    /** The cursor `page` was read after: a replay to before it makes the page useless. */
    let pageAfter = endpoint.cursor;
    /** Events may follow `page`: it was full, or a commit was heard since it was read. */
    let more = true;
    let wakeUp: (() => void) | undefined;
    const unsubscribe = this.listen(endpoint.accountId, () => {
      more = true;
      wakeUp?.();
    });
    let release = true;
    try {
      while (!this.stopping && endpoint.enabled) {
        // The page read last time serves while the cursor moves through it; each recorded attempt
        // returns the endpoint as stored, so a PATCH, rotation or replay is seen at the next event.
        if (endpoint.cursor < pageAfter) more = true;
        page = endpoint.cursor >= pageAfter ? page.filter((event) => event.id > endpoint.cursor) : [];
        if (page.length === 0 && more) {
          more = false;
          pageAfter = endpoint.cursor;
          page = await store.readEvents(endpoint.accountId, pageAfter, PAGE);
          more ||= page.length === PAGE;
        }
        if (page.length === 0) {
          if (!more) {
            if (!(await this.linger(Math.min(clock.now() + config.lingerMs, claimedUntil - LINGER_MARGIN), (wake) => (wakeUp = wake)))) return;
            wakeUp = undefined;
          }
          // Woken by a commit: the endpoint as stored now (a PATCH or replay while it waited), read
          // beside its next events.
          more = false;
          pageAfter = endpoint.cursor;
          const [stored, events] = await Promise.all([webhooks.getEndpoint(endpoint.accountId, endpoint.id), store.readEvents(endpoint.accountId, pageAfter, PAGE)]);
          if (!stored) return;
          endpoint = stored;
          page = events;
          more ||= page.length === PAGE;
          continue;
        }
        const next = page.find((event) => wanted(endpoint, event));
        if (!next) {
          const to = page.at(-1)!.id;
          if (!(await webhooks.skipTo(endpoint.id, token, endpoint.cursor, to))) return;
          endpoint = { ...endpoint, cursor: to };
          continue;
        }
        // Only when the claim could lapse during this attempt: every write costs a commit.
        if (claimedUntil - clock.now() < config.timeoutMs + 1_000) {
          if (!(await webhooks.renewClaim(endpoint.id, token, clock.now(), config.claimTtlMs))) return;
          claimedUntil = clock.now() + config.claimTtlMs;
        }
        const result = await this.attempt(endpoint, next, token);
        if (result === 'retry') {
          release = false; // the failure's write released it
          return;
        }
        if (result === 'fenced') return;
        endpoint = result.endpoint;
        claimedUntil = result.claimedUntil;
      }
    } finally {
      unsubscribe();
      if (release) await webhooks.releaseClaim(endpoint.id, token);
    }
  }

  private listen(accountId: string, listener: () => void): () => void {
    let set = this.listeners.get(accountId);
    if (!set) this.listeners.set(accountId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(accountId);
    };
  }

  /**
   * Waits, holding the claim, until `until` for a commit to the endpoint's account; true when one
   * came and there is a free slot for the attempt.
   */
  private async linger(until: number, onWake: (wake: () => void) => void): Promise<boolean> {
    const ms = until - this.deps.clock.now();
    if (ms <= 0 || this.stopping) return false;
    let end!: (woke: boolean) => void;
    const woke = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => end(false), ms);
      end = (woke) => {
        clearTimeout(timer);
        this.lingering.delete(end);
        resolve(woke);
      };
      this.lingering.add(end);
      onWake(() => end(true));
    });
    return woke && !this.stopping && this.active <= this.deps.config.concurrency;
  }

  /** One attempt at `event`, recorded with its outcome. */
  private async attempt(endpoint: WebhookEndpointRecord, event: EventRecord, token: number): Promise<{ endpoint: WebhookEndpointRecord; claimedUntil: number } | 'retry' | 'fenced'> {
    const { config, clock, metrics, webhooks, hub } = this.deps;
    const at = clock.now();
    const result = await deliverEvent(endpoint, event, at, {
      timeoutMs: config.timeoutMs,
      allowHosts: config.allowHosts,
      connections: this.connections,
      ...(this.deps.resolve ? { resolve: this.deps.resolve } : {}),
    });
    const label = outcomeLabel(result);
    metrics.deliveries.inc({ outcome: label });
    metrics.attemptSeconds.observe({ outcome: label }, result.latencyMs / 1000);

    const attempt = endpoint.attempt + 1;
    let outcome: AttemptOutcome;
    if (label === 'delivered') {
      outcome = { kind: 'delivered', claimUntil: clock.now() + config.claimTtlMs };
    } else {
      const failingSince = endpoint.failingSince ?? at;
      const lastError = result.status !== null ? `status ${result.status}` : result.error;
      if (clock.now() - failingSince >= config.disableAfterMs) {
        outcome = {
          kind: 'disable',
          failingSince,
          event: (e) => ({
            type: 'webhook.endpoint_disabled',
            time: clock.now(),
            data: { endpointId: e.id, url: e.url, eventId: String(event.id), failingSince: iso(failingSince), lastError },
          }),
        };
      } else {
        const asked = result.status === 429 || result.status === 503 ? retryAfterMs(result.retryAfter, clock.now(), config.retryMaxMs) : null;
        const wait = asked ?? backoffMs(attempt, config.retryBaseMs, config.retryMaxMs, this.deps.random ?? Math.random);
        outcome = { kind: 'retry', at: clock.now() + wait, failingSince };
      }
    }
    const recorded = await webhooks.recordAttempt({
      endpointId: endpoint.id,
      token,
      cursor: endpoint.cursor,
      delivery: { eventId: event.id, attempt, at, status: result.status, error: result.error, latencyMs: result.latencyMs, responseBody: result.responseBody, resend: false },
      outcome,
    });
    if (!recorded.endpoint) return 'fenced';
    if (recorded.events.length > 0) {
      this.deps.log.warn({ endpointId: endpoint.id, accountId: endpoint.accountId }, 'webhook endpoint disabled after failing for the whole retry window');
      hub.notify(endpoint.accountId);
    }
    if (outcome.kind === 'retry') this.retryLater(outcome.at);
    return outcome.kind === 'delivered' ? { endpoint: recorded.endpoint, claimedUntil: outcome.claimUntil } : 'retry';
  }

  /** A wake-up when the earliest retry comes due, so retries do not wait for the poll. */
  private retryLater(at: number): void {
    if (at >= this.retryAt || this.stopping) return;
    clearTimeout(this.retryTimer);
    this.retryAt = at;
    this.retryTimer = setTimeout(() => {
      this.retryAt = Infinity;
      this.wake();
    }, Math.max(0, at - this.deps.clock.now()));
    this.retryTimer.unref();
  }

  private async purge(): Promise<void> {
    const now = this.deps.clock.now();
    if (now - this.lastPurge < HOUR) return;
    this.lastPurge = now;
    try {
      await this.deps.webhooks.purgeDeliveries(now - this.deps.retentionMs);
    } catch (error) {
      this.deps.log.warn({ err: error }, 'webhook delivery log purge failed; will retry');
    }
  }
}
