import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { eventSchemas, type ConnectorComponents } from '@switchboard/contracts';
import { get as httpGet, type ClientRequest, type IncomingMessage } from 'node:http';
import { createIdSource } from '../src/ids.ts';
import { expectSpecHeaders, expectSpecResponse, openapiParameter, headers, ManualClock, postCommand, readyAccount, startTestServer, type TestServer } from './helpers.ts';

const newId = createIdSource().next;

type Ready = Awaited<ReturnType<typeof readyAccount>>;
type Envelope = { id: string; type: string; time: string; account: string; data: any };

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ rateLimit: 0 });
});
afterAll(() => server.stopAndClean());

// ---------------------------------------------------------------------------------------------
// A small Server-Sent Events reader: every block up to a blank line is one message, a comment
// (`: text`) or an event with its id, event and data fields. It runs on node:http with a socket of
// its own rather than on fetch: fetch's pool reopens a connection when a streaming response is
// aborted, and the server's close then waits for that idle socket.

type SseMessage =
  | { kind: 'comment'; text: string; raw: string; retry?: string }
  | { kind: 'event'; id: string | undefined; event: string | undefined; data: string; raw: string };

class SseReader {
  private buffer = '';
  private readonly queue: SseMessage[] = [];
  private waiter: (() => void) | null = null;
  private ended = false;

  private readonly request: ClientRequest;

  private constructor(request: ClientRequest, response: IncomingMessage) {
    this.request = request;
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      this.buffer += chunk;
      let end: number;
      while ((end = this.buffer.indexOf('\n\n')) !== -1) {
        this.queue.push(parseBlock(this.buffer.slice(0, end)));
        this.buffer = this.buffer.slice(end + 2);
      }
      this.waiter?.();
    });
    response.on('close', () => {
      this.ended = true;
      this.waiter?.();
    });
  }

  static open(url: string, key: string, options: { after?: string; lastEventId?: string } = {}): Promise<SseReader> {
    const query = options.after === undefined ? '' : `?after=${options.after}`;
    return new Promise((resolve, reject) => {
      const request = httpGet(
        `${url}/v1/events${query}`,
        {
          agent: false,
          headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream', ...(options.lastEventId === undefined ? {} : { 'last-event-id': options.lastEventId }) },
        },
        (response) => {
          try {
            expect(response.statusCode).toBe(200);
            expect(response.headers['content-type']).toMatch(/^text\/event-stream/);
            expectSpecHeaders('/v1/events', 'get', 200, response.headers as Record<string, string>);
            resolve(new SseReader(request, response));
          } catch (error) {
            request.destroy();
            reject(error);
          }
        },
      );
      request.on('error', reject);
    });
  }

  /** The next message, whatever its kind. */
  async message(timeoutMs = 10_000): Promise<SseMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const next = this.queue.shift();
      if (next) return next;
      if (this.ended) throw new Error('the stream ended');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no SSE message within ${timeoutMs} ms`);
      // A safety net against a hang, not a wait for work: every chunk wakes us.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.waiter = null;
    }
  }

  /** The next event (comments skipped). */
  async event(): Promise<Extract<SseMessage, { kind: 'event' }>> {
    for (;;) {
      const message = await this.message();
      if (message.kind === 'event') return message;
    }
  }

  /** The next `n` account events, parsed as envelopes and checked against the AsyncAPI schema. */
  async envelopes(n: number): Promise<Envelope[]> {
    const out: Envelope[] = [];
    while (out.length < n) {
      const message = await this.event();
      expect(message.event).not.toBe('reset');
      const envelope = JSON.parse(message.data) as Envelope;
      eventSchemas.zStreamEvent.parse(envelope);
      expect(message.id).toBe(envelope.id);
      expect(message.event).toBe(envelope.type);
      out.push(envelope);
    }
    return out;
  }

  close(): void {
    this.request.destroy();
  }
}

function parseBlock(block: string): SseMessage {
  const lines = block.split('\n');
  // A block of comments (and a `retry:` field, which dispatches no event) is a comment.
  const comments = lines.filter((line) => line.startsWith(':'));
  const retry = lines.filter((line) => line.startsWith('retry:'));
  if (comments.length + retry.length === lines.length) {
    const text = comments.map((l) => l.slice(1).trimStart()).join('\n');
    return retry.length ? { kind: 'comment', text, raw: block, retry: retry.at(-1)!.slice('retry:'.length).trim() } : { kind: 'comment', text, raw: block };
  }
  const fields: Record<string, string[]> = {};
  for (const line of lines) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const name = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    (fields[name] ??= []).push(value);
  }
  return { kind: 'event', id: fields.id?.at(-1), event: fields.event?.at(-1), data: (fields.data ?? []).join('\n'), raw: block };
}

// ---------------------------------------------------------------------------------------------

async function page(key: string, query = '', url = server.url): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${url}/v1/events${query}`, { headers: { authorization: `Bearer ${key}`, accept: 'application/json' } });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

/** Every event of the account after `after`, through the JSON form, checked against both specs. */
async function allEvents(key: string, after = '0', url = server.url): Promise<Envelope[]> {
  const out: Envelope[] = [];
  for (;;) {
    const res = await page(key, `?after=${after}&limit=1000`, url);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectSpecResponse('/v1/events', 'get', 200, res.body, res.headers);
    for (const envelope of res.body.events) eventSchemas.zStreamEvent.parse(envelope);
    out.push(...res.body.events);
    if (res.body.events.length === 0) return out;
    after = res.body.nextAfter;
  }
}

async function lastId(key: string): Promise<string> {
  const events = await allEvents(key);
  return events.at(-1)?.id ?? '0';
}

const conversationTarget = (conversationId: string, payload: unknown = { text: 'hello' }) => ({ target: { kind: 'conversation', conversationId }, payload });

async function externalIdOf(accountId: string, conversationId: string, s = server): Promise<string> {
  return (await s.services.store.getConversation(accountId, conversationId))!.externalId;
}

type Received = ConnectorComponents['schemas']['PlatformMessageReceived'];

function received(conversationExternalId: string, text: string, attachments: Received['attachments'] = []): Received {
  return { type: 'message.received', conversationExternalId, messageExternalId: `m-${newId()}`, senderExternalId: '+14155550123', text, attachments, receivedAt: new Date().toISOString() };
}

/** Queues a command and hands it to the account's host; returns its commandId. */
async function queueAndDispatch(a: Ready, type: string, body: unknown, extra: Record<string, string> = {}): Promise<string> {
  const res = await postCommand(server.url, a.apiKey, type, body, extra);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  const dispatched = await a.host.dispatch();
  expect(dispatched.map((c) => c.commandId)).toContain(res.body.commandId);
  return res.body.commandId;
}

// ---------------------------------------------------------------------------------------------

describe('command events: exactly one command.settled per settled command', () => {
  it('each settlement appends one command.settled with commandId, logicalActionId, status, errorCode, errorMessage, errorPath, commandType and routingPath', async () => {
    const a = await readyAccount(server);
    const before = await lastId(a.apiKey);
    const keyed = await queueAndDispatch(a, 'message.send', conversationTarget(a.direct), { 'idempotency-key': 'turn-1' });
    const plain = await queueAndDispatch(a, 'message.send', conversationTarget(a.direct));
    const admin = await queueAndDispatch(a, 'group.update', conversationTarget(a.group, { action: 'rename', name: 'Renamed' }), { 'idempotency-key': 'ignored-on-admin' });
    const rejected = await queueAndDispatch(a, 'message.send', conversationTarget(a.group, { text: 'to the group' }));

    expect((await a.host.settle(keyed, 'succeeded')).status).toBe(200);
    expect((await a.host.settle(plain, 'succeeded')).status).toBe(200);
    expect((await a.host.settle(admin, 'failed', 'group_update_unverified', { errorMessage: 'the rename could not be confirmed' })).status).toBe(200);
    expect((await a.host.settle(rejected, 'failed', 'gateway_rejected')).status).toBe(200);

    const settled = (await allEvents(a.apiKey, before)).filter((e) => e.type === 'command.settled');
    expect(settled.map((e) => e.data)).toEqual([
      { commandId: keyed, logicalActionId: 'turn-1', status: 'succeeded', errorCode: null, errorMessage: null, errorPath: null, commandType: 'message.send', routingPath: 'agent-turn', conversationId: a.direct },
      { commandId: plain, logicalActionId: plain, status: 'succeeded', errorCode: null, errorMessage: null, errorPath: null, commandType: 'message.send', routingPath: 'agent-turn', conversationId: a.direct },
      { commandId: admin, logicalActionId: admin, status: 'failed', errorCode: 'group_update_unverified', errorMessage: 'the rename could not be confirmed', errorPath: null, commandType: 'group.update', routingPath: 'admin', conversationId: a.group },
      { commandId: rejected, logicalActionId: rejected, status: 'failed', errorCode: 'gateway_rejected', errorMessage: null, errorPath: null, commandType: 'message.send', routingPath: 'agent-turn', conversationId: a.group },
    ]);
    for (const event of settled) {
      expect(eventSchemas.zCommandSettledEvent.parse(event).account).toBe(a.accountId);
    }
  });

  it('a repeated settlement answers 200 and adds no event; a conflicting one answers 409 already_settled', async () => {
    const a = await readyAccount(server);
    const id = await queueAndDispatch(a, 'message.send', conversationTarget(a.direct));
    const first = await a.host.settle(id, 'failed', 'accepted_echo_unconfirmed');
    expect(first).toEqual({ status: 200, body: { commandId: id, status: 'failed', errorCode: 'accepted_echo_unconfirmed' } });
    const after = await lastId(a.apiKey);

    const repeated = await a.host.settle(id, 'failed', 'accepted_echo_unconfirmed');
    expect(repeated).toEqual(first);
    for (const [status, code] of [['succeeded', null], ['failed', 'gateway_rejected']] as const) {
      const conflict = await a.host.settle(id, status, code);
      expect(conflict.status).toBe(409);
      expect((conflict.body as { error: string }).error).toBe('already_settled');
    }
    expect(await allEvents(a.apiKey, after)).toEqual([]);
    const command = await server.services.store.getCommand(a.accountId, id);
    expect(command).toMatchObject({ status: 'failed', errorCode: 'accepted_echo_unconfirmed' });
  });

  it('an adopted duplicate adds no work and no event, before or after the original settles', async () => {
    const a = await readyAccount(server);
    const before = await lastId(a.apiKey);
    const body = conversationTarget(a.direct);
    const original = await postCommand(server.url, a.apiKey, 'message.send', body, { 'idempotency-key': 'once' });
    const duplicate = await postCommand(server.url, a.apiKey, 'message.send', body, { 'idempotency-key': 'once' });
    expect(duplicate.body).toEqual({ commandId: original.body.commandId, status: 'queued', disposition: 'adopted' });
    const dispatched = await a.host.dispatch();
    expect(dispatched.map((c) => c.commandId)).toEqual([original.body.commandId]);
    await a.host.settle(original.body.commandId, 'succeeded');
    const late = await postCommand(server.url, a.apiKey, 'message.send', body, { 'idempotency-key': 'once' });
    expect(late.body).toEqual({ commandId: original.body.commandId, status: 'succeeded', disposition: 'adopted' });
    expect(await a.host.dispatch()).toEqual([]);

    const settled = (await allEvents(a.apiKey, before)).filter((e) => e.type === 'command.settled');
    expect(settled).toHaveLength(1);
    expect(settled[0]!.data).toMatchObject({ commandId: original.body.commandId, logicalActionId: 'once' });
  });

  it('a recipient send settles with the conversation it created, which appeared on the stream first', async () => {
    const a = await readyAccount(server);
    const before = await lastId(a.apiKey);
    const id = await queueAndDispatch(a, 'message.send', { target: { kind: 'recipient', recipientExternalId: 'new.friend@example.com' }, payload: { text: 'hi' } });
    await a.host.report([{ type: 'conversation.appeared', externalId: `chat-${newId()}`, conversationKind: 'direct', name: null, participants: ['new.friend@example.com'], commandId: id }]);
    await a.host.settle(id, 'succeeded');
    const [appeared, settled, ...rest] = await allEvents(a.apiKey, before);
    expect(rest).toEqual([]);
    expect(appeared!.type).toBe('conversation.appeared');
    expect(appeared!.data).toMatchObject({ kind: 'direct', participants: ['new.friend@example.com'], commandId: id });
    expect(settled!.data).toEqual({
      commandId: id, logicalActionId: id, status: 'succeeded', errorCode: null, errorMessage: null, errorPath: null, commandType: 'message.send', routingPath: 'admin', conversationId: appeared!.data.conversationId,
    });
  });
});

describe('platform events on the stream, in the AsyncAPI shapes', () => {
  it('conversation.appeared, message.received, message.sent, group.renamed and group.participants_changed', async () => {
    const a = await readyAccount(server);
    const before = await lastId(a.apiKey);
    const sent = await queueAndDispatch(a, 'message.send', conversationTarget(a.direct));
    const bytes = new Uint8Array(Array.from({ length: 3000 }, (_, i) => (i * 7) % 256));
    const upload = await fetch(`${server.url}/v1/connector/attachments/att-photo-1?fileName=photo.png&epoch=${a.host.epoch}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${a.connectorKey}`, 'content-type': 'image/png' },
      body: bytes,
    });
    expect(upload.status).toBe(201);

    const group = `chat-${newId()}`;
    const direct = await externalIdOf(a.accountId, a.direct);
    const attachment = { attachmentId: 'att-photo-1', fileName: 'photo.png', mimeType: 'image/png', byteSize: bytes.length };
    const inbound = { ...received(group, 'look at this', [attachment]), receivedAt: '2026-01-01T10:00:00.000Z' };
    await a.host.report([
      { type: 'conversation.appeared', externalId: group, conversationKind: 'group', name: 'Crew', participants: ['+14155550123', 'dana@example.com'] },
      inbound,
      { type: 'message.sent', conversationExternalId: direct, messageExternalId: 'out-1', commandId: sent },
      { type: 'group.renamed', conversationExternalId: group, name: 'Crew 2' },
      { type: 'group.participants_changed', conversationExternalId: group, added: ['eve@example.com'], removed: ['dana@example.com'], participants: ['+14155550123', 'eve@example.com'] },
    ]);

    const events = await allEvents(a.apiKey, before);
    expect(events.map((e) => e.type)).toEqual(['conversation.appeared', 'message.received', 'message.sent', 'group.renamed', 'group.participants_changed']);
    const conversationId = events[0]!.data.conversationId;
    expect(eventSchemas.zConversationAppearedEvent.parse(events[0]).data).toEqual({
      conversationId, kind: 'group', name: 'Crew', participants: ['+14155550123', 'dana@example.com'], commandId: null,
    });
    expect(eventSchemas.zMessageReceivedEvent.parse(events[1]).data).toEqual({
      conversationId, messageExternalId: inbound.messageExternalId, senderExternalId: '+14155550123', text: 'look at this', attachments: [attachment], receivedAt: inbound.receivedAt,
    });
    expect(eventSchemas.zMessageSentEvent.parse(events[2]).data).toEqual({ conversationId: a.direct, messageExternalId: 'out-1', commandId: sent });
    expect(eventSchemas.zGroupRenamedEvent.parse(events[3]).data).toEqual({ conversationId, name: 'Crew 2', commandId: null });
    expect(eventSchemas.zGroupParticipantsChangedEvent.parse(events[4]).data).toEqual({
      conversationId, added: ['eve@example.com'], removed: ['dana@example.com'], participants: ['+14155550123', 'eve@example.com'], commandId: null,
    });
    for (const event of events) {
      expect(event.account).toBe(a.accountId);
      expect(Number.isNaN(Date.parse(event.time))).toBe(false);
    }

    // The conversation's state follows the events.
    const read = await fetch(`${server.url}/v1/conversations/${conversationId}`, { headers: headers(a.apiKey) });
    expect(await read.json()).toMatchObject({ name: 'Crew 2', participants: [{ externalId: '+14155550123' }, { externalId: 'eve@example.com' }] });
    // A conversation reported again is not announced again.
    await a.host.report([{ type: 'conversation.appeared', externalId: group, conversationKind: 'group', name: 'Crew', participants: [] }]);
    expect(await allEvents(a.apiKey, events.at(-1)!.id)).toEqual([]);
  });

  it('an attachment ref downloads from GET /v1/attachments/{id} with its bytes and media type, for its own account only', async () => {
    const a = await readyAccount(server);
    const other = await readyAccount(server);
    const bytes = new Uint8Array(Array.from({ length: 70_000 }, (_, i) => (i * 31 + 7) % 256));
    const put = (ready: Ready, id: string, body: Uint8Array, type: string) =>
      fetch(`${server.url}/v1/connector/attachments/${id}?fileName=${encodeURIComponent('voice note.m4a')}&epoch=${ready.host.epoch}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${ready.connectorKey}`, 'content-type': type },
        body,
      });
    expect((await put(a, 'att-voice', bytes, 'audio/mp4')).status).toBe(201);
    await a.host.report([received(await externalIdOf(a.accountId, a.direct), '', [{ attachmentId: 'att-voice', fileName: 'voice note.m4a', mimeType: 'audio/mp4', byteSize: bytes.length }])]);
    const [event] = (await allEvents(a.apiKey)).filter((e) => e.type === 'message.received');
    const ref = event!.data.attachments[0];

    const download = await fetch(`${server.url}/v1/attachments/${ref.attachmentId}`, { headers: { authorization: `Bearer ${a.apiKey}` } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe(ref.mimeType);
    expect(download.headers.get('content-disposition')).toContain('voice note.m4a');
    // The file's own media type is one the spec lists for the download (a validating gateway passes it).
    expectSpecHeaders('/v1/attachments/{attachmentId}', 'get', 200, download.headers);
    const body = new Uint8Array(await download.arrayBuffer());
    expect(body.length).toBe(ref.byteSize);
    expect(Buffer.from(body).equals(Buffer.from(bytes))).toBe(true);

    for (const [key, id] of [[other.apiKey, 'att-voice'], [a.apiKey, 'att-missing']] as const) {
      const res = await fetch(`${server.url}/v1/attachments/${id}`, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(404);
      const error = (await res.json()) as { error: string };
      expect(error.error).toBe('attachment_not_found');
      expectSpecResponse('/v1/attachments/{attachmentId}', 'get', 404, error, res.headers);
    }
    // The same id in another account is that account's own attachment.
    expect((await put(other, 'att-voice', new Uint8Array([1, 2, 3]), 'text/plain')).status).toBe(201);
    const mine = await fetch(`${server.url}/v1/attachments/att-voice`, { headers: { authorization: `Bearer ${a.apiKey}` } });
    expect((await mine.arrayBuffer()).byteLength).toBe(bytes.length);
    const theirs = await fetch(`${server.url}/v1/attachments/att-voice`, { headers: { authorization: `Bearer ${other.apiKey}` } });
    expect(theirs.headers.get('content-type')).toMatch(/^text\/plain/);
    expectSpecHeaders('/v1/attachments/{attachmentId}', 'get', 200, theirs.headers);
    const unauthenticated = await fetch(`${server.url}/v1/attachments/att-voice`);
    expect(unauthenticated.status).toBe(401);
    expectSpecResponse('/v1/attachments/{attachmentId}', 'get', 401, await unauthenticated.json(), unauthenticated.headers);
  });
});

describe('Server-Sent Events', () => {
  it('sends each event with id: (the envelope id), event: (its type) and data: (the envelope JSON)', async () => {
    const a = await readyAccount(server);
    const json = await allEvents(a.apiKey);
    expect(json).toHaveLength(2);
    const sse = await SseReader.open(server.url, a.apiKey);
    try {
      const first = await sse.message();
      expect(first.kind).toBe('comment');
      for (const expected of json) {
        const message = await sse.event();
        expect(message.raw).toBe(`id: ${expected.id}\nevent: ${expected.type}\ndata: ${JSON.stringify(expected)}`);
        expect(JSON.parse(message.data)).toEqual(expected);
      }
    } finally {
      sse.close();
    }
  });

  it('resumes after Last-Event-ID with no gap and no duplicate', async () => {
    const a = await readyAccount(server);
    const direct = await externalIdOf(a.accountId, a.direct);
    await a.host.report([received(direct, 'one'), received(direct, 'two')]);
    const all = await allEvents(a.apiKey);
    expect(all).toHaveLength(4);

    const first = await SseReader.open(server.url, a.apiKey);
    const seen = await first.envelopes(3);
    first.close();
    expect(seen).toEqual(all.slice(0, 3));

    // Appended while nobody is connected.
    await a.host.report([received(direct, 'three'), received(direct, 'four')]);
    const second = await SseReader.open(server.url, a.apiKey, { lastEventId: seen.at(-1)!.id });
    try {
      const resumed = await second.envelopes(3);
      expect(resumed.map((e) => e.data.text)).toEqual(['two', 'three', 'four']);
      expect(resumed[0]).toEqual(all[3]);
      // Nothing else is pending: the next event on the wire is one appended now.
      await a.host.report([received(direct, 'five')]);
      const [next] = await second.envelopes(1);
      expect(next!.data.text).toBe('five');
      const ids = [...seen, ...resumed, next!].map((e) => BigInt(e.id));
      expect(ids.every((id, i) => i === 0 || id > ids[i - 1]!)).toBe(true);
      expect(await allEvents(a.apiKey)).toEqual([...seen, ...resumed, next]);
    } finally {
      second.close();
    }
  });

  it('resumes from ?after= as well; Last-Event-ID takes precedence over it', async () => {
    const a = await readyAccount(server);
    const [one, two] = await allEvents(a.apiKey);
    const byQuery = await SseReader.open(server.url, a.apiKey, { after: one!.id });
    const byHeader = await SseReader.open(server.url, a.apiKey, { after: '0', lastEventId: one!.id });
    try {
      expect(await byQuery.envelopes(1)).toEqual([two]);
      expect(await byHeader.envelopes(1)).toEqual([two]);
    } finally {
      byQuery.close();
      byHeader.close();
    }
  });

  it('starts from the head with ?after=now: no history, an id-only block with the head, then what comes next', async () => {
    const a = await readyAccount(server);
    const direct = await externalIdOf(a.accountId, a.direct);
    const head = await lastId(a.apiKey);
    const sse = await SseReader.open(server.url, a.apiKey, { after: 'now' });
    try {
      expect((await sse.message()).kind).toBe('comment');
      // An EventSource keeps this id for its reconnect, so a drop before the next event loses nothing.
      expect(await sse.message()).toEqual({ kind: 'event', id: head, event: undefined, data: '', raw: `id: ${head}` });
      await a.host.report([received(direct, 'after now')]);
      const [next] = await sse.envelopes(1);
      expect(next!.data).toMatchObject({ text: 'after now' });
      expect(BigInt(next!.id)).toBeGreaterThan(BigInt(head));
    } finally {
      sse.close();
    }
  });

  it.each([
    ['the configured heartbeatMs', 50],
    // A third under the 15 s idle timeout of common proxies.
    ['by default every 10 seconds', 10_000],
  ])('sends a heartbeat comment at least every heartbeatMs, carrying no event: %s', async (_, heartbeatMs) => {
    const s = heartbeatMs === server.services.config.heartbeatMs ? server : await startTestServer({ rateLimit: 0, heartbeatMs });
    try {
      const a = await readyAccount(s);
      const direct = await externalIdOf(a.accountId, a.direct, s);
      const start = (await allEvents(a.apiKey, '0', s.url)).at(-1)!.id;
      // The stream's interval timer is faked: the test moves time rather than waiting for it.
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
      const sse = await SseReader.open(s.url, a.apiKey, { lastEventId: start });
      try {
        expect(await sse.message()).toEqual({ kind: 'comment', text: 'connected', raw: ': connected\nretry: 3000', retry: '3000' });
        for (let round = 0; round < 3; round++) {
          vi.advanceTimersByTime(heartbeatMs);
          // Whatever the stream wrote by now comes before an event appended now.
          await a.host.report([received(direct, `after ${round}`)]);
          const seen: SseMessage[] = [];
          do seen.push(await sse.message());
          while (seen.at(-1)!.kind === 'comment');
          const heartbeats = seen.slice(0, -1);
          expect(heartbeats.length).toBeGreaterThanOrEqual(1);
          for (const heartbeat of heartbeats) expect(heartbeat).toEqual({ kind: 'comment', text: 'heartbeat', raw: ': heartbeat' });
          expect(JSON.parse((seen.at(-1) as { data: string }).data).data.text).toBe(`after ${round}`);
        }
      } finally {
        sse.close();
        vi.useRealTimers();
      }
    } finally {
      if (s !== server) await s.stopAndClean();
    }
  });

  // A stream never ends by itself: shutting down must end it, or SIGTERM waits for every client.
  it('closing the server ends the open streams instead of waiting for their clients', { timeout: 5_000 }, async () => {
    const s = await startTestServer({ rateLimit: 0 });
    const a = await s.account();
    const sse = await SseReader.open(s.url, a.apiKey);
    try {
      expect(await sse.message()).toMatchObject({ kind: 'comment', text: 'connected' });
      const closing = s.stopAndClean();
      await expect(sse.message()).rejects.toThrow('the stream ended');
      await closing;
    } finally {
      sse.close();
    }
  });

  it('tells the client to reconnect 3 seconds after the stream drops (retry: 3000, in the first block)', async () => {
    const a = await server.account();
    const sse = await SseReader.open(server.url, a.apiKey);
    try {
      expect(await sse.message()).toMatchObject({ kind: 'comment', text: 'connected', retry: '3000' });
    } finally {
      sse.close();
    }
  });

  it('rejects a malformed Last-Event-ID with 400 invalid_query, in either form, as the spec pattern does', async () => {
    const a = await server.account();
    const pattern = new RegExp(openapiParameter('/v1/events', 'get', 'Last-Event-ID').schema.pattern);
    for (const accept of ['text/event-stream', 'application/json']) for (const id of ['abc', 'now', '-1', '1.5', '12345678901234567890']) {
      expect(pattern.test(id), id).toBe(false);
      const res = await fetch(`${server.url}/v1/events`, { headers: { authorization: `Bearer ${a.apiKey}`, accept, 'last-event-id': id } });
      expect(res.status, id).toBe(400);
      const body = (await res.json()) as { error: string };
      expect(body.error).toBe('invalid_query');
      expectSpecResponse('/v1/events', 'get', 400, body, res.headers);
    }
    const unauthenticated = await fetch(`${server.url}/v1/events`, { headers: { accept: 'text/event-stream' } });
    expect(unauthenticated.status).toBe(401);
  });
});

describe('a cursor past the newest event (kept across a database restore or reset)', () => {
  it('SSE starts with event: reset and replays the retained log; JSON answers 410 cursor_expired; never silence', async () => {
    const a = await readyAccount(server);
    const events = await allEvents(a.apiKey);
    const newest = events.at(-1)!.id;
    // The newest id itself is a good cursor: nothing new, and no reset.
    expect(await page(a.apiKey, `?after=${newest}`)).toMatchObject({ status: 200, body: { events: [], nextAfter: newest } });
    for (const from of [{ lastEventId: '999999999999' }, { after: String(BigInt(newest) + 1n) }, { lastEventId: '9999999999999999999' }]) {
      const sse = await SseReader.open(server.url, a.apiKey, from);
      try {
        const reset = await sse.event();
        expect(reset.event).toBe('reset');
        const data = eventSchemas.zStreamReset.parse(JSON.parse(reset.data));
        expect(data).toEqual({ reason: 'cursor_expired', requestedAfter: from.lastEventId ?? from.after, oldestId: events[0]!.id });
        expect(await sse.envelopes(events.length)).toEqual(events);
      } finally {
        sse.close();
      }
    }
    const ahead = await page(a.apiKey, '?after=999999999999');
    expect(ahead.status).toBe(410);
    expect(ahead.body).toMatchObject({ error: 'cursor_expired', oldestId: events[0]!.id });
    // Said as what it is: nothing was dropped, the cursor is ahead of the stream.
    expect(ahead.body.message).toMatch(/past the head of the account's stream/);
    expect(ahead.body.message).not.toMatch(/retention/);
    expectSpecResponse('/v1/events', 'get', 410, ahead.body, ahead.headers);
  });

  it('another account\'s newer id is past this account\'s log too', async () => {
    const a = await readyAccount(server);
    const b = await readyAccount(server);
    const theirs = (await allEvents(b.apiKey)).at(-1)!.id;
    expect((await page(a.apiKey, `?after=${theirs}`)).status).toBe(410);
  });
});

describe('retention: a cursor older than the retained log', () => {
  it('SSE sends event: reset {reason, requestedAfter, oldestId}, then continues from the oldest retained event; JSON answers 410 cursor_expired', async () => {
    const clock = new ManualClock();
    const s = await startTestServer({ rateLimit: 0, eventRetentionMs: 60_000 }, clock);
    try {
      const a = await readyAccount(s);
      const b = await readyAccount(s);
      const [a1, a2] = await allEvents(a.apiKey, '0', s.url);
      clock.advance(120_000);
      await a.host.lease();
      await b.host.lease();
      // Ids are shared by all accounts: another account's event sits right after a's purged ones.
      await b.host.report([received(await externalIdOf(b.accountId, b.direct, s), 'b')]);
      await a.host.report([received(await externalIdOf(a.accountId, a.direct, s), 'kept 1'), received(await externalIdOf(a.accountId, a.direct, s), 'kept 2')]);
      const [kept1, kept2] = await allEvents(a.apiKey, a2!.id, s.url);
      expect(await s.services.store.purgeEvents(clock.now() - 60_000)).toBe(4);
      expect(await s.services.store.eventsPurgedThrough(a.accountId)).toBe(Number(a2!.id));

      for (const from of [{ lastEventId: a1!.id }, { after: a1!.id }]) {
        const sse = await SseReader.open(s.url, a.apiKey, from);
        try {
          const reset = await sse.event();
          expect(reset.event).toBe('reset');
          expect(reset.id).toBeUndefined();
          const data = eventSchemas.zStreamReset.parse(JSON.parse(reset.data));
          expect(data).toEqual({ reason: 'cursor_expired', requestedAfter: from.lastEventId ?? from.after, oldestId: kept1!.id });
          expect(await sse.envelopes(2)).toEqual([kept1, kept2]);
        } finally {
          sse.close();
        }
      }

      const expired = await page(a.apiKey, `?after=${a1!.id}`, s.url);
      expect(expired.status).toBe(410);
      expect(expired.body).toMatchObject({ error: 'cursor_expired', oldestId: kept1!.id });
      expect(expired.body.message).toMatch(/dropped by retention/);
      expectSpecResponse('/v1/events', 'get', 410, expired.body, expired.headers);
      // As documented: resume with after = oldestId - 1.
      const recovered = await page(a.apiKey, `?after=${BigInt(expired.body.oldestId) - 1n}`, s.url);
      expect(recovered.body.events).toEqual([kept1, kept2]);

      // A new client (from 0) gets what is retained, with no reset and no 410.
      expect((await page(a.apiKey, '?after=0', s.url)).body.events).toEqual([kept1, kept2]);
      const newcomer = await SseReader.open(s.url, a.apiKey, { lastEventId: '0' });
      try {
        expect(await newcomer.envelopes(2)).toEqual([kept1, kept2]);
      } finally {
        newcomer.close();
      }

      // A client that saw everything purged missed nothing: no reset, no 410.
      expect((await page(a.apiKey, `?after=${a2!.id}`, s.url)).body.events).toEqual([kept1, kept2]);
      const current = await SseReader.open(s.url, a.apiKey, { lastEventId: a2!.id });
      try {
        expect(await current.envelopes(2)).toEqual([kept1, kept2]);
      } finally {
        current.close();
      }
      // Another account that lost nothing of its own is not reset either.
      const fresh = await s.account();
      expect((await page(fresh.apiKey, '', s.url)).status).toBe(200);
    } finally {
      await s.stopAndClean();
    }
  });
});

describe('JSON pages', () => {
  it('pages through ?after= and limit in order, with nextAfter', async () => {
    const a = await readyAccount(server);
    const direct = await externalIdOf(a.accountId, a.direct);
    await a.host.report(Array.from({ length: 5 }, (_, i) => received(direct, `m${i}`)));
    const all = await allEvents(a.apiKey);
    expect(all).toHaveLength(7);

    const pages: Envelope[][] = [];
    let after = '0';
    for (;;) {
      const res = await page(a.apiKey, `?after=${after}&limit=3`);
      expect(res.status).toBe(200);
      expectSpecResponse('/v1/events', 'get', 200, res.body, res.headers);
      expect(res.body.events.length).toBeLessThanOrEqual(3);
      if (res.body.events.length === 0) {
        expect(res.body.nextAfter).toBe(after);
        break;
      }
      expect(res.body.nextAfter).toBe(res.body.events.at(-1).id);
      pages.push(res.body.events);
      after = res.body.nextAfter;
    }
    expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
    expect(pages.flat()).toEqual(all);
    // Default: from the start, up to 100.
    const first = await page(a.apiKey);
    expect(first.body.events).toEqual(all);
    // A cursor between two events starts after it.
    expect((await page(a.apiKey, `?after=${all[3]!.id}&limit=2`)).body.events).toEqual(all.slice(4, 6));
  });

  it('?after=now answers no events and the head as nextAfter, from which the next page continues', async () => {
    const a = await readyAccount(server);
    const direct = await externalIdOf(a.accountId, a.direct);
    const head = await lastId(a.apiKey);
    const now = await page(a.apiKey, '?after=now');
    expect(now.status).toBe(200);
    expectSpecResponse('/v1/events', 'get', 200, now.body, now.headers);
    expect(now.body).toEqual({ events: [], nextAfter: head });
    await a.host.report([received(direct, 'after now')]);
    const next = await page(a.apiKey, `?after=${now.body.nextAfter}`);
    expect(next.body.events.map((e: Envelope) => e.data)).toEqual([expect.objectContaining({ text: 'after now' })]);
    // An account with no events yet: the head is the start.
    const empty = await server.account();
    expect((await page(empty.apiKey, '?after=now')).body).toEqual({ events: [], nextAfter: '0' });
  });

  it('rejects an invalid after or limit with 400 invalid_query', async () => {
    const a = await server.account();
    const bad = ['after=abc', 'after=NOW', 'after=now1', 'after=-1', 'after=1.5', 'after=', 'after=12345678901234567890', 'limit=0', 'limit=1001', 'limit=x', 'limit=-5', 'limit=2.5'];
    for (const query of bad) {
      const res = await page(a.apiKey, `?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error).toBe('invalid_query');
      expectSpecResponse('/v1/events', 'get', 400, res.body, res.headers);
    }
    for (const query of ['limit=1', 'limit=1000', 'after=0']) {
      expect((await page(a.apiKey, `?${query}`)).status, query).toBe(200);
    }
    // Past 2^53 is still a cursor the pattern allows (not a 400), but past every event: not in the log.
    for (const after of ['9007199254740991', '9007199254740993', '9223372036854775807', '9999999999999999999']) {
      const res = await page(a.apiKey, `?after=${after}`);
      expect(res.status, after).toBe(410);
      expect(res.body).toMatchObject({ error: 'cursor_expired' });
    }
    const unauthenticated = await fetch(`${server.url}/v1/events`);
    expect(unauthenticated.status).toBe(401);
    expectSpecResponse('/v1/events', 'get', 401, await unauthenticated.json(), unauthenticated.headers);
    const connectorKey = await page(a.connectorKey);
    expect(connectorKey.status).toBe(401);
  });
});

describe('a client only sees its own account', () => {
  it('two accounts interleaving: each page and each stream holds that account\'s events only', async () => {
    const a = await readyAccount(server);
    const b = await readyAccount(server);
    const streamA = await SseReader.open(server.url, a.apiKey);
    const streamB = await SseReader.open(server.url, b.apiKey);
    try {
      const da = await externalIdOf(a.accountId, a.direct);
      const db = await externalIdOf(b.accountId, b.direct);
      for (let i = 0; i < 4; i++) {
        await a.host.report([received(da, `a${i}`)]);
        await b.host.report([received(db, `b${i}`)]);
      }
      const cmd = await queueAndDispatch(b, 'message.send', conversationTarget(b.direct));
      await b.host.settle(cmd, 'succeeded');

      const pageA = await allEvents(a.apiKey);
      const pageB = await allEvents(b.apiKey);
      expect(pageA.every((e) => e.account === a.accountId)).toBe(true);
      expect(pageB.every((e) => e.account === b.accountId)).toBe(true);
      expect(pageA.filter((e) => e.type === 'message.received').map((e) => e.data.text)).toEqual(['a0', 'a1', 'a2', 'a3']);
      expect(pageB.filter((e) => e.type === 'message.received').map((e) => e.data.text)).toEqual(['b0', 'b1', 'b2', 'b3']);
      expect(pageA.some((e) => e.type === 'command.settled')).toBe(false);
      const conversationsA = new Set(pageA.map((e) => e.data.conversationId));
      expect(pageB.some((e) => conversationsA.has(e.data.conversationId))).toBe(false);

      expect(await streamA.envelopes(pageA.length)).toEqual(pageA);
      expect(await streamB.envelopes(pageB.length)).toEqual(pageB);
      // A cursor from the other account's ids does not open it up.
      expect((await page(a.apiKey, `?after=${pageB[0]!.id}`)).body.events.every((e: Envelope) => e.account === a.accountId)).toBe(true);
    } finally {
      streamA.close();
      streamB.close();
    }
  });
});

describe('ordering', () => {
  it('one account\'s events are totally ordered with strictly increasing ids under concurrent settlements and platform events', async () => {
    const accounts = [await readyAccount(server), await readyAccount(server)];
    const externals = await Promise.all(accounts.map(async (a) => ({ direct: await externalIdOf(a.accountId, a.direct), group: await externalIdOf(a.accountId, a.group) })));
    const op = fc.oneof(
      fc.record({ kind: fc.constant('settle' as const), account: fc.integer({ min: 0, max: 1 }), failed: fc.boolean() }),
      fc.record({ kind: fc.constant('received' as const), account: fc.integer({ min: 0, max: 1 }), count: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ kind: fc.constant('renamed' as const), account: fc.integer({ min: 0, max: 1 }) }),
    );

    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 24 }), async (ops) => {
        // Message ids and names new to this run: a repeated one is rightly recorded once.
        const run = newId();
        const starts = await Promise.all(accounts.map((a) => lastId(a.apiKey)));
        const streams = await Promise.all(accounts.map((a, i) => SseReader.open(server.url, a.apiKey, { lastEventId: starts[i] })));
        try {
          // Queue and dispatch the commands first so that all settlements can race each other.
          const pending = await Promise.all(
            ops.map(async (o) => (o.kind === 'settle' ? (await postCommand(server.url, accounts[o.account]!.apiKey, 'message.send', conversationTarget(accounts[o.account]!.direct))).body.commandId as string : null)),
          );
          for (const a of accounts) while ((await a.host.dispatch()).length > 0);
          const expected = [0, 0];
          await Promise.all(
            ops.map(async (o, i) => {
              const a = accounts[o.account]!;
              if (o.kind === 'settle') {
                expected[o.account]! += 1;
                const res = await a.host.settle(pending[i]!, o.failed ? 'failed' : 'succeeded', o.failed ? 'send_returned_not_ok' : null);
                expect(res.status).toBe(200);
              } else if (o.kind === 'received') {
                expected[o.account]! += o.count;
                await a.host.report(Array.from({ length: o.count }, (_, n) => received(externals[o.account]!.direct, `r${run}.${i}.${n}`)));
              } else {
                expected[o.account]! += 1;
                await a.host.report([{ type: 'group.renamed', conversationExternalId: externals[o.account]!.group, name: `n${run}.${i}` }]);
              }
            }),
          );
          for (const [n, a] of accounts.entries()) {
            const events = await allEvents(a.apiKey, starts[n]);
            expect(events).toHaveLength(expected[n]!);
            const ids = events.map((e) => BigInt(e.id));
            for (let k = 1; k < ids.length; k++) expect(ids[k]! > ids[k - 1]!).toBe(true);
            expect(events.every((e) => e.account === a.accountId)).toBe(true);
            const settledIds = events.filter((e) => e.type === 'command.settled').map((e) => e.data.commandId);
            expect(new Set(settledIds).size).toBe(settledIds.length);
            // The live stream delivered exactly the same sequence.
            expect(await streams[n]!.envelopes(events.length)).toEqual(events);
          }
        } finally {
          for (const s of streams) s.close();
        }
      }),
      { numRuns: 15 },
    );
  });
});

describe('live delivery and metrics', () => {
  it('a connected stream sees a new event; /metrics counts it in switchboard_stream_subscribers', async () => {
    const s = await startTestServer({ rateLimit: 0 });
    try {
      const a = await readyAccount(s);
      const subscribers = async () => {
        const text = await (await fetch(`${s.url}/metrics`)).text();
        return Number(/^switchboard_stream_subscribers (\d+)$/m.exec(text)?.[1]);
      };
      expect(await subscribers()).toBe(0);
      const sse = await SseReader.open(s.url, a.apiKey);
      let unsubscribed!: () => void;
      const gone = new Promise<void>((resolve) => (unsubscribed = resolve));
      const subscribe = s.services.hub.subscribe.bind(s.services.hub);
      vi.spyOn(s.services.hub, 'subscribe').mockImplementation((accountId, listener) => {
        const off = subscribe(accountId, listener);
        return () => {
          off();
          unsubscribed();
        };
      });
      try {
        expect(await sse.message()).toMatchObject({ kind: 'comment' });
        // The stream is subscribed before it writes anything.
        expect(await subscribers()).toBe(1);
        const second = await SseReader.open(s.url, a.apiKey);
        expect(await subscribers()).toBe(2);
        second.close();
        await gone;
        expect(await subscribers()).toBe(1);
          await sse.envelopes(2); // the two conversations of readyAccount
  
        await a.host.report([received(await externalIdOf(a.accountId, a.direct, s), 'live')]);
        const [live] = await sse.envelopes(1);
        expect(live).toMatchObject({ type: 'message.received', account: a.accountId, data: { text: 'live' } });
        const id = await queueAndDispatchOn(s, a);
        await a.host.settle(id, 'succeeded');
        const [settled] = await sse.envelopes(1);
        expect(settled).toMatchObject({ type: 'command.settled', data: { commandId: id, status: 'succeeded' } });
      } finally {
        sse.close();
        vi.restoreAllMocks();
      }
    } finally {
      await s.stopAndClean();
    }
  });
});

async function queueAndDispatchOn(s: TestServer, a: Ready): Promise<string> {
  const res = await postCommand(s.url, a.apiKey, 'message.send', conversationTarget(a.direct));
  expect(res.status).toBe(202);
  expect((await a.host.dispatch()).map((c) => c.commandId)).toEqual([res.body.commandId]);
  return res.body.commandId;
}
