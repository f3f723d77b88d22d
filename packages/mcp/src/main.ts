#!/usr/bin/env node
/**
 * switchboard-mcp: the Switchboard MCP server. stdio by default (what desktop agents start);
 * `--http` serves streamable HTTP on SWITCHBOARD_MCP_HOST:SWITCHBOARD_MCP_PORT/mcp.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ConfigError, readConfig } from './config.ts';
import { createContext } from './context.ts';
import { startHttpServer } from './http.ts';
import { log } from './log.ts';
import { createServer } from './server.ts';

async function main(): Promise<void> {
  const config = readConfig();
  const ctx = createContext(config);
  if (process.argv.includes('--http')) {
    const http = await startHttpServer(config, ctx);
    const stop = () => void http.close().then(() => process.exit(0));
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    return;
  }
  const server = createServer(config, ctx);
  await server.connect(new StdioServerTransport());
  log('switchboard-mcp ready', { transport: 'stdio', switchboard: config.url });
}

main().catch((error: unknown) => {
  log(error instanceof ConfigError ? 'configuration error' : 'switchboard-mcp failed', { error: error instanceof Error ? error.message : String(error) });
  process.exit(error instanceof ConfigError ? 2 : 1);
});
