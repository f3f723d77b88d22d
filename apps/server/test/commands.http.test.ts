import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { commandTypes } from '@switchboard/contracts';
import { blockWrites, countRows, expectSpecResponse, openapiParameter, schemaAccepts, headers, pollParked, postCommand, readyAccount, startTestServer, TestHost, type TestServer } from './helpers.ts';
import { RawConnection } from './raw-http.ts';

const MISSING_CONVERSATION = '01900000-0000-7000-8000-000000000000';
const SEND = '/v1/commands/message.send';

let server: TestServer;
let acct: Awaited<ReturnType<typeof readyAccount>>;

beforeAll(async () => {
  // The rate limit is lifted here; its own tests below run on servers that keep it.
  server = await startTestServer({ rateLimit: 0 });
  acct = await readyAccount(server);
});
afterAll(() => server.stopAndClean());

const toDirect = (payload: unknown = { text: 'hello' }) => ({ target: { kind: 'conversation', conversationId: acct.direct }, payload });
const send = (body: unknown, extra: Record<string, string> = {}) => postCommand(server.url, acct.apiKey, 'message.send', body, extra);

describe('authentication comes first', () => {
  it('answers 401 unauthenticated without a credential', async () => {
    const res = await fetch(`${server.url}${SEND}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(toDirect()) });
    expect(res.status).toBe(401);
    const body = (await res.json() as any);
    expect(body.error).toBe('unauthenticated');
    expectSpecResponse(SEND, 'post', 401, body, res.headers);
  });

  it('answers 401 for an unknown key, a malformed header and a revoked key', async () => {
    for (const authorization of ['Bearer sb_nope', 'Basic abc', acct.apiKey]) {
      const res = await fetch(`${server.url}${SEND}`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: '{}' });
      expect(res.status, authorization).toBe(401);
      expect(((await res.json() as any)).error).toBe('unauthenticated');
    }
    const other = await server.account();
    const keys = await server.services.store.listCredentials(other.accountId);
    const apiKey = keys.find((k) => k.kind === 'account')!;
    expect((await postCommand(server.url, other.apiKey, 'message.send', {})).status).toBe(400);
    await server.services.store.revokeCredential(apiKey.id, Date.now());
    const revoked = await postCommand(server.url, other.apiKey, 'message.send', {});
    expect(revoked.status).toBe(401);
    expect(revoked.body.error).toBe('unauthenticated');
  });

  it('checks the key of every request on a kept-alive connection: a changed key as itself, a revoked key at once', async () => {
    const first = await readyAccount(server);
    const second = await server.account();
    const connection = await RawConnection.open(server.url);
    const body = JSON.stringify({ target: { kind: 'conversation', conversationId: first.direct }, payload: { text: 'hello' } });
    const sendOn = async (key: string) => {
      await connection.send(`POST ${SEND} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
      const res = await connection.response();
      return { status: res!.status, error: JSON.parse(res!.body).error as string | undefined };
    };
    try {
      expect(await sendOn(first.apiKey)).toEqual({ status: 202, error: undefined });
      expect(await sendOn(`${first.apiKey}x`)).toEqual({ status: 401, error: 'unauthenticated' });
      // The other account's key: the conversation is not its own.
      expect(await sendOn(second.apiKey)).toEqual({ status: 404, error: 'conversation_not_found' });
      expect(await sendOn(first.apiKey)).toEqual({ status: 202, error: undefined });
      const credential = (await server.services.store.listCredentials(first.accountId)).find((k) => k.kind === 'account')!;
      await server.services.store.revokeCredential(credential.id, Date.now());
      expect(await sendOn(first.apiKey)).toEqual({ status: 401, error: 'unauthenticated' });
      expect(connection.closed).toBe(false);
    } finally {
      connection.close();
    }
  });

  it('checks the credential before the method, the type and the body', async () => {
    const unknownType = await fetch(`${server.url}/v1/commands/nope`, { method: 'POST', body: 'not json' });
    expect(unknownType.status).toBe(401);
    const wrongMethod = await fetch(`${server.url}${SEND}`, { method: 'DELETE' });
    expect(wrongMethod.status).toBe(401);
    const tooLarge = await fetch(`${server.url}${SEND}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(70_000) });
    expect(tooLarge.status).toBe(401);
  });

  it('checks the credential first on every path under /v1/commands/ and for every method', async () => {
    for (const [method, path] of [['POST', '/v1/commands/a/b'], ['POST', '/v1/commands/message.send/'], ['GET', '/v1/commands/a/b'], ['OPTIONS', '/v1/commands/message.send']]) {
      const res = await fetch(`${server.url}${path}`, { method });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
    const nested = await postCommand(server.url, acct.apiKey, 'a/b', toDirect());
    expect(nested.status).toBe(404);
    expect(nested.body).toMatchObject({ error: 'unknown_command', command: 'a/b' });
  });

  it('keeps account keys and connector keys apart', async () => {
    const connectorOnPublic = await postCommand(server.url, acct.connectorKey, 'message.send', toDirect());
    expect(connectorOnPublic.status).toBe(401);
    const accountOnConnector = await fetch(`${server.url}/v1/connector/lease`, {
      method: 'POST',
      headers: headers(acct.apiKey),
      body: JSON.stringify({ hostId: 'intruder', osMajorVersion: 15, capabilities: [] }),
    });
    expect(accountOnConnector.status).toBe(401);
    expect(((await accountOnConnector.json() as any)).error).toBe('unauthenticated');
  });
});

describe('method and type', () => {
  it.each(['HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND', 'QUERY'])('answers %s with 405 method_not_allowed and Allow: POST', async (method) => {
    for (const type of ['message.send', 'group.update', 'nope']) {
      const res = await fetch(`${server.url}/v1/commands/${type}`, { method, headers: headers(acct.apiKey) });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      if (method === 'HEAD') continue;
      const body = (await res.json() as any);
      expect(body.error).toBe('method_not_allowed');
      expectSpecResponse('/v1/commands/{commandId}', 'put', 405, body, res.headers);
    }
  });

  it('answers GET of a command type with 405 and Allow: POST, as every method but POST there', async () => {
    for (const type of ['message.send', 'group.update']) {
      const res = await fetch(`${server.url}/v1/commands/${type}`, { headers: headers(acct.apiKey) });
      expect(res.status, type).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      const body = (await res.json() as any);
      expect(body.error).toBe('method_not_allowed');
      expectSpecResponse('/v1/commands/{commandId}', 'get', 405, body, res.headers);
    }
  });

  it('answers GET of a segment that is neither a command type nor a commandId with 404 command_not_found', async () => {
    for (const segment of ['not-a-uuid', 'nope', 'message.sendx']) {
      const res = await fetch(`${server.url}/v1/commands/${segment}`, { headers: headers(acct.apiKey) });
      expect(res.status, segment).toBe(404);
      const body = (await res.json() as any);
      expect(body.error).toBe('command_not_found');
      expectSpecResponse('/v1/commands/{commandId}', 'get', 404, body, res.headers);
    }
  });

  it('answers an unknown type with 404 unknown_command naming the type', async () => {
    for (const type of ['message.sendx', 'Message.send', 'group', 'foo%20bar']) {
      const res = await postCommand(server.url, acct.apiKey, type, toDirect());
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('unknown_command');
      expect(res.body.command).toBe(decodeURIComponent(type));
      expectSpecResponse('/v1/commands/{commandId}', 'post', 404, res.body, res.headers);
    }
  });

  it('accepts all seven command types', async () => {
    expect(commandTypes).toHaveLength(7);
    const bodies = validBodies();
    for (const type of commandTypes) {
      const res = await postCommand(server.url, acct.apiKey, type, bodies[type]);
      expect(res.status, `${type}: ${JSON.stringify(res.body)}`).toBe(202);
      expectSpecResponse(`/v1/commands/${type}`, 'post', 202, res.body, res.headers);
    }
  });
});

function validBodies(a: { direct: string; group: string } = acct): Record<string, unknown> {
  return {
      'message.send': toDirect(),
      'reaction.tapback': { target: { kind: 'conversation', conversationId: a.group }, payload: { messageExternalId: 'm1', tapback: 'love' } },
      'reaction.apply': { target: { kind: 'conversation', conversationId: a.direct }, payload: { tapback: 'like' } },
      'name_photo.share': { target: { kind: 'conversation', conversationId: a.direct }, payload: {} },
      'group.create': { target: { kind: 'participants', participantExternalIds: ['+14155550123', 'dana@example.com'] }, payload: { text: 'hi all' } },
      'group.update': { target: { kind: 'conversation', conversationId: a.group }, payload: { action: 'rename', name: 'New' } },
      'group.leave': { target: { kind: 'conversation', conversationId: a.group }, payload: {} },
  };
}

describe('content type', () => {
  it('answers 415 unsupported_media_type unless the body is sent as application/json', async () => {
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
      const init: RequestInit = { method: 'POST', headers: { authorization: `Bearer ${acct.apiKey}`, ...(contentType ? { 'content-type': contentType } : {}) } };
      const res = await fetch(`${server.url}${SEND}`, contentType ? { ...init, body: JSON.stringify(toDirect()) } : init);
      expect(res.status, String(contentType)).toBe(415);
      const body = (await res.json() as any);
      expect(body.error).toBe('unsupported_media_type');
      expectSpecResponse(SEND, 'post', 415, body, res.headers);
    }
    const charset = await postCommand(server.url, acct.apiKey, 'message.send', toDirect(), { 'content-type': 'application/json; charset=utf-8' });
    expect(charset.status).toBe(202);
  });
});

describe('envelope checks, in the seed order', () => {
  const expect400 = async (body: unknown, code: string, type = 'message.send') => {
    const res = await postCommand(server.url, acct.apiKey, type, body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error).toBe(code);
    expect(typeof res.body.message).toBe('string');
    expectSpecResponse(`/v1/commands/${type}`, 'post', 400, res.body, res.headers);
  };

  it('1. rejects a body over 65,536 bytes with body_too_large; 65,536 bytes is accepted', async () => {
    const base = JSON.stringify(toDirect({ text: '' }));
    const exact = JSON.stringify(toDirect({ text: 'a'.repeat(65_536 - base.length) }));
    expect(Buffer.byteLength(exact)).toBe(65_536);
    expect((await send(exact)).status).toBe(202);
    const over = JSON.stringify(toDirect({ text: 'a'.repeat(65_537 - base.length) }));
    await expect400(over, 'body_too_large');
    // Counted in bytes, not characters: 3 bytes per character here.
    await expect400(JSON.stringify(toDirect({ text: '€'.repeat(22_000) })), 'body_too_large');
  });

  it('1. cuts a 10 MB streamed upload off early instead of reading it', async () => {
    const { port } = new URL(server.url);
    const result = await new Promise<{ status: number; body: string; sent: number }>((resolve, reject) => {
      let sent = 0;
      let done = false;
      const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: SEND, headers: { authorization: `Bearer ${acct.apiKey}`, 'content-type': 'application/json' } }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => {
          done = true;
          resolve({ status: res.statusCode!, body, sent });
        });
      });
      req.on('error', (error) => (done ? undefined : reject(error)));
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (!done && sent < 10 * 1024 * 1024) {
          sent += chunk.length;
          if (!req.write(chunk)) return req.once('drain', pump);
        }
        if (!done) req.end();
      };
      pump();
    });
    expect(result.status).toBe(400);
    expect(JSON.parse(result.body).error).toBe('body_too_large');
    expect(result.sent).toBeLessThan(10 * 1024 * 1024);
  });

  it('1. rejects what is not a JSON object with body_not_object', async () => {
    for (const body of ['not json', '[1,2]', '"text"', '42', 'null', 'true', '{"target":', '']) {
      await expect400(body, 'body_not_object');
    }
  });

  it('1. rejects prototype poisoning with body_not_object, anywhere in the body', async () => {
    await expect400('{"__proto__":{"admin":true},"target":{},"payload":{}}', 'body_not_object');
    await expect400(`{"target":{"kind":"conversation","conversationId":"${acct.direct}"},"payload":{"a":[{"__proto__":{"x":1}}]}}`, 'body_not_object');
    await expect400(`{"target":{"kind":"conversation","conversationId":"${acct.direct}"},"payload":{"constructor":{"prototype":{"x":1}}}}`, 'body_not_object');
    // A key merely named constructor is fine.
    expect((await send(toDirect({ text: 'hi', constructor: 'ok' }))).status).toBe(202);
  });

  it('1. survives nesting as deep as 65,536 bytes allow, answering body_too_deep', async () => {
    const depth = 32_000;
    const deep = `{"target":{"kind":"conversation","conversationId":"${acct.direct}"},"payload":{"x":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
    expect(Buffer.byteLength(deep)).toBeLessThanOrEqual(65_536);
    await expect400(deep, 'body_too_deep');
    await expect400(`{"target":${'{"a":'.repeat(100)}1${'}'.repeat(100)},"payload":{}}`, 'body_too_deep');
    expect((await send(toDirect({ text: 'still up', nested: [[[[{ a: 1 }]]]] }))).status).toBe(202);
  });

  it('2. requires target and payload objects: target_and_payload_required', async () => {
    await expect400({}, 'target_and_payload_required');
    await expect400({ target: { kind: 'conversation', conversationId: acct.direct } }, 'target_and_payload_required');
    await expect400({ payload: { text: 'x' } }, 'target_and_payload_required');
    await expect400({ target: null, payload: {} }, 'target_and_payload_required');
    await expect400({ target: [], payload: {} }, 'target_and_payload_required');
    await expect400({ target: { kind: 'conversation', conversationId: acct.direct }, payload: 'text' }, 'target_and_payload_required');
    // Check 2 comes before check 3: a bad conversation id does not matter without a payload.
    await expect400({ target: { kind: 'conversation', conversationId: 'nope' } }, 'target_and_payload_required');
  });

  it('rejects a target kind the type does not take: unsupported_target', async () => {
    await expect400({ target: {}, payload: {} }, 'unsupported_target');
    await expect400({ target: { kind: 'channel' }, payload: {} }, 'unsupported_target');
    await expect400({ target: { kind: 'recipient', recipientExternalId: '+14155550123' }, payload: { tapback: 'love' } }, 'unsupported_target', 'reaction.apply');
    await expect400({ target: { kind: 'conversation', conversationId: acct.group }, payload: { text: 'x' } }, 'unsupported_target', 'group.create');
  });

  it('3. requires a UUID conversation id: invalid_conversationId', async () => {
    for (const conversationId of ['nope', 42, null, '0190a5b2-0000-7000-8000-00000000000', `${acct.direct}x`]) {
      await expect400({ target: { kind: 'conversation', conversationId }, payload: { text: 'x' } }, 'invalid_conversationId');
    }
    await expect400({ target: { kind: 'conversation' }, payload: { text: 'x' } }, 'invalid_conversationId');
    await expect400({ target: { kind: 'conversation', conversationId: 'nope' }, payload: { action: 'rename', name: 'x' } }, 'invalid_conversationId', 'group.update');
  });

  it('4. requires recipientExternalId and text on a recipient send', async () => {
    const code = 'recipient_send_requires_recipientExternalId_and_text';
    await expect400({ target: { kind: 'recipient' }, payload: { text: 'x' } }, code);
    await expect400({ target: { kind: 'recipient', recipientExternalId: '+14155550123' }, payload: {} }, code);
    await expect400({ target: { kind: 'recipient', recipientExternalId: '+14155550123' }, payload: { kind: 'rich_text', body: 'x' } }, code);
    // Check 4 comes before address validation.
    await expect400({ target: { kind: 'recipient', recipientExternalId: 'not an address' }, payload: {} }, code);
    // Only a missing field is a 400: an empty text is present.
    expect((await send({ target: { kind: 'recipient', recipientExternalId: '+14155550123' }, payload: { text: '' } })).status).toBe(202);
  });

  it('requires participantExternalIds on a participants target', async () => {
    const code = 'group_create_requires_participantExternalIds';
    await expect400({ target: { kind: 'participants' }, payload: { text: 'x' } }, code, 'group.create');
    await expect400({ target: { kind: 'participants', participantExternalIds: [] }, payload: { text: 'x' } }, code, 'group.create');
    await expect400({ target: { kind: 'participants', participantExternalIds: '+14155550123' }, payload: { text: 'x' } }, code, 'group.create');
  });

  it('answers 422 for an invalid recipient address, naming the field and the reason', async () => {
    for (const [address, reason] of [['not an address', 'not_a_phone_number_or_email'], ['+1555', 'invalid_phone_number'], ['bob@', 'invalid_email'], [42, 'not_a_string']] as const) {
      const res = await send({ target: { kind: 'recipient', recipientExternalId: address }, payload: { text: 'x' } });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ error: 'invalid_recipient_address', field: '/target/recipientExternalId', reason });
      expectSpecResponse(SEND, 'post', 422, res.body, res.headers);
    }
  });

  it('refuses an address over the spec\'s maxLength of 254 with 422, even when trimming would shorten it', async () => {
    const padded = ' '.repeat(250) + '+14155550123';
    const long = `${'a'.repeat(250)}@example.com`;
    for (const address of [padded, long]) {
      expect(address.length).toBeGreaterThan(254);
      const res = await send({ target: { kind: 'recipient', recipientExternalId: address }, payload: { text: 'x' } });
      expect(res.status).toBe(422);
      expectSpecResponse(SEND, 'post', 422, res.body, res.headers);
      const group = await postCommand(server.url, acct.apiKey, 'group.create', { target: { kind: 'participants', participantExternalIds: [address] }, payload: { text: 'x' } });
      expect(group.status).toBe(422);
      expect(group.body).toMatchObject({ error: 'invalid_participant_address', field: '/target/participantExternalIds/0' });
    }
    expect(schemaAccepts({ $ref: 'openapi#/components/schemas/RecipientTarget' }, { kind: 'recipient', recipientExternalId: padded })).toBe(false);
    expect(schemaAccepts({ $ref: 'openapi#/components/schemas/ParticipantsTarget' }, { kind: 'participants', participantExternalIds: [padded] })).toBe(false);
    // At the bound, padding is trimmed as before.
    expect((await send({ target: { kind: 'recipient', recipientExternalId: ` ${'+14155550123'.padEnd(12)} ` }, payload: { text: 'x' } })).status).toBe(202);
  });

  it('answers 422 for an invalid participant address', async () => {
    const res = await postCommand(server.url, acct.apiKey, 'group.create', { target: { kind: 'participants', participantExternalIds: ['+14155550123', 'nobody'] }, payload: { text: 'x' } });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error: 'invalid_participant_address', field: '/target/participantExternalIds/1' });
    expectSpecResponse('/v1/commands/group.create', 'post', 422, res.body, res.headers);
  });

  it('normalises phone numbers to E.164 before storing them', async () => {
    const res = await send({ target: { kind: 'recipient', recipientExternalId: '+1 (415) 555-0100' }, payload: { text: 'x' } });
    expect(res.status).toBe(202);
    const stored = await server.services.store.getCommand(acct.accountId, res.body.commandId);
    expect(stored!.target).toEqual({ kind: 'recipient', recipientExternalId: '+14155550100' });
  });

  it('answers 404 conversation_not_found for an unknown conversation and for another account\'s, alike', async () => {
    const unknown = await send({ target: { kind: 'conversation', conversationId: MISSING_CONVERSATION }, payload: { text: 'x' } });
    const other = await readyAccount(server);
    const foreign = await send({ target: { kind: 'conversation', conversationId: other.direct }, payload: { text: 'x' } });
    for (const res of [unknown, foreign]) {
      expect(res.status).toBe(404);
      expectSpecResponse(SEND, 'post', 404, res.body, res.headers);
    }
    const { requestId: _a, ...a } = unknown.body;
    const { requestId: _b, ...b } = foreign.body;
    expect(a).toEqual(b);
    expect(a.error).toBe('conversation_not_found');
  });

  it('rejects group.update and group.leave aimed at a direct conversation', async () => {
    await expect400({ target: { kind: 'conversation', conversationId: acct.direct }, payload: { action: 'rename', name: 'x' } }, 'group_command_requires_group_conversation', 'group.update');
    await expect400({ target: { kind: 'conversation', conversationId: acct.direct }, payload: {} }, 'group_command_requires_group_conversation', 'group.leave');
    const unknown = await postCommand(server.url, acct.apiKey, 'group.update', { target: { kind: 'conversation', conversationId: MISSING_CONVERSATION }, payload: { action: 'rename', name: 'x' } });
    expect(unknown.status).toBe(404);
  });

  it('checks nothing else of the payload: a bad payload is accepted with 202', async () => {
    for (const payload of [{ textt: 'misspelled' }, { kind: 'rich_text', text: 'x', effect: 'not-an-effect' }, { kind: 'poll', question: 'q', options: [] }, {}]) {
      const res = await send(toDirect(payload));
      expect(res.status, JSON.stringify(payload)).toBe(202);
      expect(res.body.disposition).toBe('queued');
    }
    const update = await postCommand(server.url, acct.apiKey, 'group.update', { target: { kind: 'conversation', conversationId: acct.group }, payload: { action: 'explode' } });
    expect(update.status).toBe(202);
  });
});

describe('routing paths and Idempotency-Key', () => {
  it('agent-turn: a repeated key adopts the original command, with its current status', async () => {
    const key = `key-${Date.now()}`;
    const first = await send(toDirect(), { 'idempotency-key': key });
    expect(first.body).toEqual({ commandId: first.body.commandId, status: 'queued', disposition: 'queued' });
    const second = await send(toDirect({ text: 'a different body' }), { 'idempotency-key': key });
    expect(second.status).toBe(202);
    expect(second.body).toEqual({ commandId: first.body.commandId, status: 'queued', disposition: 'adopted' });
    expectSpecResponse(SEND, 'post', 202, second.body, second.headers);

    const [dispatched] = (await acct.host.dispatch()).filter((c) => c.commandId === first.body.commandId);
    expect(dispatched).toBeDefined();
    expect((await acct.host.settle(first.body.commandId, 'succeeded')).status).toBe(200);
    const third = await send(toDirect(), { 'idempotency-key': key });
    expect(third.body).toEqual({ commandId: first.body.commandId, status: 'succeeded', disposition: 'adopted' });
  });

  it('agent-turn: 100 concurrent identical requests queue exactly one command', async () => {
    const key = `burst-${Date.now()}`;
    const results = await Promise.all(Array.from({ length: 100 }, () => send(toDirect(), { 'idempotency-key': key })));
    expect(results.every((r) => r.status === 202)).toBe(true);
    const queued = results.filter((r) => r.body.disposition === 'queued');
    expect(queued).toHaveLength(1);
    expect(new Set(results.map((r) => r.body.commandId))).toEqual(new Set([queued[0]!.body.commandId]));
    expect(await countRows(server, 'commands', { idempotencyKey: key })).toBe(1);
  });

  it('agent-turn types honour the key: reaction.tapback, reaction.apply, name_photo.share', async () => {
    const bodies = {
      'reaction.tapback': { target: { kind: 'conversation', conversationId: acct.direct }, payload: { messageExternalId: 'm', tapback: 'love' } },
      'reaction.apply': { target: { kind: 'conversation', conversationId: acct.direct }, payload: { tapback: 'like' } },
      'name_photo.share': { target: { kind: 'conversation', conversationId: acct.direct }, payload: {} },
    };
    for (const [type, body] of Object.entries(bodies)) {
      const key = `${type}-${Date.now()}`;
      const a = await postCommand(server.url, acct.apiKey, type, body, { 'idempotency-key': key });
      const b = await postCommand(server.url, acct.apiKey, type, body, { 'idempotency-key': key });
      expect(b.body).toMatchObject({ commandId: a.body.commandId, disposition: 'adopted' });
      const stored = await server.services.store.getCommand(acct.accountId, a.body.commandId);
      expect(stored).toMatchObject({ routingPath: 'agent-turn', logicalActionId: key, idempotencyKey: key });
    }
  });

  it('checks the conversation before adopting: a known key with an unknown conversation is 404', async () => {
    const key = `conv-first-${Date.now()}`;
    expect((await send(toDirect(), { 'idempotency-key': key })).body.disposition).toBe('queued');
    const other = await readyAccount(server);
    for (const conversationId of [MISSING_CONVERSATION, other.direct]) {
      const res = await send({ target: { kind: 'conversation', conversationId }, payload: { text: 'x' } }, { 'idempotency-key': key });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('conversation_not_found');
    }
  });

  it('keys are scoped to the account', async () => {
    const other = await readyAccount(server);
    const key = `shared-${Date.now()}`;
    const a = await send(toDirect(), { 'idempotency-key': key });
    const b = await postCommand(server.url, other.apiKey, 'message.send', { target: { kind: 'conversation', conversationId: other.direct }, payload: { text: 'x' } }, { 'idempotency-key': key });
    expect(a.body.disposition).toBe('queued');
    expect(b.body.disposition).toBe('queued');
    expect(b.body.commandId).not.toBe(a.body.commandId);
  });

  it('admin path: the key is accepted and ignored, so a retry creates new work', async () => {
    const bodies: Record<string, unknown> = {
      'message.send': { target: { kind: 'recipient', recipientExternalId: '+14155550123' }, payload: { text: 'hi' } },
      'group.create': { target: { kind: 'participants', participantExternalIds: ['+14155550123'] }, payload: { text: 'hi' } },
      'group.update': { target: { kind: 'conversation', conversationId: acct.group }, payload: { action: 'rename', name: 'x' } },
      'group.leave': { target: { kind: 'conversation', conversationId: acct.group }, payload: {} },
    };
    for (const [type, body] of Object.entries(bodies)) {
      const key = `admin-${type}-${Date.now()}`;
      const a = await postCommand(server.url, acct.apiKey, type, body, { 'idempotency-key': key });
      const b = await postCommand(server.url, acct.apiKey, type, body, { 'idempotency-key': key });
      expect([a.body.disposition, b.body.disposition]).toEqual(['queued', 'queued']);
      expect(b.body.commandId).not.toBe(a.body.commandId);
      const stored = await server.services.store.getCommand(acct.accountId, a.body.commandId);
      expect(stored).toMatchObject({ routingPath: 'admin', idempotencyKey: null, logicalActionId: a.body.commandId });
    }
  });

  it('an invalid key is rejected on the agent-turn path and ignored on the admin path', async () => {
    for (const key of ['', 'has space', 'x'.repeat(256), 'ümlaut']) {
      const res = await fetch(`${server.url}${SEND}`, { method: 'POST', headers: { ...headers(acct.apiKey), 'idempotency-key': key }, body: JSON.stringify(toDirect()) }).catch(() => null);
      if (res === null) continue; // fetch itself refuses a non-ASCII header value
      expect(res.status, JSON.stringify(key)).toBe(400);
      expect(((await res.json() as any)).error).toBe('invalid_idempotency_key');
    }
    const admin = await send({ target: { kind: 'recipient', recipientExternalId: '+14155550123' }, payload: { text: 'x' } }, { 'idempotency-key': 'has space' });
    expect(admin.status).toBe(202);
  });

  it('each operation\'s Idempotency-Key schema in the spec says what the server does with a bad key', async () => {
    // An account of its own: the commands queued here stay out of the other tests' dispatches.
    const own = await readyAccount(server);
    const bodies = validBodies(own);
    const recipientSend = { target: { kind: 'recipient', recipientExternalId: '+14155550123' }, payload: { text: 'x' } };
    const agentTurn = new Set(['reaction.tapback', 'reaction.apply', 'name_photo.share']);
    for (const key of ['has space', 'x'.repeat(256)]) {
      for (const type of commandTypes) {
        const declared = openapiParameter(`/v1/commands/${type}`, 'post', 'Idempotency-Key');
        const res = await postCommand(server.url, own.apiKey, type, bodies[type], { 'idempotency-key': key });
        if (agentTurn.has(type)) {
          // The schema refuses it, and so does the server: a validating gateway agrees with it.
          expect(schemaAccepts(declared.schema, key), type).toBe(false);
          expect(res.status, type).toBe(400);
          expect(res.body.error).toBe('invalid_idempotency_key');
        } else {
          // Admin (and message.send, whose path depends on the body): the schema allows any key.
          expect(schemaAccepts(declared.schema, key), type).toBe(true);
          expect(res.status, type).toBe(type === 'message.send' ? 400 : 202);
        }
      }
      // message.send: checked on a conversation target (above), ignored on a recipient target.
      expect((await postCommand(server.url, own.apiKey, 'message.send', recipientSend, { 'idempotency-key': key })).status).toBe(202);
    }
  });

  it('without a key, logicalActionId is the commandId', async () => {
    const res = await send(toDirect());
    const stored = await server.services.store.getCommand(acct.accountId, res.body.commandId);
    expect(stored).toMatchObject({ routingPath: 'agent-turn', idempotencyKey: null, logicalActionId: res.body.commandId });
  });

  it('a recipient send stores payload.text only, silently dropping rich content', async () => {
    const res = await send({ target: { kind: 'recipient', recipientExternalId: 'new.contact@example.com' }, payload: { kind: 'rich_text', text: 'bare', effect: 'confetti', subject: 'S' } });
    expect(res.status).toBe(202);
    expect(res.body.disposition).toBe('queued');
    const read = await fetch(`${server.url}/v1/commands/${res.body.commandId}`, { headers: headers(acct.apiKey) });
    const command = (await read.json() as any);
    expectSpecResponse('/v1/commands/{commandId}', 'get', 200, command, read.headers);
    expect(command.payload).toEqual({ text: 'bare' });
    expect(command.routingPath).toBe('admin');
    const dispatched = (await acct.host.dispatch()).find((c) => c.commandId === res.body.commandId);
    expect(dispatched!.payload).toEqual({ text: 'bare' });
  });
});

describe('acknowledgement and reading a command back', () => {
  it('a recipient send shows the conversation it created once the platform announces it', async () => {
    const res = await send({ target: { kind: 'recipient', recipientExternalId: 'first.contact@example.com' }, payload: { text: 'hi' } });
    const read = async () => {
      const answer = await fetch(`${server.url}/v1/commands/${res.body.commandId}`, { headers: headers(acct.apiKey) });
      return { body: (await answer.json()) as any, headers: answer.headers };
    };
    expect((await read()).body.conversationId).toBeNull();
    await acct.host.report([{ type: 'conversation.appeared', externalId: `new-${res.body.commandId}`, conversationKind: 'direct', name: null, participants: ['first.contact@example.com'], commandId: res.body.commandId }]);
    const created = await server.services.store.findConversationByExternalId(acct.accountId, `new-${res.body.commandId}`);
    const command = await read();
    expect(command.body.conversationId).toBe(created!.id);
    expectSpecResponse('/v1/commands/{commandId}', 'get', 200, command.body, command.headers);
  });

  it('the 202 body is exactly commandId, status and disposition; commandId is a UUIDv7', async () => {
    const res = await send(toDirect());
    expect(Object.keys(res.body).sort()).toEqual(['commandId', 'disposition', 'status']);
    expect(res.body.commandId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expectSpecResponse(SEND, 'post', 202, res.body, res.headers);
  });

  it('GET /v1/commands/{commandId} is account-scoped', async () => {
    const res = await send(toDirect());
    const other = await server.account();
    const foreign = await fetch(`${server.url}/v1/commands/${res.body.commandId}`, { headers: headers(other.apiKey) });
    expect(foreign.status).toBe(404);
    const body = (await foreign.json() as any);
    expect(body.error).toBe('command_not_found');
    expectSpecResponse('/v1/commands/{commandId}', 'get', 404, body, foreign.headers);
  });
});

describe('503 and 500', () => {
  it('answers 503 no_live_connector when no host holds a live lease', async () => {
    const lonely = await server.account();
    const res = await postCommand(server.url, lonely.apiKey, 'message.send', { target: { kind: 'recipient', recipientExternalId: '+14155550123' }, payload: { text: 'x' } });
    expect(res.status).toBe(503);
    expect(res.body.error).toBe('no_live_connector');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expectSpecResponse(SEND, 'post', 503, res.body, res.headers);
  });

  it('says in the no_live_connector message what a new account is missing: a connector host run with its key', async () => {
    const lonely = await server.account();
    const sent = await postCommand(server.url, lonely.apiKey, 'message.send', { target: { kind: 'recipient', recipientExternalId: '+14155550123' }, payload: { text: 'x' } });
    const capabilities = await fetch(`${server.url}/v1/capabilities`, { headers: { authorization: `Bearer ${lonely.apiKey}` } });
    const read = (await capabilities.json()) as { error: string; message: string };
    for (const body of [sent.body as { error: string; message: string }, read]) {
      expect(body.error).toBe('no_live_connector');
      expect(body.message).toContain('run one with a connector key of the account');
      expect(body.message).toContain('switchboard connector-keys create');
    }
  });

  it('answers 503 no_live_connector once the lease is released', async () => {
    const a = await readyAccount(server);
    expect((await a.host.call('lease/release', { epoch: a.host.epoch })).status).toBe(204);
    const res = await postCommand(server.url, a.apiKey, 'message.send', { target: { kind: 'conversation', conversationId: a.direct }, payload: { text: 'x' } });
    expect(res.body.error).toBe('no_live_connector');
    await a.host.lease();
    expect((await postCommand(server.url, a.apiKey, 'message.send', { target: { kind: 'conversation', conversationId: a.direct }, payload: { text: 'x' } })).status).toBe(202);
  });

  it('answers 503 outbound_paused while the account, or everything, is paused; an adopted key still answers 202', async () => {
    const a = await readyAccount(server);
    const body = { target: { kind: 'conversation', conversationId: a.direct }, payload: { text: 'x' } };
    const keyed = await postCommand(server.url, a.apiKey, 'message.send', body, { 'idempotency-key': 'before-pause' });
    await server.services.store.setOutboundPaused(a.accountId, true);
    const paused = await postCommand(server.url, a.apiKey, 'message.send', body);
    expect(paused.status).toBe(503);
    expect(paused.body.error).toBe('outbound_paused');
    expectSpecResponse(SEND, 'post', 503, paused.body, paused.headers);
    const adopted = await postCommand(server.url, a.apiKey, 'message.send', body, { 'idempotency-key': 'before-pause' });
    expect(adopted.body).toMatchObject({ commandId: keyed.body.commandId, disposition: 'adopted' });
    await server.services.store.setOutboundPaused(a.accountId, false);
    expect((await postCommand(server.url, a.apiKey, 'message.send', body)).status).toBe(202);

    await server.services.store.setOutboundPaused(null, true);
    expect((await postCommand(server.url, a.apiKey, 'message.send', body)).body.error).toBe('outbound_paused');
    await server.services.store.setOutboundPaused(null, false);
    expect((await postCommand(server.url, a.apiKey, 'message.send', body)).status).toBe(202);
  });

  it('reports what a retry cannot fix before 503: a paused account or one without a host still gets its 4xx', async () => {
    const paused = await readyAccount(server);
    await server.services.store.setOutboundPaused(paused.accountId, true);
    const lonely = await readyAccount(server);
    expect((await lonely.host.call('lease/release', { epoch: lonely.host.epoch })).status).toBe(204);
    try {
      for (const a of [paused, lonely]) {
        const cases: Array<[string, unknown, Record<string, string>, number, string]> = [
          ['message.send', {}, {}, 400, 'target_and_payload_required'],
          ['message.send', { target: { kind: 'recipient', recipientExternalId: 'nobody' }, payload: { text: 'x' } }, {}, 422, 'invalid_recipient_address'],
          ['message.send', { target: { kind: 'conversation', conversationId: a.direct }, payload: { text: 'x' } }, { 'idempotency-key': 'has space' }, 400, 'invalid_idempotency_key'],
          ['message.send', { target: { kind: 'conversation', conversationId: MISSING_CONVERSATION }, payload: { text: 'x' } }, {}, 404, 'conversation_not_found'],
          ['group.update', { target: { kind: 'conversation', conversationId: a.direct }, payload: { action: 'rename', name: 'x' } }, {}, 400, 'group_command_requires_group_conversation'],
        ];
        for (const [type, body, extra, status, code] of cases) {
          const res = await postCommand(server.url, a.apiKey, type, body, extra);
          expect([res.status, res.body.error], `${code}`).toEqual([status, code]);
        }
      }
    } finally {
      await server.services.store.setOutboundPaused(paused.accountId, false);
    }
  });

  it('adopts a known key even when no host holds a live lease', async () => {
    const a = await readyAccount(server);
    const body = { target: { kind: 'conversation', conversationId: a.direct }, payload: { text: 'x' } };
    const first = await postCommand(server.url, a.apiKey, 'message.send', body, { 'idempotency-key': 'before-the-host-left' });
    expect((await a.host.call('lease/release', { epoch: a.host.epoch })).status).toBe(204);
    const again = await postCommand(server.url, a.apiKey, 'message.send', body, { 'idempotency-key': 'before-the-host-left' });
    expect(again.status).toBe(202);
    expect(again.body).toEqual({ commandId: first.body.commandId, status: 'queued', disposition: 'adopted' });
    expect((await postCommand(server.url, a.apiKey, 'message.send', body)).body.error).toBe('no_live_connector');
  });

  it('answers 500 internal when the store cannot write, with nothing written', async () => {
    const faulty = await startTestServer({ rateLimit: 0, sqliteBusyTimeoutMs: 50, databaseStatementTimeoutMs: 200 });
    try {
      const a = await readyAccount(faulty);
      const body = { target: { kind: 'conversation', conversationId: a.direct }, payload: { text: 'x' } };
      // A second connection holds the database: the server's transaction cannot go through.
      const count = () => countRows(faulty, 'commands');
      const before = await count();
      const release = await blockWrites(faulty);
      const failed = await postCommand(faulty.url, a.apiKey, 'message.send', body, { 'idempotency-key': 'during-fault' });
      await release();
      expect(failed.status).toBe(500);
      expect(failed.body.error).toBe('internal');
      expectSpecResponse(SEND, 'post', 500, failed.body, failed.headers);
      expect(await count()).toBe(before);
      // Nothing half-written: the same key is new work once the store recovers.
      const retried = await postCommand(faulty.url, a.apiKey, 'message.send', body, { 'idempotency-key': 'during-fault' });
      expect(retried.body.disposition).toBe('queued');
      expect(await count()).toBe(before + 1);
    } finally {
      await faulty.stopAndClean();
    }
  });
});

describe('dispatch order', () => {
  it('hands commands accepted back to back to the host in the order they were accepted', async () => {
    const a = await readyAccount(server);
    const accepted: string[] = [];
    for (let i = 0; i < 50; i++) {
      const res = await postCommand(server.url, a.apiKey, 'message.send', { target: { kind: 'conversation', conversationId: a.direct }, payload: { text: `m${i}` } });
      accepted.push(res.body.commandId);
    }
    const dispatched: string[] = [];
    while (dispatched.length < accepted.length) dispatched.push(...(await a.host.dispatch(1000)).map((c) => c.commandId as string));
    expect(dispatched).toEqual(accepted);
  });
});

describe('dispatch to a poll that went away', () => {
  it('an abandoned poll does not take later commands with it', async () => {
    const a = await readyAccount(server);
    const abandoned = new AbortController();
    const parked = pollParked(server, a.accountId);
    const poll = a.host.call('dispatch', { epoch: a.host.epoch, holding: [], waitMs: 20_000 }, abandoned.signal).catch(() => 'aborted');
    await parked;
    abandoned.abort();
    expect(await poll).toBe('aborted');
    const res = await postCommand(server.url, a.apiKey, 'message.send', { target: { kind: 'conversation', conversationId: a.direct }, payload: { text: 'x' } });
    const delivered: string[] = [];
    while (!delivered.includes(res.body.commandId)) delivered.push(...(await a.host.dispatch(1000)).map((c) => c.commandId as string));
    expect(delivered).toEqual([res.body.commandId]);
  });
});

describe('hosts without the host protocol', () => {
  it('a lease held by one host keeps another out until it expires', async () => {
    const a = await server.account();
    await new TestHost(server.url, a.connectorKey, 'first').lease();
    const second = await new TestHost(server.url, a.connectorKey, 'second').call('lease', { hostId: 'second', osMajorVersion: 15, capabilities: [] });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ error: 'lease_held', holderHostId: 'first' });
  });
});
