import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCatalog, type ErrorCode } from '@switchboard/contracts';
import { expectSpecResponse, postCommand, readyAccount, startTestServer, type TestServer } from './helpers.ts';
import { RawConnection, rawExchange, type RawResponse } from './raw-http.ts';

// Hostile input over real HTTP: every answer is a catalog error with the one body shape, never a
// 500, and a connection is dropped only after `Connection: close`.

let server: TestServer;
let acct: Awaited<ReturnType<typeof readyAccount>>;

beforeAll(async () => {
  server = await startTestServer();
  acct = await readyAccount(server);
});
afterAll(async () => {
  await server.stopAndClean();
});

function expectError(res: RawResponse | null, status: number, error: ErrorCode): asserts res is RawResponse {
  expect(res, 'no response').not.toBeNull();
  expect(res!.status, res!.body).toBe(status);
  const body = JSON.parse(res!.body);
  expect(Object.keys(body).sort()).toEqual(['error', 'message', 'requestId']);
  expect(body.error).toBe(error);
  expect(errorCatalog[body.error as ErrorCode].status).toBe(status);
  expect(body.requestId).toBe(res!.headers['x-request-id']);
}

function req(method: string, path: string, headers: Record<string, string> = {}, body = ''): string {
  const lines = Object.entries({ host: 'switchboard.test', ...headers }).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  return `${method} ${path} HTTP/1.1\r\n${lines}\r\n${body}`;
}

const auth = () => ({ authorization: `Bearer ${acct.apiKey}` });
const direct = () => JSON.stringify({ target: { kind: 'conversation', conversationId: acct.direct }, payload: { text: 'hi' } });

describe('a malformed Content-Type is a client mistake, never 500 (item 6)', () => {
  it.each(['', 'application/json, text/plain', 'json', '/', 'text/plain; =x'])('Content-Type %j', async (type) => {
    // Fastify routes that take a body ignore a malformed type; the command endpoint refuses it with 415.
    const lease = await rawExchange(server.url, req('POST', '/v1/connector/lease', { 'content-type': type, 'content-length': '2' }, '{}'));
    expectError(lease, 401, 'unauthenticated');
    const put = await rawExchange(server.url, req('PUT', '/v1/conversations', { 'content-type': type, 'content-length': '2' }, '{}'));
    expectError(put, 404, 'not_found');
    const command = await rawExchange(server.url, req('POST', '/v1/commands/message.send', { ...auth(), 'content-type': type, 'content-length': String(direct().length) }, direct()));
    expectError(command, 415, 'unsupported_media_type');
    expectSpecResponse('/v1/commands/message.send', 'post', 415, JSON.parse(command.body), command.headers);
  });
});

describe('every response has the documented body, and closes only with Connection: close (item 7)', () => {
  it('answers a bad percent-encoding with 400 bad_request', async () => {
    for (const path of ['/v1/commands/%', '/v1/conversations/%zz', '/v1/attachments/%E0%A4%A']) {
      const res = await rawExchange(server.url, req('GET', path, auth()));
      expectError(res, 400, 'bad_request');
    }
  });

  // "Before any route": the command endpoint, which node:http serves apart from the router, too.
  it.each(['POST', 'PUT', 'DELETE'])('answers %s of a command type that is not valid percent-encoding with 400 bad_request, before authentication', async (method) => {
    for (const path of ['/v1/commands/%ZZ', '/v1/commands/%E2%9C', '/v1/commands/a%2']) {
      for (const headers of [auth(), {}]) {
        const res = await rawExchange(server.url, req(method, path, { ...headers, 'content-type': 'application/json', 'content-length': String(direct().length) }, direct()));
        expectError(res, 400, 'bad_request');
      }
    }
  });

  // RFC 9112 §9.3.2: answers go in the order of the requests. A command read before a malformed
  // request gets its own answer first; the malformed one's follows, then the connection closes.
  it.each([
    ['an unknown method', 'GARBAGE\r\n\r\n', 501, 'not_implemented'],
    ['a broken request line', 'GET /v1/conversations HTTP/1.1 x\r\nHost: x\r\n\r\n', 400, 'bad_request'],
  ] as const)('answers a command followed on its connection by %s: the 202 first', async (_name, tail, status, code) => {
    const body = direct();
    const connection = await RawConnection.open(server.url);
    try {
      await connection.send(req('POST', '/v1/commands/message.send', { ...auth(), 'content-type': 'application/json', 'content-length': String(body.length) }, body) + tail);
      const first = await connection.response();
      expect(first?.status, first?.body).toBe(202);
      expect(JSON.parse(first!.body).disposition).toBe('queued');
      const second = await connection.response();
      expectError(second, status, code);
      expect(second.headers.connection).toBe('close');
      expect(await connection.closedByServer()).toBe(true);
    } finally {
      connection.close();
    }
  });

  it.each([
    ['a chunk size that is not hex', 'zz\r\n'],
    ['a chunk without its CRLF', '5\r\n{"a":QQ'],
  ])('answers a command whose chunked body breaks off with %s: 400 bad_request at once, then closes', async (_name, tail) => {
    const connection = await RawConnection.open(server.url);
    try {
      await connection.send(req('POST', '/v1/commands/message.send', { ...auth(), 'content-type': 'application/json', 'transfer-encoding': 'chunked' }) + tail);
      const res = await connection.response({ timeoutMs: 3_000 });
      expectError(res, 400, 'bad_request');
      expect(await connection.closedByServer()).toBe(true);
    } finally {
      connection.close();
    }
  });

  it('answers a raw non-ASCII byte in the path with 400 and Connection: close, then closes', async () => {
    const connection = await RawConnection.open(server.url);
    await connection.send(Buffer.from('GET /v1/commands/\xff HTTP/1.1\r\nHost: x\r\n\r\n', 'latin1'));
    const res = await connection.response();
    expectError(res, 400, 'bad_request');
    expect(res.headers.connection).toBe('close');
    expect(await connection.closedByServer()).toBe(true);
    expect(connection.reset).toBe(false);
  });

  it('keeps the connection open after every answer that does not say Connection: close', async () => {
    const connection = await RawConnection.open(server.url);
    try {
      for (const path of ['/v1/commands/%', '/v1/commands/not-a-uuid', '/v1/nope']) {
        await connection.send(req('GET', path, auth()));
        const res = await connection.response();
        expect(res?.headers.connection).not.toBe('close');
      }
      await connection.send(req('GET', '/v1/conversations', auth()));
      expect((await connection.response())?.status).toBe(200);
    } finally {
      connection.close();
    }
  });
});

describe('the command read (item 8)', () => {
  it('answers GET of a malformed commandId with 404 command_not_found', async () => {
    const res = await rawExchange(server.url, req('GET', '/v1/commands/not-a-uuid', auth()));
    expectError(res, 404, 'command_not_found');
    expectSpecResponse('/v1/commands/{commandId}', 'get', 404, JSON.parse(res.body), res.headers);
  });
});

describe('an oversized body gets its 400 (item 9)', () => {
  // node:http's client, as a client would use it: sends 2 MB chunked at full speed.
  function uploadChunked(bytes: number): Promise<{ status: number; body: any; connection: string | undefined; headers: Record<string, string> }> {
    return new Promise((resolve, reject) => {
      const { hostname, port } = new URL(server.url);
      const request = httpRequest({ host: hostname, port, method: 'POST', path: '/v1/commands/message.send', headers: { ...auth(), 'content-type': 'application/json' } }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (c: string) => (text += c));
        response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text), connection: response.headers.connection, headers: response.headers as Record<string, string> }));
      });
      request.on('error', reject);
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent < bytes) {
          sent += chunk.length;
          if (!request.write(chunk)) return void request.once('drain', pump);
        }
        request.end();
      };
      pump();
    });
  }

  it('answers 400 body_too_large with Connection: close to every 2 MB chunked upload', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await uploadChunked(2 << 20);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('body_too_large');
      expect(res.connection).toBe('close');
      expectSpecResponse('/v1/commands/message.send', 'post', 400, res.body, res.headers);
    }
  });

  it('answers a declared Content-Length over the limit before the body arrives', async () => {
    const connection = await RawConnection.open(server.url);
    await connection.send(req('POST', '/v1/commands/message.send', { ...auth(), 'content-type': 'application/json', 'content-length': String(2 << 20) }));
    const res = await connection.response();
    expectError(res, 400, 'body_too_large');
    expect(res.headers.connection).toBe('close');
    connection.close();
  });
});

describe('methods and request targets on the command path (item 10)', () => {
  it.each(['PROPFIND', 'MKCOL', 'PURGE', 'QUERY', 'HEAD'])('answers %s with 405 and Allow: POST', async (method) => {
    const res = await rawExchange(server.url, req(method, '/v1/commands/message.send', auth()), { head: method === 'HEAD' });
    expect(res?.status).toBe(405);
    expect(res?.headers.allow).toBe('POST');
    if (method !== 'HEAD') expectError(res, 405, 'method_not_allowed');
  });

  it('answers a method node:http does not know, and CONNECT, with 501 not_implemented', async () => {
    expectError(await rawExchange(server.url, req('FROB', '/v1/commands/message.send', auth())), 501, 'not_implemented');
    expectError(await rawExchange(server.url, req('CONNECT', 'switchboard.test:443')), 501, 'not_implemented');
  });

  it('accepts an absolute-form request target on the command path', async () => {
    const body = direct();
    const res = await rawExchange(server.url, req('POST', `${server.url}/v1/commands/message.send`, { ...auth(), 'content-type': 'application/json', 'content-length': String(body.length) }, body));
    expect(res?.status, res?.body).toBe(202);
    expectSpecResponse('/v1/commands/message.send', 'post', 202, JSON.parse(res!.body), res!.headers);
  });
});

describe('paths and header blocks (item 11)', () => {
  it('gives a long segment its route answer, not 414', async () => {
    const long = 'a'.repeat(300);
    expectError(await rawExchange(server.url, req('GET', `/v1/conversations/${long}`, auth())), 400, 'invalid_conversationId');
    expectError(await rawExchange(server.url, req('GET', `/v1/attachments/${long}`, auth())), 404, 'attachment_not_found');
    expectError(await rawExchange(server.url, req('GET', `/v1/commands/${long}`, auth())), 404, 'command_not_found');
  });

  it.each(['%00', 'a%00b', '%C3%A9', 'a.b'])('answers an attachment id no upload could have (%s) with 404 attachment_not_found', async (id) => {
    expectError(await rawExchange(server.url, req('GET', `/v1/attachments/${id}`, auth())), 404, 'attachment_not_found');
  });

  it('answers a header block over 16 KiB with 431 headers_too_large and Connection: close', async () => {
    const res = await rawExchange(server.url, req('GET', '/v1/conversations', { ...auth(), 'x-padding': 'a'.repeat(20_000) }));
    expectError(res, 431, 'headers_too_large');
    expect(res.headers.connection).toBe('close');
    const path = await rawExchange(server.url, req('GET', `/v1/conversations?cursor=${'a'.repeat(20_000)}`, auth()));
    expectError(path, 431, 'headers_too_large');
  });

  it('answers an HTTP/1.1 request without Host with 400 bad_request', async () => {
    expectError(await rawExchange(server.url, 'GET /v1/conversations HTTP/1.1\r\n\r\n'), 400, 'bad_request');
  });

  // RFC 9112 §3.2: more than one Host line, or a Host that is not uri-host [ ":" port ], is a 400.
  it.each([
    ['two Host lines', 'Host: a\r\nHost: b\r\n'],
    ['two Host lines, the same value', 'Host: a\r\nhost: a\r\n'],
    ['a space in Host', 'Host: a b\r\n'],
    ['a "/" in Host', 'Host: a/b\r\n'],
    ['an "@" in Host', 'Host: user@a\r\n'],
    ['a port that is not digits', 'Host: a:80x\r\n'],
  ])('answers a request with %s with 400 bad_request', async (_name, host) => {
    const { authorization } = auth();
    for (const [method, path, body] of [['GET', '/v1/conversations', ''], ['POST', '/v1/commands/message.send', direct()]] as const) {
      const head = `${method} ${path} HTTP/1.1\r\n${host}authorization: ${authorization}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`;
      expectError(await rawExchange(server.url, head + body), 400, 'bad_request');
    }
  });

  // node:http keeps the first Authorization line; a proxy in front may have checked the last.
  it.each([
    ['the same key twice', (key: string) => [key, key]],
    ['a key, then another', (key: string) => [key, 'Bearer sb_other']],
    ['another, then a key', (key: string) => ['Bearer sb_other', key]],
  ])('answers a request with two Authorization lines (%s) with 400 bad_request, on every route', async (_name, lines) => {
    const { authorization } = auth();
    const auths = lines(authorization).map((line) => `Authorization: ${line}\r\n`).join('');
    for (const [method, path, body] of [['GET', '/v1/conversations', ''], ['POST', '/v1/commands/message.send', direct()], ['POST', '/v1/connector/lease', '{}']] as const) {
      const head = `${method} ${path} HTTP/1.1\r\nHost: x\r\n${auths}content-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`;
      const res = await rawExchange(server.url, head + body);
      expectError(res, 400, 'bad_request');
      expect(JSON.parse(res.body).message).toMatch(/one Authorization header/);
    }
  });

  it.each(['switchboard.test', 'switchboard.test:8080', '127.0.0.1:1', '[::1]:8787', 'xn--bcher-kva.example', ''])('accepts Host: %j', async (host) => {
    const res = await rawExchange(server.url, `GET /v1/conversations HTTP/1.1\r\nHost: ${host}\r\nauthorization: ${auth().authorization}\r\n\r\n`);
    expect(res?.status, res?.body).toBe(200);
  });

  // A request target never carries a fragment (RFC 9112 §3.2); the router used to cut the path at
  // `#` and answer the shorter route (`/v1/conversations/#/x` listed the conversations).
  it.each([
    ['GET', '/v1/conversations/#/x'],
    ['DELETE', '/v1/webhook-endpoints/#/test'],
    ['GET', '/v1/commands/#'],
    ['POST', '/v1/commands/message.send#x'],
  ])('answers %s %s, a target with "#", with 400 bad_request', async (method, path) => {
    const res = await rawExchange(server.url, req(method, path, { ...auth(), 'content-type': 'application/json', 'content-length': String(direct().length) }, direct()));
    expectError(res, 400, 'bad_request');
  });
});

describe('bodies (item 12)', () => {
  const sendBytes = (bytes: Buffer, extra: Record<string, string> = {}) => {
    const head = req('POST', '/v1/commands/message.send', { ...auth(), 'content-type': 'application/json', 'content-length': String(bytes.length), ...extra });
    return rawExchange(server.url, Buffer.concat([Buffer.from(head, 'latin1'), bytes]));
  };

  it.each([
    ['FF FE', [0xff, 0xfe]],
    ['overlong C0 AF', [0xc0, 0xaf]],
    ['lone surrogate ED A0 80', [0xed, 0xa0, 0x80]],
  ])('answers invalid UTF-8 (%s) in a string with 400 body_not_object', async (_name, bad) => {
    const [before, after] = direct().split('hi');
    const res = await sendBytes(Buffer.concat([Buffer.from(before!), Buffer.from(bad), Buffer.from(after!)]));
    expectError(res, 400, 'body_not_object');
    expectSpecResponse('/v1/commands/message.send', 'post', 400, JSON.parse(res.body), res.headers);
  });

  it('answers a Content-Encoding with 415 and Accept-Encoding: identity', async () => {
    for (const coding of ['gzip', 'br', 'deflate', 'x-unknown']) {
      const res = await sendBytes(Buffer.from(direct()), { 'content-encoding': coding });
      expectError(res, 415, 'unsupported_media_type');
      expect(res.headers['accept-encoding']).toBe('identity');
    }
    const identity = await sendBytes(Buffer.from(direct()), { 'content-encoding': 'identity' });
    expect(identity?.status).toBe(202);
  });

  it.each(['gzip', 'gzip, chunked', 'x-frob, chunked'])('answers Transfer-Encoding %j with 501 not_implemented', async (coding) => {
    const head = req('POST', '/v1/commands/message.send', { ...auth(), 'content-type': 'application/json', 'transfer-encoding': coding });
    const res = await rawExchange(server.url, `${head}2\r\n{}\r\n0\r\n\r\n`);
    expectError(res, 501, 'not_implemented');
    expect(res.headers.connection).toBe('close');
  });

  it('answers a __proto__ key below 64 levels with body_not_object, first in the spec order', async () => {
    let nested = '{"__proto__":{"x":1}}';
    for (let i = 0; i < 70; i++) nested = `{"a":${nested}}`;
    const res = await postCommand(server.url, acct.apiKey, 'message.send', `{"target":{"kind":"conversation","conversationId":"${acct.direct}"},"payload":{"text":"hi"},"deep":${nested}}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('body_not_object');
  });
});

describe('authentication and cursors (item 13)', () => {
  it('sends WWW-Authenticate: Bearer with every 401', async () => {
    const paths: [string, string][] = [
      ['POST', '/v1/commands/message.send'], ['PUT', '/v1/commands/message.send'], ['GET', '/v1/commands/not-a-uuid'],
      ['GET', '/v1/conversations'], ['GET', '/v1/events'], ['GET', '/v1/capabilities'], ['POST', '/v1/connector/lease'],
    ];
    for (const [method, path] of paths) {
      const res = await rawExchange(server.url, req(method, path, { authorization: 'Bearer nope', 'content-length': '0' }));
      expectError(res, 401, 'unauthenticated');
      expect(res.headers['www-authenticate'], `${method} ${path}`).toBe('Bearer');
    }
  });

  it('answers a cursor past 2^53 (past every event, so not in the log) with 410 cursor_expired, not a 400 or a 500', async () => {
    const res = await rawExchange(server.url, req('GET', '/v1/events?after=9223372036854775807', { ...auth(), accept: 'application/json' }));
    expect(res?.status).toBe(410);
    const body = JSON.parse(res!.body);
    expect(body).toMatchObject({ error: 'cursor_expired' });
    expectSpecResponse('/v1/events', 'get', 410, body, res!.headers);
  });
});

describe('U+0000 in a string the server stores as text (specs: "Text")', () => {
  const connector = (path: string, init: RequestInit) => fetch(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${acct.connectorKey}`, 'content-type': 'application/json', ...init.headers } });

  it('refuses a platform event with U+0000 with 400 invalid_request, and stores nothing of the batch', async () => {
    const events = [
      { type: 'conversation.appeared', externalId: 'nul-chat', conversationKind: 'direct', name: null, participants: ['+14155550123'] },
      { type: 'message.received', conversationExternalId: 'nul-chat', messageExternalId: 'nul-1', senderExternalId: '+14155550123', text: 'a\u0000b', attachments: [], receivedAt: new Date().toISOString() },
    ];
    const res = await connector('/v1/connector/platform-events', { method: 'POST', body: JSON.stringify({ epoch: acct.host.epoch, events }) });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_request', message: expect.stringContaining('U+0000') });
    expect(await server.services.store.findConversationByExternalId(acct.accountId, 'nul-chat')).toBeNull();
  });

  it('refuses a lease for a host id with U+0000 and an attachment file name with %00 with 400 invalid_request', async () => {
    const lease = await connector('/v1/connector/lease', { method: 'POST', body: JSON.stringify({ hostId: 'h\u0000', osMajorVersion: 15, capabilities: [] }) });
    expect(lease.status).toBe(400);
    const upload = await connector(`/v1/connector/attachments/nul-file?fileName=a%00b&epoch=${acct.host.epoch}`, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'hi' });
    expect(upload.status).toBe(400);
    expect(await upload.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('refuses a webhook endpoint with U+0000 in its description with 400 invalid_body', async () => {
    const body = JSON.stringify({ url: 'https://example.com/hook', description: 'd\u0000' });
    const res = await rawExchange(server.url, req('POST', '/v1/webhook-endpoints', { ...auth(), 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }, body));
    expectError(res, 400, 'invalid_body');
  });

  it('still takes a command whose payload text holds U+0000: it is stored as JSON text', async () => {
    const res = await postCommand(server.url, acct.apiKey, 'message.send', { target: { kind: 'conversation', conversationId: acct.direct }, payload: { text: 'a\u0000b' } });
    expect(res.status).toBe(202);
  });
});
