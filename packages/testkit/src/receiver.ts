import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitForMatch } from './wait.ts';

/** One POST a receiver got: headers as sent (lower-case names), the raw body, when it arrived. */
export interface ReceivedDelivery {
  headers: Record<string, string>;
  body: string;
  at: number;
}

/** What the receiver answers to the n-th delivery (0-based): a status, or `hang` (never answers). */
export type ReceiverAnswer = { status: number; headers?: Record<string, string> } | 'hang';

/** A real webhook receiver on loopback: records every delivery and answers as the test says. */
export class Receiver {
  readonly deliveries: ReceivedDelivery[] = [];
  answer: (delivery: ReceivedDelivery, n: number) => ReceiverAnswer = () => ({ status: 204 });
  readonly url: string;
  private readonly server: Server;
  private readonly waiters = new Set<() => void>();

  private constructor(server: Server, path: string) {
    this.server = server;
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  }

  static async start(path = '/hook'): Promise<Receiver> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const receiver = new Receiver(server, path);
    server.on('request', (req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
        const delivery = { headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
        const answer = receiver.answer(delivery, receiver.deliveries.length);
        receiver.deliveries.push(delivery);
        for (const wake of receiver.waiters) wake();
        if (answer === 'hang') return;
        res.writeHead(answer.status, answer.headers ?? {}).end();
      });
    });
    return receiver;
  }

  /** The event ids (`webhook-id`) received, in order, duplicates included. */
  ids(): string[] {
    return this.deliveries.map((d) => d.headers['webhook-id']!);
  }

  /** Resolves once `count` deliveries have arrived. */
  waitForCount(count: number, timeoutMs = 15_000): Promise<ReceivedDelivery[]> {
    return waitForMatch(() => (this.deliveries.length >= count ? this.deliveries : undefined), this.waiters, timeoutMs,
      () => `${this.deliveries.length} of ${count} deliveries within ${timeoutMs} ms: ${this.ids().join(',')}`);
  }

  /** Resolves once a delivery of each of `ids` has arrived. */
  waitForIds(ids: readonly string[], timeoutMs = 15_000): Promise<ReceivedDelivery[]> {
    return waitForMatch(() => (ids.every((id) => this.ids().includes(id)) ? this.deliveries : undefined), this.waiters, timeoutMs,
      () => `not every one of ${ids.join(',')} within ${timeoutMs} ms: got ${this.ids().join(',')}`);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
