import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get as httpGet, type ClientRequest } from 'node:http';
import { expectSpecHeaders, expectSpecResponse, ManualClock, postCommand, readyAccount, startTestServer, type TestServer } from './helpers.ts';
import { issueCredential } from '../src/auth/issue.ts';

// The spec's "Abuse limits", at their default values: these tests pin the numbers it states.
const clock = new ManualClock();
let server: TestServer;
let acct: Awaited<ReturnType<typeof readyAccount>>;

beforeAll(async () => {
  server = await startTestServer({ leaseTtlMs: 24 * 3_600_000 }, clock);
  acct = await readyAccount(server);
});
afterAll(() => server.stopAndClean());

const read = (key: string, path = '/v1/conversations', extra: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}`, ...extra } });

async function newKey(): Promise<string> {
  return (await issueCredential(server.services.store, acct.accountId, 'account', 'extra', clock.now())).secret;
}

/** Opens an SSE stream and resolves once its head arrived, with its status; `close` ends it. */
function openStream(key: string): Promise<{ status: number; request: ClientRequest; headers: Headers; body: () => Promise<unknown> }> {
  return new Promise((resolve, reject) => {
    const request = httpGet(`${server.url}/v1/events`, { agent: false, headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' } }, (response) => {
      const headers = new Headers(Object.entries(response.headers).map(([k, v]) => [k, String(v)]));
      const body = () => new Promise<unknown>((done) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk) => (text += chunk)).on('end', () => done(JSON.parse(text)));
      });
      resolve({ status: response.statusCode!, request, headers, body });
    });
    request.on('error', reject);
  });
}

describe('reads: 600 per credential in any 60 seconds ("read"), a budget apart from commands', () => {
  it('answers the 601st read with 429 rate_limited, Retry-After and the read policy; the 429 is not counted', async () => {
    const key = await newKey();
    const start = clock.time;
    const paths = ['/v1/conversations', `/v1/conversations/${acct.direct}`, '/v1/capabilities', '/v1/events', `/v1/commands/${'0'.repeat(8)}`];
    for (let i = 0; i < 600; i++) {
      const res = await read(key, paths[i % paths.length]!);
      expect(res.status, paths[i % paths.length]).toBeLessThan(429);
      expect(res.headers.get('ratelimit-policy')).toBe('"read";q=600;w=60');
      expect(res.headers.get('ratelimit')).toBe(`"read";r=${599 - i};t=${Math.ceil((60_000 - (clock.time - start)) / 1000)}`);
      await res.arrayBuffer();
      if (i % 100 === 99) clock.advance(1_000);
    }
    const limited = await read(key);
    expect(limited.status).toBe(429);
    const body = await limited.json();
    // Six clock seconds went by while reading: the oldest read leaves the window in 54.
    expect(body).toMatchObject({ error: 'rate_limited', retryAfterSeconds: 54 });
    expect(limited.headers.get('retry-after')).toBe('54');
    expect(limited.headers.get('ratelimit')).toBe('"read";r=0;t=54');
    expectSpecResponse('/v1/conversations', 'get', 429, body, limited.headers);
    // Every read route and the SSE form answer the same way.
    for (const path of paths) expect((await read(key, path)).status, path).toBe(429);
    expect((await openStream(key)).status).toBe(429);

    // The command budget is its own: commands still go through.
    const command = await postCommand(server.url, key, 'message.send', { target: { kind: 'conversation', conversationId: acct.direct }, payload: { text: 'x' } });
    expect(command.status).toBe(202);
    expect(command.headers.get('ratelimit-policy')).toBe('"default";q=60;w=60');

    // Refused reads were not counted: the 100 reads made at `start` leave the window 60 s later.
    clock.time = start + 60_000;
    const freed = await read(key);
    expect(freed.status).toBe(200);
    expect(freed.headers.get('ratelimit')).toBe('"read";r=99;t=1');
  });

  it('is counted per credential: another key of the same account has its own budget', async () => {
    const res = await read(await newKey());
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit')).toBe('"read";r=599;t=60');
  });
});

describe('open streams: at most 5 per credential', () => {
  it('answers a sixth with 429 too_many_streams and no Retry-After; closing one frees a slot', async () => {
    const key = await newKey();
    const streams = [];
    for (let i = 0; i < 5; i++) {
      const s = await openStream(key);
      expect(s.status).toBe(200);
      expectSpecHeaders('/v1/events', 'get', 200, s.headers);
      streams.push(s);
    }
    const sixth = await openStream(key);
    expect(sixth.status).toBe(429);
    expect(sixth.headers.get('retry-after')).toBeNull();
    const body = await sixth.body();
    expect(body).toMatchObject({ error: 'too_many_streams' });
    expectSpecResponse('/v1/events', 'get', 429, body, sixth.headers);
    // Another credential has its own slots; the JSON form is not a stream.
    expect((await openStream(await newKey())).status).toBe(200);
    expect((await read(key, '/v1/events', { accept: 'application/json' })).status).toBe(200);

    streams.pop()!.request.destroy();
    // The server sees the close on its own socket: retry until it has, rather than wait for time.
    await expect.poll(async () => {
      const s = await openStream(key);
      s.request.destroy();
      return s.status;
    }).toBe(200);
    for (const s of streams) s.request.destroy();
  });
});

describe('failed authentication: 20 per client address in any 60 seconds ("auth")', () => {
  it('past 20 unknown keys, every request presenting a credential is 429 before the key is looked up; no credential stays 401', async () => {
    const s = await startTestServer({ leaseTtlMs: 24 * 3_600_000 }, clock);
    try {
      const a = await readyAccount(s);
      const start = clock.time;
      // Failures on any public route count alike: command POSTs and reads (a connector key on the
      // public API is of the wrong kind). The connector protocol is exempt: never counted.
      const lease = () => fetch(`${s.url}/v1/connector/lease`, { method: 'POST', headers: { authorization: `Bearer ${a.apiKey}`, 'content-type': 'application/json' }, body: '{}' });
      for (let i = 0; i < 25; i++) expect((await lease()).status).toBe(401);
      for (let i = 0; i < 20; i++) {
        const res = i % 3 === 0
          ? await postCommand(s.url, `sb_wrong${i}`, 'message.send', {})
          : i % 3 === 1
            ? await fetch(`${s.url}/v1/conversations`, { headers: { authorization: `Bearer sb_wrong${i}` } })
            : await fetch(`${s.url}/v1/conversations`, { headers: { authorization: `Bearer ${a.connectorKey}` } });
        expect(res.status, String(i)).toBe(401);
        expect(res.headers.get('www-authenticate')).toBe('Bearer');
        clock.advance(100);
      }
      const guess = await postCommand(s.url, 'sb_wrong-again', 'message.send', {});
      expect(guess.status).toBe(429);
      expect(guess.body).toMatchObject({ error: 'rate_limited', retryAfterSeconds: 58 });
      expect(guess.headers.get('retry-after')).toBe('58');
      expect(guess.headers.get('ratelimit-policy')).toBe('"auth";q=20;w=60');
      expect(guess.headers.get('ratelimit')).toBe('"auth";r=0;t=58');
      expectSpecResponse('/v1/commands/message.send', 'post', 429, guess.body, guess.headers);

      // A right guess is refused the same way: the answer says nothing about the key.
      const right = await postCommand(s.url, a.apiKey, 'message.send', { target: { kind: 'conversation', conversationId: a.direct }, payload: { text: 'x' } });
      expect(right.status).toBe(429);
      const rightRead = await fetch(`${s.url}/v1/conversations`, { headers: { authorization: `Bearer ${a.apiKey}` } });
      expect(rightRead.status).toBe(429);
      expectSpecResponse('/v1/conversations', 'get', 429, await rightRead.json(), rightRead.headers);
      // A connector host on the same address keeps working: it settles, so commands never stay queued.
      const settle = await fetch(`${s.url}/v1/connector/settlements`, {
        method: 'POST',
        headers: { authorization: `Bearer ${a.connectorKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ epoch: a.host.epoch, commandId: '01900000-0000-7000-8000-000000000001', status: 'succeeded', errorCode: null }),
      });
      expect(settle.status).toBe(404);
      expect((await lease()).status).toBe(401);

      // No credential guesses nothing: the seed's 401, never counted, never 429.
      const none = await postCommand(s.url, '', 'message.send', {}, { authorization: '' });
      expect(none.status).toBe(401);
      expect(none.body.error).toBe('unauthenticated');
      expectSpecResponse('/v1/commands/message.send', 'post', 401, none.body, none.headers);

      // The 429s were not counted: the first failure (at start) leaves the window at start + 60 s.
      clock.time = start + 60_000;
      const after = await postCommand(s.url, a.apiKey, 'message.send', { target: { kind: 'conversation', conversationId: a.direct }, payload: { text: 'x' } });
      expect(after.status).toBe(202);
      // One failure slot is free again, and only one.
      expect((await postCommand(s.url, 'sb_wrong-later', 'message.send', {})).status).toBe(401);
      expect((await postCommand(s.url, 'sb_wrong-later', 'message.send', {})).status).toBe(429);
    } finally {
      await s.stopAndClean();
    }
  });

  it('known keys are never counted: 100 good requests leave the address unthrottled', async () => {
    const s = await startTestServer({ leaseTtlMs: 24 * 3_600_000, readRateLimit: 0 }, clock);
    try {
      const a = await readyAccount(s);
      for (let i = 0; i < 100; i++) expect((await fetch(`${s.url}/v1/conversations`, { headers: { authorization: `Bearer ${a.apiKey}` } })).status).toBe(200);
      for (let i = 0; i < 20; i++) expect((await fetch(`${s.url}/v1/conversations`, { headers: { authorization: 'Bearer sb_nope' } })).status).toBe(401);
      expect((await fetch(`${s.url}/v1/conversations`, { headers: { authorization: 'Bearer sb_nope' } })).status).toBe(429);
    } finally {
      await s.stopAndClean();
    }
  });
});
