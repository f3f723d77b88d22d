import http from 'node:http';
import https from 'node:https';

export interface Transport {
  fetch(request: Request): Promise<Response>;
  /** Closes the kept-alive connections. */
  close(): void;
}

function headersOf(incoming: http.IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}

/**
 * fetch over a small pool of kept-alive node:http connections, for openapi-fetch: a fraction of
 * a millisecond less per request than the global fetch (a host makes three requests per
 * command), and a pool the client closes when it is done, so a server can stop at once.
 */
export function keptAlive(url: string): Transport {
  const transport = new URL(url).protocol === 'https:' ? https : http;
  const agent = new transport.Agent({ keepAlive: true, maxSockets: 64 });
  return {
    async fetch(request) {
      const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
      const headers: Record<string, string> = Object.fromEntries(request.headers);
      if (body) headers['content-length'] = String(body.length);
      return new Promise((resolve, reject) => {
        const outgoing = transport.request(request.url, { method: request.method, agent, headers, signal: request.signal }, (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('error', reject);
          incoming.on('end', () => {
            const status = incoming.statusCode ?? 0;
            const bytes = Buffer.concat(chunks);
            resolve(new Response(bytes.length === 0 || status === 204 ? null : bytes, { status, headers: headersOf(incoming) }));
          });
        });
        outgoing.on('error', reject);
        outgoing.end(body);
      });
    },
    close() {
      agent.destroy();
    },
  };
}
