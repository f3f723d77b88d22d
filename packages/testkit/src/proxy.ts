/**
 * A TCP proxy in front of the server that can break connections on purpose: drop a response
 * after the server has acted on the request, or cut a stream partway through an event. Its
 * upstream can be moved, so a client behind it survives a server restart on a new port.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { once } from 'node:events';

export interface Cut {
  /** Cut once the response text forwarded so far contains this... */
  after: string;
  /** ...plus this many more bytes (0: nothing past it; negative: stop short of it). */
  extraBytes: number;
}

export class Proxy {
  private server!: Server;
  private readonly sockets = new Set<Socket>();
  private cut: (Cut & { resolve: () => void }) | undefined;
  /** The request heads seen (method, path and headers), in order. */
  readonly requests: string[] = [];
  /** How many times `text` went through in responses, per watched text. */
  private watches: Array<{ text: string; count: number; seen: number; resolve: () => void }> = [];
  url = '';

  private upstream: URL;

  constructor(upstream: URL) {
    this.upstream = upstream;
  }

  /** Listens on `port` (default: any free one). */
  async start(port = 0): Promise<this> {
    this.server = createServer((client) => this.connect(client));
    this.server.listen(port, '127.0.0.1');
    await once(this.server, 'listening');
    const address = this.server.address();
    if (typeof address !== 'object' || !address) throw new Error('proxy has no address');
    this.url = `http://127.0.0.1:${address.port}`;
    return this;
  }

  /** Sends later connections to another server (a restarted one). */
  retarget(url: string): void {
    this.upstream = new URL(url);
  }

  /** Cuts the next response that matches; resolves when the cut happened. */
  cutNext(cut: Cut): Promise<void> {
    return new Promise((resolve) => {
      this.cut = { ...cut, resolve };
    });
  }

  /** Resolves once `text` has gone through in responses `count` times. */
  seen(text: string, count: number): Promise<void> {
    return new Promise((resolve) => this.watches.push({ text, count, seen: 0, resolve }));
  }

  /** Destroys every open connection, as a network failure would. */
  dropAll(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  private connect(client: Socket): void {
    this.sockets.add(client);
    const upstream = createConnection({ host: this.upstream.hostname, port: Number(this.upstream.port) });
    this.sockets.add(upstream);
    let forwarded = '';
    const close = () => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    client.on('data', (chunk: Buffer) => {
      const text = chunk.toString('latin1');
      if (/^[A-Z]+ \//.test(text)) this.requests.push(text.split('\r\n\r\n', 1)[0]!);
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      const text = chunk.toString('latin1');
      for (const watch of this.watches) {
        watch.seen += text.split(watch.text).length - 1;
        if (watch.seen >= watch.count) watch.resolve();
      }
      const cut = this.cut;
      if (cut) {
        const at = (forwarded + text).indexOf(cut.after);
        if (at !== -1) {
          this.cut = undefined;
          const keep = Math.max(0, at + cut.after.length + cut.extraBytes - forwarded.length);
          client.write(chunk.subarray(0, keep), () => {
            close();
            cut.resolve();
          });
          return;
        }
      }
      forwarded = (forwarded + text).slice(-4096);
      client.write(chunk);
    });
    client.on('error', close);
    upstream.on('error', close);
    client.on('close', close);
    upstream.on('close', close);
  }

  async stop(): Promise<void> {
    this.dropAll();
    this.server.close();
    await once(this.server, 'close');
  }
}
