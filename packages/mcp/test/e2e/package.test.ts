/**
 * The package as a team would get it: `pnpm pack` contracts, the SDK and the MCP server (what
 * the registry would receive), install the tarballs outside the workspace with npm, and start the
 * installed `switchboard-mcp` bin over stdio against the real server and simulated host, on the
 * current Node and on the oldest Node the engines field allows (20.19.0).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokenSourceMaps, ensureBuilt, packPackage } from '@switchboard/tooling/pack';
import { Agent, startWorld, type World } from '../support/world.ts';

const run = promisify(execFile);
const packages = resolve(import.meta.dirname, '../../..');
const OLDEST_NODE = '20.19.0';
const { version } = JSON.parse(readFileSync(join(packages, 'mcp/package.json'), 'utf8')) as { version: string };

let scratch: string;
let world: World;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'switchboard-mcp-consumer-'));
  const tarballs: string[] = [];
  for (const name of ['contracts', 'sdk', 'mcp']) {
    ensureBuilt(join(packages, name));
    tarballs.push(packPackage(join(packages, name), scratch));
  }
  const project = join(scratch, 'app');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'agent-host', private: true }));
  // Killed rather than left behind if the registry does not answer.
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...tarballs, `node@${OLDEST_NODE}`], { cwd: project, timeout: 150_000 });
  world = await startWorld();
}, 180_000);

afterAll(async () => {
  await world?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe('the packed @switchboard/mcp, installed with npm outside the workspace', () => {
  const project = () => join(scratch, 'app');
  it('ships the sources its source maps name', () => {
    expect(brokenSourceMaps(join(project(), 'node_modules/@switchboard/mcp'))).toEqual([]);
  });

  for (const [label, node] of [
    ['the current Node', () => process.execPath],
    [`Node ${OLDEST_NODE}, the oldest engines allows`, () => join(project(), 'node_modules/node/bin/node')],
  ] as const) {
    it(`its bin serves the tools over stdio on ${label}`, async () => {
      const bin = join(project(), 'node_modules/@switchboard/mcp/dist/main.js');
      const transport = new StdioClientTransport({ command: node(), args: [bin], env: { PATH: process.env.PATH ?? '', ...world.env }, stderr: 'pipe' });
      const client = new Client({ name: 'package-test', version: '0.0.0' });
      await client.connect(transport);
      const agent = new Agent(client);
      try {
        expect(client.getServerVersion()).toMatchObject({ name: 'switchboard', version });
        expect((await client.listTools()).tools).toHaveLength(17);
        expect((await agent.ok('capabilities')).hostId).toBe(world.host.hostId);
        expect(await agent.call('command_status', { commandId: '0190b7a4-0000-7000-8000-00000000dead' })).toMatchObject({ isError: true, body: { error: 'command_not_found', retry: 'never' } });
      } finally {
        await agent.close();
      }
    }, 30_000);
  }
});
