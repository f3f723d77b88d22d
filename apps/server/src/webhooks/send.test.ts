import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Resolver } from './address.ts';
import { Connections } from './connections.ts';
import { sendOnce } from './send.ts';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

/** A receiver at `host`, counting the connections made to it; answers with `body`. */
async function receiver(host: string, port: number, body = '', delayMs = 0): Promise<{ port: number; connections: () => number; requests: () => number }> {
  let connections = 0;
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    req.resume();
    req.on('end', () => setTimeout(() => res.end(body), delayMs));
  });
  server.on('connection', () => connections++);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return { port: (server.address() as AddressInfo).port, connections: () => connections, requests: () => requests };
}

/** Lets a drained response hand its connection back. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('kept-alive connections to receivers', () => {
  it('are reused for attempts whose check gave the same address, and never for another address', async () => {
    const v4 = await receiver('127.0.0.1', 0);
    const v6 = await receiver('::1', v4.port);
    let address = '127.0.0.1';
    const resolve: Resolver = async () => [{ address, family: address.includes(':') ? 6 : 4 }];
    const connections = new Connections();
    const send = () => sendOnce(new URL(`http://localhost:${v4.port}/hook`), {}, '{}', { timeoutMs: 2_000, allowHosts: [], resolve, connections });
    try {
      for (let i = 0; i < 3; i++) {
        expect((await send()).status).toBe(200);
        await settle();
      }
      expect([v4.requests(), v4.connections()]).toEqual([3, 1]);
      // The name now resolves elsewhere: the open connection to the old address is not used.
      address = '::1';
      expect((await send()).status).toBe(200);
      await settle();
      expect((await send()).status).toBe(200);
      expect([v4.requests(), v6.requests(), v6.connections()]).toEqual([3, 2, 1]);
    } finally {
      connections.close();
    }
  });

  it('a response body past the limit closes the connection instead of being read to its end', async () => {
    const big = await receiver('127.0.0.1', 0, 'x'.repeat(1_000_000));
    const connections = new Connections();
    const send = () => sendOnce(new URL(`http://127.0.0.1:${big.port}/hook`), {}, '{}', { timeoutMs: 2_000, allowHosts: [], connections });
    try {
      expect((await send()).status).toBe(200);
      await settle();
      expect((await send()).status).toBe(200);
      expect([big.requests(), big.connections()]).toEqual([2, 2]);
    } finally {
      connections.close();
    }
  });

  it('an answer slower than the idle limit of kept-alive connections still counts', async () => {
    const slow = await receiver('127.0.0.1', 0, '', 300);
    const connections = new Connections(256, 100);
    try {
      const result = await sendOnce(new URL(`http://127.0.0.1:${slow.port}/hook`), {}, '{}', { timeoutMs: 2_000, allowHosts: [], connections });
      expect(result.status).toBe(200);
    } finally {
      connections.close();
    }
  });

  it('without a pool, each attempt opens its own connection', async () => {
    const r = await receiver('127.0.0.1', 0);
    for (let i = 0; i < 2; i++) {
      expect((await sendOnce(new URL(`http://127.0.0.1:${r.port}/hook`), {}, '{}', { timeoutMs: 2_000, allowHosts: [] })).status).toBe(200);
      await settle();
    }
    expect(r.connections()).toBe(2);
  });
});

describe('the response body kept for the delivery log', () => {
  const post = (port: number, options: { timeoutMs?: number; connections?: Connections } = {}) =>
    sendOnce(new URL(`http://127.0.0.1:${port}/hook`), {}, '{}', { timeoutMs: options.timeoutMs ?? 2_000, allowHosts: [], ...(options.connections ? { connections: options.connections } : {}) });

  it('is the whole body when short, and null when empty', async () => {
    const short = await receiver('127.0.0.1', 0, 'rejected: bad signature');
    const empty = await receiver('127.0.0.1', 0, '');
    expect(await post(short.port)).toMatchObject({ status: 200, responseBody: 'rejected: bad signature' });
    expect(await post(empty.port)).toMatchObject({ status: 200, responseBody: null });
  });

  it('is the first 1 KiB as UTF-8, a character cut at the end made U+FFFD, with or without kept-alive connections', async () => {
    // 1023 ASCII bytes, then a two-byte character split by the limit.
    const body = `${'a'.repeat(1_023)}é${'b'.repeat(5_000)}`;
    const r = await receiver('127.0.0.1', 0, body);
    const connections = new Connections();
    try {
      for (const result of [await post(r.port), await post(r.port, { connections })]) {
        expect(result.status).toBe(200);
        expect(result.responseBody).toBe(`${'a'.repeat(1_023)}\uFFFD`);
      }
    } finally {
      connections.close();
    }
  });

  it('a body under the drain limit is read to its end and the connection carries the next attempt', async () => {
    const r = await receiver('127.0.0.1', 0, 'y'.repeat(4_000));
    const connections = new Connections();
    try {
      expect((await post(r.port, { connections })).responseBody).toHaveLength(1_024);
      await settle();
      expect((await post(r.port, { connections })).status).toBe(200);
      expect([r.requests(), r.connections()]).toEqual([2, 1]);
    } finally {
      connections.close();
    }
  });

  it('a body that does not end within the timeout keeps the status and what was read', async () => {
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(502);
        res.write('upstream down');
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const connections = new Connections();
    try {
      for (const options of [{ timeoutMs: 200 }, { timeoutMs: 200, connections }]) {
        expect(await post(port, options)).toMatchObject({ status: 502, error: null, responseBody: 'upstream down' });
      }
    } finally {
      connections.close();
    }
  });

  it('is null when no response arrived', async () => {
    const r = await receiver('127.0.0.1', 0);
    const port = r.port;
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      await new Promise((resolve) => s.close(resolve));
    }
    expect(await post(port)).toMatchObject({ status: null, responseBody: null });
  });
});
