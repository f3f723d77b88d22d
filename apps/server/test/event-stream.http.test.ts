import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCatalog, type ErrorCode } from '@switchboard/contracts';
import { readyAccount, startTestServer, type TestServer } from './helpers.ts';
import { RawConnection, rawExchange, type RawResponse } from './raw-http.ts';

// A stream of GET /v1/events is served beside the router (http/events.ts, streamEndpoint): every
// answer the router gave it, over raw HTTP. The stream's events are stream.http.test.ts's.

let server: TestServer;
let acct: Awaited<ReturnType<typeof readyAccount>>;

beforeAll(async () => {
  server = await startTestServer({ maxStreamsPerCredential: 2 });
  acct = await readyAccount(server);
});
afterAll(() => server.stopAndClean());

function get(path = '/v1/events', headers: Record<string, string> = {}): string {
  const all = { host: 'switchboard.test', authorization: `Bearer ${acct.apiKey}`, accept: 'text/event-stream', ...headers };
  return `GET ${path} HTTP/1.1\r\n${Object.entries(all).filter(([, v]) => v !== '').map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
}

function expectError(res: RawResponse | null, status: number, error: ErrorCode): RawResponse {
  expect(res, 'no response').not.toBeNull();
  expect(res!.status, res!.body).toBe(status);
  const body = JSON.parse(res!.body);
  expect(body.error).toBe(error);
  expect(errorCatalog[error].status).toBe(status);
  expect(body.requestId).toBe(res!.headers['x-request-id']);
  expect(res!.headers['content-type']).toBe('application/json; charset=utf-8');
  return res!;
}

/** Opens a stream over a bare socket; resolves with what arrived once the first block did. */
async function open(path = '/v1/events', headers: Record<string, string> = {}): Promise<{ connection: RawConnection; text: string }> {
  const connection = await RawConnection.open(server.url);
  await connection.send(get(path, headers));
  const text = await connection.until('retry: 3000\n\n');
  if (text === null) {
    connection.close();
    throw new Error(`no stream opened for ${path}`);
  }
  return { connection, text };
}

describe('the event stream over raw HTTP', () => {
  it('opens with 200, the stream\'s headers, an x-request-id and the read limit\'s RateLimit headers', async () => {
    const { connection, text } = await open();
    try {
      const head = text.slice(0, text.indexOf('\r\n\r\n')).toLowerCase();
      expect(head).toMatch(/^http\/1\.1 200 /);
      expect(head).toContain('content-type: text/event-stream; charset=utf-8');
      expect(head).toContain('cache-control: no-cache, no-transform');
      expect(head).toContain('x-accel-buffering: no');
      expect(head).toMatch(/\r\nx-request-id: \S+/);
      expect(head).toMatch(/\r\nratelimit-policy: "read";q=\d+;w=60/);
      expect(head).toMatch(/\r\nratelimit: "read";r=\d+;t=\d+/);
      expect(text).toContain(': connected\nretry: 3000\n\n');
    } finally {
      connection.close();
    }
  });

  it('takes a query string, the absolute form of the path and a percent-encoded path, as the router did', async () => {
    for (const path of ['/v1/events?after=0', 'http://switchboard.test/v1/events', '/v1/%65vents']) {
      const { connection } = await open(path);
      connection.close();
    }
    // An encoded slash is not a slash; another path is not the stream.
    expectError(await rawExchange(server.url, get('/v1%2Fevents')), 404, 'not_found');
    expectError(await rawExchange(server.url, get('/v1/events/')), 404, 'not_found');
  });

  it.each([
    ['no key', { authorization: '' }],
    ['an unknown key', { authorization: 'Bearer sk_live_nope' }],
    ['a connector key', () => ({ authorization: `Bearer ${acct.connectorKey}` })],
  ])('%s is 401 unauthenticated with WWW-Authenticate', async (_name, headers) => {
    const given = typeof headers === 'function' ? headers() : headers;
    const res = expectError(await rawExchange(server.url, get('/v1/events', given)), 401, 'unauthenticated');
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  it('a bad cursor is 400 invalid_query and carries the RateLimit headers, as every answer past the read limit does', async () => {
    // Past a thousand other keys too, as the router read every key.
    for (const path of ['/v1/events?after=abc', '/v1/events?after=1&after=2', '/v1/events?after=', '/v1/events?limit=0', `/v1/events?${'x&'.repeat(1000)}after=abc`]) {
      const res = expectError(await rawExchange(server.url, get(path)), 400, 'invalid_query');
      expect(res.headers['ratelimit-policy'], path).toMatch(/^"read";/);
      expect(res.headers.ratelimit, path).toMatch(/^"read";r=\d+;t=\d+$/);
    }
    expectError(await rawExchange(server.url, get('/v1/events', { 'last-event-id': 'x' })), 400, 'invalid_query');
  });

  it('past the open-stream limit, 429 too_many_streams; closing one frees its slot', async () => {
    const first = await open();
    const second = await open();
    try {
      const refused = expectError(await rawExchange(server.url, get()), 429, 'too_many_streams');
      expect(refused.headers['retry-after']).toBeUndefined();
      second.connection.close();
      // The slot is given back once the server sees the connection close.
      let status = 0;
      for (let i = 0; i < 100 && status !== 200; i++) {
        const connection = await RawConnection.open(server.url);
        await connection.send(get());
        status = Number((await connection.until('\r\n\r\n'))?.split(' ')[1]);
        connection.close();
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(status).toBe(200);
    } finally {
      first.connection.close();
      second.connection.close();
    }
  });

  it('a client gone before its stream started leaves no stream open: its slot is free again', async () => {
    for (let i = 0; i < 6; i++) {
      const connection = await RawConnection.open(server.url);
      await connection.send(get());
      connection.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    const first = await open();
    const second = await open();
    first.connection.close();
    second.connection.close();
  });

  it('a JSON page (no text/event-stream in Accept) is still the router\'s', async () => {
    const res = await rawExchange(server.url, get('/v1/events', { accept: 'application/json' }));
    expect(res?.status, res?.body).toBe(200);
    expect(JSON.parse(res!.body)).toMatchObject({ events: expect.any(Array), nextAfter: expect.any(String) });
  });
});
