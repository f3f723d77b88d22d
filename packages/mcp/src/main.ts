#!/usr/bin/env node
/**
 * switchboard-mcp: the Switchboard MCP server. stdio by default (what desktop agents start);
 * `--http` serves streamable HTTP on SWITCHBOARD_MCP_HOST:SWITCHBOARD_MCP_PORT/mcp.
 */
import { ConfigError, readConfig } from './config.ts';
import { createContext } from './context.ts';
import { log } from './log.ts';
import { createServer } from './server.ts';

async function main(): Promise<void> {
  const config = readConfig();
  const ctx = createContext(config);
  if (process.argv.includes('--http')) {
    // Loaded only for --http: the HTTP transport brings its own web framework adapter.
    const { startHttpServer } = await import('./http.ts');
    const http = await startHttpServer(config, ctx);
    const stop = () => void http.close().then(() => process.exit(0));
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    return;
  }
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const server = createServer(config, ctx);
  await server.connect(new StdioServerTransport());
  log('switchboard-mcp ready', { transport: 'stdio', switchboard: config.url });
}

main().catch((error: unknown) => {
  log(error instanceof ConfigError ? 'configuration error' : 'switchboard-mcp failed', { error: error instanceof Error ? error.message : String(error) });
  process.exit(error instanceof ConfigError ? 2 : 1);
});
