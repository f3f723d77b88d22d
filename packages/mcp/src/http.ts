import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Config } from './config.ts';
import type { Context } from './context.ts';
import { log } from './log.ts';
import { createServer } from './server.ts';

export interface HttpServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:7310/mcp`. */
  url: string;
  close(): Promise<void>;
}

function answer(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

function authorized(req: IncomingMessage, token: string | undefined): boolean {
  if (token === undefined) return true;
  const given = Buffer.from(req.headers.authorization ?? '');
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The streamable HTTP transport, stateless: each POST to /mcp gets its own MCP server and
 * transport over the shared context (one client, one memory of Idempotency-Keys). Anyone who
 * reaches the port acts with the account's API key, so it binds to loopback by default, checks
 * the Host header against DNS rebinding (its own address, loopback names and
 * SWITCHBOARD_MCP_ALLOWED_HOSTS), and takes a bearer token when SWITCHBOARD_MCP_HTTP_TOKEN is set.
 */
export async function startHttpServer(config: Config, ctx: Context): Promise<HttpServer> {
  let allowedHosts: string[] = [];
  const http: Server = createHttpServer((req, res) => {
    void (async () => {
      if (new URL(req.url ?? '/', 'http://localhost').pathname !== '/mcp') return answer(res, 404, 'not found: the MCP endpoint is /mcp');
      if (req.method !== 'POST') return answer(res, 405, 'method not allowed: this server is stateless, POST only');
      if (!authorized(req, config.http.token)) return answer(res, 401, 'unauthorized');
      const server = createServer(config, ctx);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableDnsRebindingProtection: true, allowedHosts });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res);
    })().catch((error: unknown) => {
      log('mcp request failed', { error: error instanceof Error ? error.message : String(error) });
      if (!res.headersSent) answer(res, 500, 'internal error');
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(config.http.port, config.http.host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  const host = config.http.host.includes(':') ? `[${config.http.host}]` : config.http.host;
  allowedHosts = [`${host}:${port}`, `localhost:${port}`, `127.0.0.1:${port}`, ...config.http.allowedHosts];
  const url = `http://${host}:${port}/mcp`;
  log('switchboard-mcp listening', { url, transport: 'streamable-http', switchboard: config.url });
  return {
    url,
    close: () =>
      new Promise<void>((resolve, reject) => {
        http.closeAllConnections();
        http.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
