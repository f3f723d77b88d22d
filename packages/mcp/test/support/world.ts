/**
 * The whole service for the MCP tests: the real server, the real simulated connector host
 * (apps/connector), and MCP clients (the official SDK's) talking to @switchboard/mcp over stdio
 * (the bin, as its own process) or streamable HTTP.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { paths, removeDataDir, startHost, startServer, type HostProcess, type ServerProcess } from '@switchboard/testkit';
import { createContext, readConfig, startHttpServer, type HttpServer } from '../../src/index.ts';

const run = promisify(execFile);
export const bin = resolve(import.meta.dirname, '../../src/main.ts');

/** A tool's answer, parsed: what the model would read. */
export interface Answer {
  isError: boolean;
  body: Record<string, any>;
  text: string;
}

/** An MCP client and every answer it got (to check none leaks the API key). */
export class Agent {
  readonly answers: string[] = [];
  readonly client: Client;

  constructor(client: Client) {
    this.client = client;
  }

  async call(name: string, args: Record<string, unknown> = {}): Promise<Answer> {
    const result = (await this.client.callTool({ name, arguments: args })) as CallToolResult;
    const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
    this.answers.push(JSON.stringify(result));
    let body: Record<string, any>;
    try {
      body = JSON.parse(text) as Record<string, any>;
    } catch {
      body = { text };
    }
    return { isError: result.isError === true, body, text };
  }

  /** Calls a tool that must succeed; fails the test with its error otherwise. */
  async ok(name: string, args: Record<string, unknown> = {}): Promise<Record<string, any>> {
    const answer = await this.call(name, args);
    if (answer.isError) throw new Error(`${name} answered a tool error: ${answer.text}`);
    return answer.body;
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

/** The bin over stdio, as a desktop agent starts it. `stderr` keeps what it logged. */
export async function stdioAgent(env: Record<string, string>): Promise<{ agent: Agent; stderr: string[] }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin], env: { PATH: process.env.PATH ?? '', ...env }, stderr: 'pipe' });
  const stderr: string[] = [];
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const client = new Client({ name: 'switchboard-mcp-test', version: '0.0.0' });
  await client.connect(transport);
  return { agent: new Agent(client), stderr };
}

/** The streamable HTTP transport, served in this process. */
export async function httpAgent(env: Record<string, string>, headers: Record<string, string> = {}): Promise<{ agent: Agent; http: HttpServer; close(): Promise<void> }> {
  const config = readConfig({ SWITCHBOARD_MCP_PORT: '0', ...env });
  const http = await startHttpServer(config, createContext(config));
  const client = new Client({ name: 'switchboard-mcp-test', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers } }));
  const agent = new Agent(client);
  return {
    agent,
    http,
    async close() {
      await agent.close();
      await http.close();
    },
  };
}

export interface World {
  server: ServerProcess;
  host: HostProcess;
  account: { accountId: string; apiKey: string; connectorKey: string };
  env: Record<string, string>;
  /** Someone writes to the account on the simulated platform. */
  inject(args: string[]): Promise<{ conversationExternalId: string; messageExternalId?: string }>;
  stop(): Promise<void>;
}

/**
 * The server and a simulated host on OS 26 (remove_participant stalls, briefly), with one account.
 * Nothing happens to a message after its echo (no deliveries, reads, tapbacks, edits), so the
 * stream holds only what a test did, unless `hostEnv` gives messages a life
 * (SWITCHBOARD_SIM_P_DELIVERED and the others of apps/connector).
 */
export async function startWorld(serverEnv: Record<string, string> = {}, hostEnv: Record<string, string> = {}): Promise<World> {
  const server = await startServer(serverEnv);
  const account = await server.account();
  const simDir = mkdtempSync(join(tmpdir(), 'switchboard-mcp-sim-'));
  const simDb = join(simDir, 'simulator.db');
  const host = startHost({
    url: server.url,
    connectorKey: account.connectorKey,
    env: { SWITCHBOARD_SIM_DB: simDb, SWITCHBOARD_OS_MAJOR_VERSION: '26', SWITCHBOARD_SIM_REMOVE_STALL_MS: '200', SWITCHBOARD_SIM_MESSAGE_LIFE: 'off', ...hostEnv },
  });
  await host.leased();
  return {
    server,
    host,
    account,
    env: { SWITCHBOARD_URL: server.url, SWITCHBOARD_API_KEY: account.apiKey },
    async inject(args) {
      const { stdout } = await run(process.execPath, [paths.connector, 'inject', '--account', account.accountId, '--sim-db', simDb, ...args]);
      return JSON.parse(stdout) as { conversationExternalId: string; messageExternalId?: string };
    },
    async stop() {
      await host.stop();
      await server.stop();
      removeDataDir(server.dataDir);
      rmSync(simDir, { recursive: true, force: true });
    },
  };
}
