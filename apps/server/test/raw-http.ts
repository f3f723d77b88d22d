import { connect, type Socket } from 'node:net';

/**
 * HTTP/1.1 over a bare socket, for input node's own client refuses to send (bad bytes in the
 * path, broken framing, unknown methods) and for watching what happens to the connection after.
 */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export class RawConnection {
  private buffer = Buffer.alloc(0);
  private wake: (() => void) | null = null;
  closed = false;
  /** The socket was reset (ECONNRESET / EPIPE) rather than closed. */
  reset = false;

  private readonly socket: Socket;

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake?.();
    });
    socket.on('error', () => {
      this.reset = true;
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake?.();
    });
  }

  static open(url: string): Promise<RawConnection> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = connect({ host: hostname, port: Number(port) }, () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  /** Writes bytes; false when the socket would not take them (already closed or reset). */
  send(bytes: string | Buffer): Promise<boolean> {
    if (this.closed || this.socket.destroyed) return Promise.resolve(false);
    return new Promise((resolve) => this.socket.write(bytes, (error) => resolve(!error)));
  }

  /** The next complete response, or null if the connection closed (or `timeoutMs` passed) first. */
  async response(options: { head?: boolean; timeoutMs?: number } = {}): Promise<RawResponse | null> {
    const deadline = Date.now() + (options.timeoutMs ?? 10_000);
    for (;;) {
      const parsed = this.parse(options.head ?? false);
      if (parsed) return parsed;
      if (this.closed || Date.now() > deadline) return null;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
  }

  /** What arrived so far, raw, once it holds `text` (a response that never ends, as a stream's), or null if it closed or `timeoutMs` passed first. */
  async until(text: string, timeoutMs = 10_000): Promise<string | null> {
    const deadline = Date.now() + timeoutMs;
    while (!this.buffer.includes(text)) {
      if (this.closed || Date.now() > deadline) return null;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return this.buffer.toString('latin1');
  }

  /** Resolves once the server has closed the connection (or after `timeoutMs`). */
  async closedByServer(timeoutMs = 2_000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    return this.closed;
  }

  close(): void {
    this.socket.destroy();
  }

  private parse(head: boolean): RawResponse | null {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end === -1) return null;
    const lines = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
    const status = Number(lines[0]!.split(' ')[1]);
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    let rest = this.buffer.subarray(end + 4);
    let body: Buffer;
    if (head || status === 204 || status === 304) {
      body = Buffer.alloc(0);
    } else if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
      const chunks: Buffer[] = [];
      for (;;) {
        const lineEnd = rest.indexOf('\r\n');
        if (lineEnd === -1) return null;
        const size = parseInt(rest.subarray(0, lineEnd).toString('latin1'), 16);
        if (rest.length < lineEnd + 2 + size + 2) return null;
        if (size === 0) {
          rest = rest.subarray(lineEnd + 4);
          break;
        }
        chunks.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
        rest = rest.subarray(lineEnd + 2 + size + 2);
      }
      body = Buffer.concat(chunks);
    } else {
      const length = Number(headers['content-length'] ?? 0);
      if (rest.length < length) return null;
      body = rest.subarray(0, length);
      rest = rest.subarray(length);
    }
    this.buffer = rest;
    return { status, headers, body: body.toString('utf8') };
  }
}

/** One request on a fresh connection; the connection is closed afterwards. */
export async function rawExchange(url: string, request: string | Buffer, options: { head?: boolean } = {}): Promise<RawResponse | null> {
  const connection = await RawConnection.open(url);
  try {
    await connection.send(request);
    return await connection.response(options);
  } finally {
    connection.close();
  }
}
