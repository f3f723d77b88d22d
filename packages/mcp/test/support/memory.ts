import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { createContext, createServer, readConfig } from '../../src/index.ts';

/**
 * The tools as an MCP client sees them in tools/list, from a server in this process over the
 * SDK's in-memory transport. No service is needed: listing calls none.
 */
export async function listedTools(): Promise<Tool[]> {
  const config = readConfig({ SWITCHBOARD_API_KEY: 'sb_listing' });
  const server = createServer(config, createContext(config));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'listing', version: '0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close();
  }
}
