import { setTimeout as sleep } from 'node:timers/promises';
import { waitForMatch } from '../wait.ts';

/** One stream event as the subscriber saw it: its type and its data, serialised for comparison. */
export interface SeenEvent {
  type: string;
  data: Record<string, any>;
  json: string;
}

/** The same event id delivered twice with different content. */
export interface Conflict {
  id: string;
  first: SeenEvent;
  later: SeenEvent;
}

/** The canonical form of an envelope's type and data: two deliveries of one event compare equal. */
export function canonical(type: string, data: unknown): string {
  return JSON.stringify([type, sortKeys(data)]);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, sortKeys(v)]));
  }
  return value;
}

/**
 * A reader of GET /v1/events that outlives server restarts and keeps every id -> event it was
 * ever shown. As `sse` it subscribes and reconnects with Last-Event-ID = the last id it received;
 * as `poll` it reads JSON pages with `?after=` in a tight loop, so it reads the log far more
 * often than one subscriber does.
 */
export class StreamRecorder {
  readonly seen = new Map<string, SeenEvent>();
  /** Ids in the order they arrived, repeats included. */
  readonly arrivals: string[] = [];
  readonly conflicts: Conflict[] = [];
  /** Deliveries whose id was not greater than the one before (a repeat or a step back). */
  outOfOrder = 0;
  /** `event: reset` frames: the server claimed the resume id was past retention. */
  resets = 0;
  connections = 0;
  lastId = 0n;
  private readonly abort = new AbortController();
  private readonly waiters = new Set<() => void>();
  private loop: Promise<void> | null = null;

  private readonly url: () => string;
  private readonly apiKey: string;
  readonly mode: 'sse' | 'poll';

  constructor(url: () => string, apiKey: string, mode: 'sse' | 'poll' = 'sse') {
    this.url = url;
    this.apiKey = apiKey;
    this.mode = mode;
  }

  start(): void {
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.loop;
  }

  /** Resolves with the first event (already seen or still to come) that matches. */
  waitFor(predicate: (event: SeenEvent, id: string) => boolean, timeoutMs: number, what: string): Promise<{ id: string; event: SeenEvent }> {
    const find = () => {
      for (const [id, event] of this.seen) if (predicate(event, id)) return { id, event };
      return undefined;
    };
    return waitForMatch(find, this.waiters, timeoutMs, () => `no ${what} on the stream within ${timeoutMs} ms`);
  }

  private async run(): Promise<void> {
    while (!this.abort.signal.aborted) {
      try {
        await (this.mode === 'sse' ? this.connectOnce() : this.pollOnce());
      } catch {
        // the server died or refused; reconnect below
      }
      if (this.abort.signal.aborted) return;
      await sleep(this.mode === 'sse' ? 25 : 5, undefined, { signal: this.abort.signal }).catch(() => undefined);
    }
  }

  private async connectOnce(): Promise<void> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.apiKey}`, accept: 'text/event-stream' };
    if (this.lastId > 0n) headers['last-event-id'] = String(this.lastId);
    const response = await fetch(`${this.url()}/v1/events`, { headers, signal: this.abort.signal });
    if (response.status !== 200 || !response.body) {
      await response.body?.cancel();
      return;
    }
    this.connections++;
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        this.frame(block);
      }
    }
  }

  /** Reads pages until one comes back empty, then pauses briefly. */
  private async pollOnce(): Promise<void> {
    for (;;) {
      const response = await fetch(`${this.url()}/v1/events?after=${this.lastId}&limit=1000`, {
        headers: { authorization: `Bearer ${this.apiKey}`, accept: 'application/json' },
        signal: this.abort.signal,
      });
      if (response.status !== 200) {
        await response.body?.cancel();
        return;
      }
      const page = (await response.json()) as { events: Array<{ id: string; type: string; data: Record<string, any> }> };
      for (const event of page.events) this.record(event.id, event.type, event.data);
      if (page.events.length === 0) return;
    }
  }

  private frame(block: string): void {
    const lines = block.split('\n');
    const data = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(5).replace(/^ /, '')).join('\n');
    const type = lines.find((l) => l.startsWith('event:'))?.slice(6).trim();
    if (!data) return;
    if (type === 'reset') {
      this.resets++;
      return;
    }
    const envelope = JSON.parse(data) as { id: string; type: string; data: Record<string, any> };
    this.record(envelope.id, envelope.type, envelope.data);
  }

  /** Takes one delivered event into the record (public so the bookkeeping can be tested alone). */
  record(id: string, type: string, data: Record<string, any>): void {
    const event: SeenEvent = { type, data, json: canonical(type, data) };
    const numeric = BigInt(id);
    if (numeric <= this.lastId) this.outOfOrder++;
    else this.lastId = numeric;
    this.arrivals.push(id);
    const before = this.seen.get(id);
    if (before) {
      if (before.json !== event.json) this.conflicts.push({ id, first: before, later: event });
    } else {
      this.seen.set(id, event);
    }
    for (const wake of [...this.waiters]) wake();
  }
}
