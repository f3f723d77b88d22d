import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { commandTools, createContext, createServer, readConfig } from '../src/index.ts';

const readme = readFileSync(resolve(import.meta.dirname, '../README.md'), 'utf8');

function rows(): string[][] {
  const block = /<!-- tools:start -->([\s\S]*?)<!-- tools:end -->/.exec(readme)?.[1] ?? '';
  return block
    .trim()
    .split('\n')
    .slice(2)
    .map((row) => row.split('|').slice(1, -1).map((cell) => cell.trim().replace(/^`|`$/g, '')));
}

describe('README', () => {
  it('lists every tool the server registers, with its command type', async () => {
    const config = readConfig({ SWITCHBOARD_API_KEY: 'sb_readme' });
    const server = createServer(config, createContext(config));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'readme', version: '0' });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    const { tools } = await client.listTools();
    await client.close();
    expect(rows().map(([name]) => name).sort()).toEqual(tools.map((t) => t.name).sort());
    for (const tool of commandTools) expect(rows().find(([name]) => name === tool.name)?.[1], tool.name).toBe(tool.type);
  });
});
