import { describe, expect, it } from 'vitest';
import { SwitchboardClient, type ClientOptions } from './client.ts';
import { SwitchboardError, SwitchboardNetworkError, UnexpectedResponseError } from './errors.ts';
import { TestClock } from '../test/support/clock.ts';
import { ack, connectionRefused, connectionReset, errorBody, hangingFetch, json, scriptedFetch, type Step } from '../test/support/fetch.ts';

const conversationId = '0190b7a4-0000-7000-8000-0000000000c1';
const toConversation = { target: { kind: 'conversation' as const, conversationId }, payload: { text: 'hi' } };
const toRecipient = { target: { kind: 'recipient' as const, recipientExternalId: '+14155550123' }, payload: { text: 'hi' } };
const groupCreate = { target: { kind: 'participants' as const, participantExternalIds: ['+14155550123'] }, payload: { text: 'hello all' } };

function setup(steps: Step[], options: Partial<ClientOptions> = {}) {
  const clock = new TestClock();
  const scripted = scriptedFetch(...steps);
  let keys = 0;
  const client = new SwitchboardClient({
    baseUrl: 'http://switchboard.test',
    apiKey: 'sk_test',
    fetch: scripted.fetch,
    clock,
    random: () => 0.5,
    idempotencyKey: () => `key-${++keys}`,
    ...options,
  });
  return { client, clock, requests: scripted.requests, remaining: scripted.remaining };
}

const key = (request: Request | undefined) => request?.headers.get('idempotency-key');

describe('commands', () => {
  it('posts the envelope to /v1/commands/{type} with the API key and returns the acknowledgement', async () => {
    const { client, clock, requests } = setup([ack('0190b7a4-0000-7000-8000-0000000000a1')]);
    const acknowledgement = await clock.run(client.applyTapback({ target: { kind: 'conversation', conversationId }, payload: { messageExternalId: 'm1', tapback: 'love' } }));
    expect(acknowledgement).toEqual({ commandId: '0190b7a4-0000-7000-8000-0000000000a1', status: 'queued', disposition: 'queued' });
    const [request] = requests;
    expect(request!.method).toBe('POST');
    expect(new URL(request!.url).pathname).toBe('/v1/commands/reaction.tapback');
    expect(request!.headers.get('authorization')).toBe('Bearer sk_test');
    expect(request!.headers.get('content-type')).toBe('application/json');
    expect(await request!.json()).toEqual({ target: { kind: 'conversation', conversationId }, payload: { messageExternalId: 'm1', tapback: 'love' } });
  });

  it('sends a generated Idempotency-Key on every agent-turn command, and a caller key as given', async () => {
    const { client, clock, requests } = setup([ack(), ack(), ack(), ack(), ack()]);
    await clock.run(client.sendMessage(toConversation));
    await clock.run(client.applyTapback({ target: toConversation.target, payload: { messageExternalId: 'm1', tapback: 'like' } }));
    await clock.run(client.applyReaction({ target: toConversation.target, payload: { tapback: 'laugh' } }));
    await clock.run(client.shareNamePhoto({ target: toConversation.target, payload: {} }));
    await clock.run(client.sendMessage(toConversation, { idempotencyKey: 'inbound-m42-reply' }));
    expect(requests.map(key)).toEqual(['key-1', 'key-2', 'key-3', 'key-4', 'inbound-m42-reply']);
  });

  it('sends no Idempotency-Key on the admin path, where the service ignores it', async () => {
    const { client, clock, requests } = setup([ack(), ack(), ack(), ack()]);
    await clock.run(client.sendMessage(toRecipient));
    await clock.run(client.createGroup(groupCreate));
    await clock.run(client.updateGroup({ target: toConversation.target, payload: { action: 'rename', name: 'Team' } }));
    await clock.run(client.leaveGroup({ target: toConversation.target, payload: {} }));
    expect(requests.map(key)).toEqual([null, null, null, null]);
    expect(requests.map((r) => new URL(r.url).pathname)).toEqual(['/v1/commands/message.send', '/v1/commands/group.create', '/v1/commands/group.update', '/v1/commands/group.leave']);
  });
});

describe('retries on the agent-turn path', () => {
  it('honours Retry-After on 429 and reuses the Idempotency-Key', async () => {
    const { client, clock, requests } = setup([errorBody(429, 'rate_limited', { retryAfterSeconds: 7 }, { 'retry-after': '7' }), ack()]);
    await clock.run(client.sendMessage(toConversation));
    expect(requests).toHaveLength(2);
    expect(requests.map(key)).toEqual(['key-1', 'key-1']);
    // Retry-After (7 s) plus jitter of half a base step (random = 0.5, base 500 ms).
    expect(clock.fired).toEqual([7_250]);
  });

  it('backs off exponentially on 503 without Retry-After', async () => {
    const { client, clock, requests } = setup([errorBody(503, 'no_live_connector'), errorBody(503, 'no_live_connector'), ack()]);
    await clock.run(client.applyReaction({ target: toConversation.target, payload: { tapback: 'love' } }));
    expect(requests).toHaveLength(3);
    expect(clock.fired).toEqual([250, 500]);
  });

  it('retries a dropped connection with the same key, so the service adopts the repeat', async () => {
    const { client, clock, requests } = setup([connectionReset(), ack('0190b7a4-0000-7000-8000-0000000000a1', 'adopted')]);
    const acknowledgement = await clock.run(client.sendMessage(toConversation));
    expect(acknowledgement.disposition).toBe('adopted');
    expect(requests.map(key)).toEqual(['key-1', 'key-1']);
  });

  it('retries a 500 and a proxy 502', async () => {
    const { client, clock, requests } = setup([errorBody(500, 'internal'), new Response('<html>bad gateway</html>', { status: 502 }), ack()]);
    await clock.run(client.shareNamePhoto({ target: toConversation.target, payload: {} }));
    expect(requests).toHaveLength(3);
  });

  it('retries a timed-out attempt', async () => {
    const hang = hangingFetch();
    const { client, clock, requests } = setup([(r) => hang(r), ack()], { timeoutMs: 5_000, random: () => 0 });
    await clock.run(client.sendMessage(toConversation));
    expect(requests.map(key)).toEqual(['key-1', 'key-1']);
    // The attempt's 5 s timeout fired, then a backoff of 0 (random = 0).
    expect(clock.fired).toEqual([5_000, 0]);
  });

  it('stops after maxRetries and throws the last error', async () => {
    const { client, clock, requests } = setup([errorBody(503, 'no_live_connector'), errorBody(503, 'no_live_connector'), errorBody(503, 'no_live_connector')], { retry: { maxRetries: 2 } });
    const error = await clock.run(client.sendMessage(toConversation)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SwitchboardError);
    expect((error as SwitchboardError).code).toBe('no_live_connector');
    expect(requests).toHaveLength(3);
  });

  it('does not wait for a Retry-After longer than maxDelayMs', async () => {
    const { client, clock, requests } = setup([errorBody(503, 'outbound_paused', {}, { 'retry-after': '30' })], { retry: { maxDelayMs: 10_000 } });
    const error = await clock.run(client.sendMessage(toConversation)).catch((e: unknown) => e);
    expect((error as SwitchboardError).code).toBe('outbound_paused');
    expect((error as SwitchboardError).retryAfterMs).toBe(30_000);
    expect(requests).toHaveLength(1);
    expect(clock.fired).toEqual([]);
  });

  it('never retries a 4xx', async () => {
    const { client, clock, requests } = setup([errorBody(404, 'conversation_not_found')]);
    await expect(clock.run(client.sendMessage(toConversation))).rejects.toMatchObject({ code: 'conversation_not_found', status: 404 });
    expect(requests).toHaveLength(1);
  });

  it('stops waiting when the caller aborts during a backoff', async () => {
    const controller = new AbortController();
    const { client, clock, requests } = setup([
      () => {
        queueMicrotask(() => controller.abort(new Error('caller gave up')));
        return errorBody(503, 'no_live_connector');
      },
    ]);
    await expect(clock.run(client.sendMessage(toConversation, { signal: controller.signal }))).rejects.toThrow('caller gave up');
    expect(requests).toHaveLength(1);
  });
});

describe('retries on the admin path', () => {
  const adminCalls = [
    ['recipient send', (c: SwitchboardClient) => c.sendMessage(toRecipient)],
    ['group.create', (c: SwitchboardClient) => c.createGroup(groupCreate)],
    ['group.update', (c: SwitchboardClient) => c.updateGroup({ target: toConversation.target, payload: { action: 'rename', name: 'x' } })],
    ['group.leave', (c: SwitchboardClient) => c.leaveGroup({ target: toConversation.target, payload: {} })],
  ] as const;

  for (const [name, send] of adminCalls) {
    it(`${name}: not retried after a dropped connection (the service may have acted)`, async () => {
      const { client, clock, requests } = setup([connectionReset(), ack()]);
      const error = await clock.run(send(client)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SwitchboardNetworkError);
      expect((error as SwitchboardNetworkError).mayHaveReachedServer).toBe(true);
      expect(requests).toHaveLength(1);
    });
  }

  it('is not retried after a timeout, a 500 or a proxy 503', async () => {
    for (const step of [errorBody(500, 'internal'), new Response('upstream unavailable', { status: 503 })] as Step[]) {
      const { client, clock, requests } = setup([step, ack()]);
      await expect(clock.run(client.createGroup(groupCreate))).rejects.toBeInstanceOf(Error);
      expect(requests).toHaveLength(1);
    }
    const clock = new TestClock();
    const fetch = scriptedFetch((r) => hangingFetch()(r), ack());
    const client = new SwitchboardClient({ baseUrl: 'http://switchboard.test', apiKey: 'k', fetch: fetch.fetch, clock, timeoutMs: 1_000 });
    await expect(clock.run(client.sendMessage(toRecipient))).rejects.toMatchObject({ reason: 'timeout', mayHaveReachedServer: true });
    expect(fetch.requests).toHaveLength(1);
  });

  it('is retried on 429, on a catalog 503 and on a refused connection: the service did nothing', async () => {
    const { client, clock, requests } = setup([
      errorBody(429, 'rate_limited', { retryAfterSeconds: 1 }, { 'retry-after': '1' }),
      errorBody(503, 'no_live_connector', {}, { 'retry-after': '5' }),
      connectionRefused(),
      ack(),
    ], { retry: { maxRetries: 3 } });
    await clock.run(client.sendMessage(toRecipient));
    expect(requests).toHaveLength(4);
    expect(clock.fired).toEqual([1_250, 5_250, 1_000]);
  });
});

describe('reads', () => {
  it('retries a dropped connection: a GET has no side effects', async () => {
    const command = { commandId: 'c1', status: 'queued' };
    const { client, clock, requests } = setup([connectionReset(), json(200, command)]);
    expect(await clock.run(client.getCommand('c1'))).toEqual(command);
    expect(requests).toHaveLength(2);
  });

  it("reads a page of a conversation's messages with limit and cursor", async () => {
    const page = { messages: [], nextCursor: 'c2' };
    const { client, clock, requests } = setup([json(200, page)]);
    expect(await clock.run(client.listMessages(conversationId, { limit: 20, cursor: 'c1' }))).toEqual(page);
    const url = new URL(requests[0]!.url);
    expect([url.pathname, url.searchParams.get('limit'), url.searchParams.get('cursor')]).toEqual([`/v1/conversations/${conversationId}/messages`, '20', 'c1']);
  });

  it('reads an attachment as bytes with its media type and file name', async () => {
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    const { client, clock } = setup([new Response(bytes, { headers: { 'content-type': 'image/png', 'content-disposition': 'attachment; filename="cat.png"' } })]);
    expect(await clock.run(client.getAttachment('att1'))).toEqual({ bytes, mimeType: 'image/png', fileName: 'cat.png' });
  });
});

describe('errors', () => {
  it('carries status, code, message, request id and the raw body (422: field and reason)', async () => {
    const body = { error: 'invalid_recipient_address', message: 'not an address', field: '/target/recipientExternalId', reason: 'not_a_phone_number_or_email', requestId: 'req-9' };
    const { client, clock } = setup([json(422, body)]);
    const error = (await clock.run(client.sendMessage(toRecipient)).catch((e: unknown) => e)) as SwitchboardError;
    expect(error).toBeInstanceOf(SwitchboardError);
    expect(error).toMatchObject({ status: 422, code: 'invalid_recipient_address', requestId: 'req-9', retry: 'never' });
    expect(error.message).toContain('not an address');
    expect(error.body).toEqual(body);
    if (error.body.error === 'invalid_recipient_address') expect(error.body.field).toBe('/target/recipientExternalId');
  });

  it('falls back to X-Request-Id when the body has no requestId', async () => {
    const { client, clock } = setup([json(401, { error: 'unauthenticated', message: 'no key' }, { 'x-request-id': 'req-h' })]);
    await expect(clock.run(client.getCapabilities())).rejects.toMatchObject({ code: 'unauthenticated', requestId: 'req-h' });
  });

  it('reports a response that is not the service\'s as UnexpectedResponseError', async () => {
    const { client, clock } = setup([new Response('<html>teapot</html>', { status: 418 })]);
    const error = await clock.run(client.getCapabilities()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as UnexpectedResponseError).status).toBe(418);
  });
});
