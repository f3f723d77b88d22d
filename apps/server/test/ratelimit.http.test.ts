import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectSpecResponse, ManualClock, postCommand, readyAccount, startTestServer, type TestServer } from './helpers.ts';
import { issueCredential } from '../src/auth/issue.ts';

const clock = new ManualClock();
let server: TestServer;
let acct: Awaited<ReturnType<typeof readyAccount>>;

beforeAll(async () => {
  server = await startTestServer({ leaseTtlMs: 24 * 3_600_000 }, clock);
  acct = await readyAccount(server);
});
afterAll(() => server.stopAndClean());

const body = () => ({ target: { kind: 'conversation', conversationId: acct.direct }, payload: { text: 'x' } });

describe('rate limit: at most 60 requests in any 60 seconds, per credential', () => {
  it('answers the 61st request with 429 rate_limited, Retry-After and RateLimit headers', async () => {
    for (let i = 0; i < 60; i++) {
      const ok = await postCommand(server.url, acct.apiKey, 'message.send', body());
      expect(ok.status).toBe(202);
      expect(ok.headers.get('ratelimit-policy')).toBe('"default";q=60;w=60');
      // t: seconds until the oldest counted request (at 0 s) leaves the window.
      expect(ok.headers.get('ratelimit')).toBe(`"default";r=${59 - i};t=${Math.ceil((60_000 - i * 100) / 1000)}`);
      clock.advance(100);
    }
    const limited = await postCommand(server.url, acct.apiKey, 'message.send', body());
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ error: 'rate_limited', retryAfterSeconds: 54 });
    expect(limited.headers.get('retry-after')).toBe('54');
    expect(limited.headers.get('ratelimit')).toBe('"default";r=0;t=54');
    expectSpecResponse('/v1/commands/message.send', 'post', 429, limited.body, limited.headers);
  });

  it('answers 429 before looking at the content type or the body', async () => {
    const wrongType = await fetch(`${server.url}/v1/commands/message.send`, { method: 'POST', headers: { authorization: `Bearer ${acct.apiKey}`, 'content-type': 'text/plain' }, body: 'x' });
    expect(wrongType.status).toBe(429);
    const tooLarge = await postCommand(server.url, acct.apiKey, 'message.send', 'x'.repeat(70_000));
    expect(tooLarge.status).toBe(429);
  });

  it('counts every outcome but 429: a rejected retry does not extend the wait', async () => {
    // Still inside the first window: each attempt is refused and none of them is counted.
    for (let i = 0; i < 5; i++) expect((await postCommand(server.url, acct.apiKey, 'message.send', body())).status).toBe(429);
    // The first counted request (t = 0) leaves the window at t = 60 s.
    clock.time += 60_000 - (clock.time - Date.UTC(2026, 0, 1));
    const freed = await postCommand(server.url, acct.apiKey, 'message.send', body());
    expect(freed.status).toBe(202);
    expect((await postCommand(server.url, acct.apiKey, 'message.send', body())).status).toBe(429);
  });

  it('counts 4xx answers too: a bad envelope spends a request', async () => {
    const { secret } = await issueCredential(server.services.store, acct.accountId, 'account', 'second', clock.now());
    for (let i = 0; i < 60; i++) expect((await postCommand(server.url, secret, 'message.send', {})).status).toBe(400);
    expect((await postCommand(server.url, secret, 'message.send', body())).status).toBe(429);
  });

  it('is counted per credential: another key of the same account has its own budget', async () => {
    const { secret } = await issueCredential(server.services.store, acct.accountId, 'account', 'third', clock.now());
    expect((await postCommand(server.url, secret, 'message.send', body())).status).toBe(202);
  });

  it('does not count what is refused before it: 401, 405 and unknown types', async () => {
    const { secret } = await issueCredential(server.services.store, acct.accountId, 'account', 'fourth', clock.now());
    for (let i = 0; i < 70; i++) {
      expect((await postCommand(server.url, secret, 'nope', body())).status).toBe(404);
    }
    const res = await postCommand(server.url, secret, 'message.send', body());
    expect(res.status).toBe(202);
    expect(res.headers.get('ratelimit')).toBe('"default";r=59;t=60');
  });

  it('sends RateLimit headers on every answer past the limit check, each one declared by the spec for its status', async () => {
    const { secret } = await issueCredential(server.services.store, acct.accountId, 'account', 'fifth', clock.now());
    const lonely = await server.account();
    const cases: Array<[string, () => Promise<{ status: number; body: any; headers: Headers }>]> = [
      ['202', () => postCommand(server.url, secret, 'message.send', body())],
      ['400', () => postCommand(server.url, secret, 'message.send', {})],
      ['404', () => postCommand(server.url, secret, 'message.send', { target: { kind: 'conversation', conversationId: '01900000-0000-7000-8000-000000000000' }, payload: { text: 'x' } })],
      ['415', () => postCommand(server.url, secret, 'message.send', body(), { 'content-type': 'text/plain' })],
      ['422', () => postCommand(server.url, secret, 'message.send', { target: { kind: 'recipient', recipientExternalId: 'nobody' }, payload: { text: 'x' } })],
      ['503', () => postCommand(server.url, lonely.apiKey, 'message.send', { target: { kind: 'recipient', recipientExternalId: '+14155550123' }, payload: { text: 'x' } })],
    ];
    for (const [status, call] of cases) {
      const res = await call();
      expect(res.status, status).toBe(Number(status));
      expect(res.headers.get('ratelimit-policy'), status).toBe('"default";q=60;w=60');
      expect(res.headers.get('ratelimit'), status).toMatch(/^"default";r=\d+;t=\d+$/);
      expectSpecResponse('/v1/commands/message.send', 'post', res.status, res.body, res.headers);
    }
  });
});
