import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectorErrorCatalog, errorCatalog, type ConnectorErrorCode, type ErrorCode } from '@switchboard/contracts';
import { readyAccount, startTestServer, TestHost, type TestServer } from './helpers.ts';
import { RawConnection, rawExchange, type RawResponse } from './raw-http.ts';

// The dispatch poll is served beside the router (http/dispatch.ts): every answer the router gave
// it, over raw HTTP, and the connection left usable after each one but an oversized body.

let server: TestServer;
let acct: Awaited<ReturnType<typeof readyAccount>>;

beforeAll(async () => {
  server = await startTestServer();
  acct = await readyAccount(server);
});
afterAll(() => server.stopAndClean());

function post(body: string, headers: Record<string, string> = {}, path = '/v1/connector/dispatch'): string {
  const all = { host: 'switchboard.test', authorization: `Bearer ${acct.connectorKey}`, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers };
  return `POST ${path} HTTP/1.1\r\n${Object.entries(all).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n${body}`;
}

function expectError(res: RawResponse | null, status: number, error: ConnectorErrorCode | ErrorCode): RawResponse {
  expect(res, 'no response').not.toBeNull();
  expect(res!.status, res!.body).toBe(status);
  const body = JSON.parse(res!.body);
  expect(body.error).toBe(error);
  expect((connectorErrorCatalog as Record<string, { status: number }>)[error]?.status ?? errorCatalog[error as ErrorCode].status).toBe(status);
  expect(body.requestId).toBe(res!.headers['x-request-id']);
  expect(res!.headers['content-type']).toBe('application/json; charset=utf-8');
  return res!;
}

const poll = (extra: object = {}) => JSON.stringify({ epoch: acct.host.epoch, holding: [], waitMs: 0, ...extra });

describe('the dispatch poll over raw HTTP', () => {
  it('answers a poll with the commands and renewedAfterMs, an x-request-id, and keeps the connection', async () => {
    const connection = await RawConnection.open(server.url);
    try {
      for (let i = 0; i < 2; i++) {
        await connection.send(post(poll()));
        const res = await connection.response();
        expect(res?.status, res?.body).toBe(200);
        expect(JSON.parse(res!.body)).toMatchObject({ commands: [] });
        expect(typeof JSON.parse(res!.body).renewedAfterMs).toBe('number');
        expect(res!.headers['x-request-id']).toMatch(/\S/);
        expect(res!.headers.connection).not.toBe('close');
      }
      expect(connection.closed).toBe(false);
    } finally {
      connection.close();
    }
  });

  it('takes a query string, the absolute form of the path and a percent-encoded path, as the router did', async () => {
    for (const path of ['/v1/connector/dispatch?x=1', 'http://switchboard.test/v1/connector/dispatch', '/v1/connector/%64ispatch']) {
      expect((await rawExchange(server.url, post(poll(), {}, path)))?.status, path).toBe(200);
    }
    // An encoded slash is not a slash.
    expectError(await rawExchange(server.url, post(poll(), {}, '/v1/connector%2Fdispatch')), 404, 'not_found');
  });

  it.each([
    ['no key', { authorization: '' }],
    ['an unknown key', { authorization: 'Bearer sk_live_nope' }],
  ])('%s is 401 unauthenticated with WWW-Authenticate', async (_name, headers) => {
    const res = expectError(await rawExchange(server.url, post(poll(), headers)), 401, 'unauthenticated');
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  it('an API key (not a connector key) is 401', async () => {
    expectError(await rawExchange(server.url, post(poll(), { authorization: `Bearer ${acct.apiKey}` })), 401, 'unauthenticated');
  });

  it.each([
    ['not JSON', '{', 'not valid JSON'],
    ['no epoch', JSON.stringify({ holding: [] }), 'epoch'],
    ['holding not a list', JSON.stringify({ epoch: 1, holding: 'x' }), 'holding'],
    ['waitMs past 30 s', JSON.stringify({ epoch: 1, holding: [], waitMs: 30_001 }), 'waitMs'],
    ['a NUL in a string', JSON.stringify({ epoch: 1, holding: ['a\u0000'] }), 'U+0000'],
  ])('a body %s is 400 invalid_request naming what, on a connection kept open', async (_name, body, says) => {
    const connection = await RawConnection.open(server.url);
    try {
      await connection.send(post(body));
      const res = expectError(await connection.response(), 400, 'invalid_request');
      expect(JSON.parse(res.body).message).toContain(says);
      await connection.send(post(poll()));
      expect((await connection.response())?.status).toBe(200);
    } finally {
      connection.close();
    }
  });

  it('a body over 1 MiB is 400 invalid_request, and the connection closes after the answer', async () => {
    const connection = await RawConnection.open(server.url);
    try {
      const big = JSON.stringify({ epoch: 1, holding: ['x'.repeat(1 << 20)] });
      await connection.send(post(big));
      const res = expectError(await connection.response(), 400, 'invalid_request');
      expect(JSON.parse(res.body).message).toContain('1 MiB');
      expect(res.headers.connection).toBe('close');
      expect(await connection.closedByServer()).toBe(true);
    } finally {
      connection.close();
    }
  });

  it('a chunked body growing past 1 MiB is 400 invalid_request, and the connection closes', async () => {
    const connection = await RawConnection.open(server.url);
    try {
      const head = post('', { 'transfer-encoding': 'chunked' }).replace(/content-length: 0\r\n/, '');
      const chunk = 'x'.repeat(256 << 10);
      await connection.send(head + `${(chunk.length).toString(16)}\r\n${chunk}\r\n`.repeat(5) + '0\r\n\r\n');
      expectError(await connection.response(), 400, 'invalid_request');
      expect(await connection.closedByServer()).toBe(true);
    } finally {
      connection.close();
    }
  });

  it('an epoch not the live lease is 409 lease_lost naming the holder', async () => {
    const res = expectError(await rawExchange(server.url, post(poll({ epoch: acct.host.epoch + 1 }))), 409, 'lease_lost');
    expect(JSON.parse(res.body).holderHostId).toBe(acct.host.hostId);
  });

  it('other methods and paths are the router\'s: GET is 404, a trailing slash is 404', async () => {
    const get = `GET /v1/connector/dispatch HTTP/1.1\r\nhost: switchboard.test\r\nauthorization: Bearer ${acct.connectorKey}\r\n\r\n`;
    expectError(await rawExchange(server.url, get), 404, 'not_found');
    expectError(await rawExchange(server.url, post(poll(), {}, '/v1/connector/dispatch/')), 404, 'not_found');
    expectError(await rawExchange(server.url, post(poll(), {}, '/v1/connector/dispatchx')), 404, 'not_found');
  });

  it('counts each answer in the request metrics under its route', async () => {
    const counted = async (status: number, code: string) => {
      const text = await (await fetch(`${server.url}/metrics`)).text();
      const match = new RegExp(`switchboard_http_requests_total\\{method="POST",route="/v1/connector/dispatch",status="${status}",code="${code}"\\} (\\d+)`).exec(text);
      return Number(match?.[1] ?? 0);
    };
    const before = [await counted(200, ''), await counted(409, 'lease_lost')];
    await rawExchange(server.url, post(poll()));
    await rawExchange(server.url, post(poll({ epoch: acct.host.epoch + 1 })));
    expect([await counted(200, ''), await counted(409, 'lease_lost')]).toEqual([before[0]! + 1, before[1]! + 1]);
  });
});

describe('a poll whose connection is gone', () => {
  it('stops keeping the lease, even one pipelined behind another (its answer never gets the socket)', async () => {
    const ttl = 1_000;
    const short = await startTestServer({ leaseTtlMs: ttl });
    try {
      const account = await short.account();
      const host = await new TestHost(short.url, account.connectorKey).lease();
      const connection = await RawConnection.open(short.url);
      const body = JSON.stringify({ epoch: host.epoch, holding: [], waitMs: 20_000 });
      const request = `POST /v1/connector/dispatch HTTP/1.1\r\nhost: switchboard.test\r\nauthorization: Bearer ${account.connectorKey}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`;
      await connection.send(request + request);
      // Both polls wait, and the server keeps the lease for them past its TTL.
      await new Promise((resolve) => setTimeout(resolve, 2 * ttl));
      const other = new TestHost(short.url, account.connectorKey);
      expect((await other.call('lease', { hostId: other.hostId, osMajorVersion: 15, capabilities: [] })).body).toMatchObject({ error: 'lease_held' });
      connection.close();
      const closed = Date.now();
      for (;;) {
        const answer = await other.call('lease', { hostId: other.hostId, osMajorVersion: 15, capabilities: [] });
        if (answer.status === 200) break;
        expect(Date.now() - closed, 'the lease outlived its TTL after the connection closed').toBeLessThan(ttl + 1_000);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await short.stopAndClean();
    }
  });
});
