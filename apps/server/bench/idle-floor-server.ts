/**
 * The floor of what idle accounts cost, for bench/scale.ts: bare node:http answering the same
 * traffic as a server does for hosts and streams that wait (a lease, dispatch long-polls held for
 * their wait and answered empty, SSE streams with a heartbeat every 10 s), with no store, no
 * authentication, no validation and no log. Prints its URL as the server's first log line does.
 */
import { createServer } from 'node:http';

const TTL_MS = Number(process.env.SWITCHBOARD_LEASE_TTL_MS ?? 15_000);
const HEARTBEAT_MS = 10_000;

function body(request: import('node:http').IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    request.on('end', () => resolve(text));
  });
}

const server = createServer(async (request, response) => {
  const url = request.url ?? '';
  if (url.startsWith('/v1/events')) {
    response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    response.write(': connected\n\n');
    const heartbeat = setInterval(() => response.write(': heartbeat\n\n'), HEARTBEAT_MS);
    response.on('close', () => clearInterval(heartbeat));
    return;
  }
  const text = await body(request);
  const json = (status: number, value: unknown) => {
    const out = JSON.stringify(value);
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(out) });
    response.end(out);
  };
  if (url === '/v1/connector/lease' || url === '/v1/connector/lease/renew') {
    return json(200, { accountId: 'floor', hostId: 'floor', epoch: 1, ttlMs: TTL_MS, expiresAt: new Date(Date.now() + TTL_MS).toISOString(), keptWhilePolling: true });
  }
  if (url === '/v1/connector/dispatch') {
    const { waitMs } = JSON.parse(text) as { waitMs: number };
    const timer = setTimeout(() => json(200, { commands: [], renewedAfterMs: waitMs }), waitMs);
    response.on('close', () => clearTimeout(timer));
    return;
  }
  json(404, { error: 'not_found', message: 'the floor serves idle traffic only' });
});
server.keepAliveTimeout = 72_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  console.log(JSON.stringify({ msg: 'switchboard listening', url: `http://127.0.0.1:${port}` }));
});
process.on('SIGTERM', () => process.exit(0));
