/**
 * @switchboard/mcp: an MCP server that lets an AI agent act on a Switchboard account. Run the
 * `switchboard-mcp` bin, or embed it: `createServer(config, createContext(config))`.
 */
export { readConfig, ConfigError, type Config } from './config.ts';
export { createContext, type Context } from './context.ts';
export { createServer, serverInfo } from './server.ts';
export { startHttpServer, type HttpServer } from './http.ts';
export { TurnKeys, canonicalJson } from './idempotency.ts';
export { commandTools } from './tools/commands.ts';
