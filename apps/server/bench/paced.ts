import { connect, type Socket } from 'node:net';
import type { BenchRequest } from './setup.ts';

/** What a steady load measured; latencies in ms. */
export interface PacedFigures {
  /** Answers per second over the run. */
  rps: number;
  p50: number;
  p99: number;
  max: number;
  /** Requests answered with anything but 2xx, or lost with their connection. */
  failures: number;
}

/** One keep-alive connection: at most one request in flight, its answer read as it arrives. */
class Connection {
  readonly socket: Socket;
  /** When the request in flight was due, or null when free. */
  due: number | null = null;
  private buffered: Buffer = Buffer.alloc(0);
  private closed = false;
  private readonly done: (connection: Connection, due: number, ok: boolean) => void;

  constructor(port: number, host: string, done: (connection: Connection, due: number, ok: boolean) => void) {
    this.done = done;
    this.socket = connect({ port, host, noDelay: true });
    this.socket.on('data', (chunk: Buffer) => this.read(chunk));
    this.socket.on('error', () => undefined);
    this.socket.on('close', () => {
      this.closed = true;
      if (this.due !== null) this.finish(false);
    });
  }

  get free(): boolean {
    return this.due === null && !this.closed;
  }

  send(bytes: Buffer, due: number): void {
    this.due = due;
    this.socket.write(bytes);
  }

  private read(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const end = this.buffered.indexOf('\r\n\r\n');
    if (end === -1) return;
    const head = this.buffered.subarray(0, end).toString('latin1');
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    const total = end + 4 + (length ? Number(length[1]) : 0);
    if (this.buffered.length < total) return;
    this.buffered = this.buffered.subarray(total);
    this.finish(head.startsWith('HTTP/1.1 2'));
  }

  private finish(ok: boolean): void {
    const due = this.due!;
    this.due = null;
    this.done(this, due, ok);
  }
}

/**
 * Sends `request` to `url`'s command endpoint at `rate` per second for `seconds`, on `connections`
 * connections, open-loop: request i is due at start + i / rate, sent on the first free connection,
 * and its latency runs from when it was due (so a stalled server is charged for the requests it
 * kept waiting, not only for the ones it answered slowly).
 *
 * autocannon's `overallRate` is not that: each connection sends its share of a second back to back
 * and then waits for the next second, so "half the max rate" is the max rate for half of each
 * second; and it corrects for coordinated omission with an interval of ceil(1 / rate) = 1 ms,
 * adding a sample for every millisecond a response took.
 */
export async function paced(url: string, request: BenchRequest, rate: number, seconds: number, connections: number): Promise<PacedFigures> {
  const { hostname, port } = new URL(url);
  const head = [`POST /v1/commands/message.send HTTP/1.1`, `host: ${hostname}:${port}`, `content-length: ${Buffer.byteLength(request.body)}`];
  for (const [name, value] of Object.entries(request.headers)) head.push(`${name}: ${value}`);
  const bytes = Buffer.from(`${head.join('\r\n')}\r\n\r\n${request.body}`);

  const total = Math.round(rate * seconds);
  const latencies = new Float64Array(total);
  let answered = 0;
  let failures = 0;
  /** Requests are sent in order: `sent` of them so far, `next` due so far; the ones between wait for a free connection. */
  let sent = 0;
  let next = 0;
  const dueAt = (i: number) => started + (i * 1000) / rate;
  const done = (connection: Connection, due: number, ok: boolean) => {
    latencies[answered++] = performance.now() - due;
    if (!ok) failures++;
    if (sent < next && connection.free) connection.send(bytes, dueAt(sent++));
  };
  const pool = Array.from({ length: connections }, () => new Connection(Number(port), hostname, done));
  await Promise.all(pool.map((c) => new Promise((resolve) => c.socket.once('connect', resolve))));

  const started = performance.now();
  await new Promise<void>((resolve) => {
    const tick = () => {
      const elapsed = performance.now() - started;
      while (next < total && (next * 1000) / rate <= elapsed) next++;
      for (const connection of pool) {
        if (sent === next) break;
        if (connection.free) connection.send(bytes, dueAt(sent++));
      }
      if (next < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  // The last ones answered (or given up after 10 s, counted as failures).
  const deadline = performance.now() + 10_000;
  while ((sent < total || pool.some((c) => c.due !== null)) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  const elapsed = (performance.now() - started) / 1000;
  failures += total - answered;
  for (const c of pool) c.socket.destroy();

  const sorted = latencies.subarray(0, answered).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? Infinity;
  return { rps: answered / elapsed, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? Infinity, failures };
}
