import http from 'node:http';
import https from 'node:https';

/**
 * What openapi-fetch builds a request into and reads an answer from, kept to the fields it uses:
 * undici's Request and Response cost more per request than the rest of the call, and a host on
 * a short lease makes many.
 */
class PlainRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly body: string | Uint8Array | undefined;
  readonly signal: AbortSignal | undefined;

  constructor(url: string, init: { method?: string; headers?: ConstructorParameters<typeof Headers>[0]; body?: unknown; signal?: AbortSignal | null }) {
    this.url = url;
    this.method = init.method ?? 'GET';
    this.headers = new Headers(init.headers);
    this.body = (init.body ?? undefined) as string | Uint8Array | undefined;
    this.signal = init.signal ?? undefined;
  }
}

/** Whether `bytes` is the whole of its ArrayBuffer, so handing the buffer out exposes nothing else. */
const ownsBuffer = (bytes: Buffer) => bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;

/**
 * The body as one Buffer: the only chunk as it is, else the chunks joined once (into a buffer of
 * their own when large, which arrayBuffer can then hand out without another copy).
 */
function joined(chunks: Buffer[]): Buffer {
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

function plainResponse(status: number, incoming: http.IncomingMessage, bytes: Buffer): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const text = async () => bytes.toString('utf8');
  // A transfer's bytes are read as an ArrayBuffer (openapi-fetch's `parseAs: 'arrayBuffer'`): the
  // body's own when it fills it (large bodies do), copied only out of Node's shared small-buffer pool.
  const arrayBuffer = async () => (ownsBuffer(bytes) ? bytes.buffer : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  return { status, ok: status >= 200 && status < 300, headers, body: null, text, json: async () => JSON.parse(await text()), arrayBuffer } as unknown as Response;
}

export interface Transport {
  /** For openapi-fetch's `Request` option. */
  Request: typeof Request;
  fetch(request: Request): Promise<Response>;
  /** Closes the kept-alive connections. */
  close(): void;
}

/**
 * openapi-fetch's transport: a small pool of kept-alive node:http connections (a fraction of a
 * millisecond less per request than the global fetch, and a host makes three requests per
 * command), which the client closes when it is done so a server can stop at once.
 */
export function keptAlive(url: string): Transport {
  const transport = new URL(url).protocol === 'https:' ? https : http;
  const agent = new transport.Agent({ keepAlive: true, maxSockets: 64 });
  return {
    Request: PlainRequest as unknown as typeof Request,
    fetch(input) {
      const request = input as unknown as PlainRequest;
      const headers: Record<string, string> = Object.fromEntries(request.headers);
      if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body));
      return new Promise((resolve, reject) => {
        const outgoing = transport.request(request.url, { method: request.method, agent, headers, ...(request.signal ? { signal: request.signal } : {}) }, (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('error', reject);
          incoming.on('end', () => resolve(plainResponse(incoming.statusCode ?? 0, incoming, joined(chunks))));
        });
        outgoing.on('error', reject);
        outgoing.end(request.body);
      });
    },
    close() {
      agent.destroy();
    },
  };
}
