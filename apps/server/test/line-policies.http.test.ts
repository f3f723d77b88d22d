import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testDatabase, testStore } from '@switchboard/testkit/postgres';
import { createIdSource } from '../src/ids.ts';
import type { LinePolicies } from '../src/store/types.ts';
import { countRows, expectSpecResponse, ManualClock, postCommand, startTestServer, TestHost, type TestServer } from './helpers.ts';

const newId = createIdSource().next;
const OFF: LinePolicies = { newContacts: null, pacing: null, loopBreaker: null, quietHours: null, firstContactApproval: false };
const SEND = '/v1/commands/message.send';
const GROUP = '/v1/commands/group.create';

describe('line policies at intake (specs/openapi/switchboard.yaml, "Line policies")', () => {
  let server: TestServer;
  const clock = new ManualClock();

  beforeAll(async () => {
    // The lease outlasts the windows the clock is moved through; the request rate limit is lifted.
    server = await startTestServer({ rateLimit: 0, leaseTtlMs: 3 * 86_400_000 }, clock);
  });
  afterAll(async () => {
    await server.stopAndClean();
  });

  /** An account with a live lease, a direct conversation with +14155550123 (its external id: `dm`), and `policies`. */
  async function account(policies: Partial<LinePolicies>) {
    const a = await server.account();
    const host = await new TestHost(server.url, a.connectorKey).lease();
    const externalId = `dm-${newId()}`;
    await host.report([{ type: 'conversation.appeared', externalId, conversationKind: 'direct', name: null, participants: ['+14155550123'] }]);
    const direct = (await server.services.store.findConversationByExternalId(a.accountId, externalId))!.id;
    await server.services.store.setPolicies(a.accountId, { ...OFF, ...policies }, clock.now());
    const send = (headers: Record<string, string> = {}) =>
      postCommand(server.url, a.apiKey, 'message.send', { target: { kind: 'conversation', conversationId: direct }, payload: { text: 'hi' } }, headers);
    const toRecipient = (address: string) =>
      postCommand(server.url, a.apiKey, 'message.send', { target: { kind: 'recipient', recipientExternalId: address }, payload: { text: 'hello' } });
    const group = (...addresses: string[]) =>
      postCommand(server.url, a.apiKey, 'group.create', { target: { kind: 'participants', participantExternalIds: addresses }, payload: {} });
    const inbound = (id: string) => host.report([{
      type: 'message.received', conversationExternalId: externalId, messageExternalId: id, senderExternalId: '+14155550123', text: 'yes?', attachments: [], receivedAt: new Date(clock.now()).toISOString(),
    }]);
    return { ...a, host, direct, send, toRecipient, group, inbound };
  }

  it('pacing: the send past perMinute is 429 pacing_limit, Retry-After when the oldest leaves the minute; then one more goes in', async () => {
    const a = await account({ pacing: { perMinute: 2 } });
    expect((await a.send()).status).toBe(202);
    clock.advance(10_000);
    expect((await a.send()).status).toBe(202);
    clock.advance(10_000);
    const refused = await a.send();
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: 'pacing_limit', message: expect.stringContaining('nothing was sent'), policy: 'pacing', limit: 2, retryAfterSeconds: 40, requestId: expect.any(String),
    });
    expect(refused.headers.get('retry-after')).toBe('40');
    expectSpecResponse(SEND, 'post', 429, refused.body, refused.headers);
    clock.advance(39_999);
    expect((await a.send()).status).toBe(429);
    clock.advance(1);
    expect((await a.send()).status).toBe(202);
    // Each refusal is counted by its code, so an operator sees which policy holds agents back.
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    const refusals = /switchboard_http_requests_total\{[^}]*code="pacing_limit"[^}]*\} (\d+)/.exec(metrics);
    expect(Number(refusals?.[1])).toBeGreaterThanOrEqual(2);
  });

  it('loop breaker: the send past maxUnanswered is 409 loop_breaker with no Retry-After; time does not lift it, an inbound message does', async () => {
    const a = await account({ loopBreaker: { maxUnanswered: 2 } });
    expect((await a.send()).status).toBe(202);
    expect((await a.send()).status).toBe(202);
    const refused = await a.send();
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      error: 'loop_breaker', message: expect.stringContaining('an inbound message'), policy: 'loopBreaker', limit: 2, requestId: expect.any(String),
    });
    expect(refused.headers.get('retry-after')).toBeNull();
    expectSpecResponse(SEND, 'post', 409, refused.body, refused.headers);
    clock.advance(86_400_000);
    expect((await a.send()).status).toBe(409);
    clock.advance(1_000);
    await a.inbound(`in-${newId()}`);
    clock.advance(1_000);
    expect((await a.send()).status).toBe(202);
    expect((await a.send()).status).toBe(202);
    expect((await a.send()).status).toBe(409);
  });

  it('new contacts: known participants are not new; the budget refuses the next new address with 429 new_contact_limit until the oldest leaves the hour', async () => {
    const a = await account({ newContacts: { perHour: 1, perDay: 2 } });
    // A participant of an existing conversation, written differently: not new, spends nothing.
    expect((await a.toRecipient('+1 (415) 555-0123')).status).toBe(202);
    expect((await a.toRecipient('+14155550100')).status).toBe(202);
    // Counted once: writing to it again spends nothing.
    expect((await a.toRecipient('+1 415 555 0100')).status).toBe(202);
    clock.advance(600_000);
    const refused = await a.toRecipient('+14155550101');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: 'new_contact_limit', message: expect.stringContaining('per hour'), policy: 'newContacts', limit: 1, retryAfterSeconds: 3_000, requestId: expect.any(String),
    });
    expect(refused.headers.get('retry-after')).toBe('3000');
    expectSpecResponse(SEND, 'post', 429, refused.body, refused.headers);
    // A group with a new address is held to the same budget.
    const group = await a.group('+14155550123', '+14155550102');
    expect(group.status).toBe(429);
    expectSpecResponse(GROUP, 'post', 429, group.body, group.headers);
    clock.advance(3_000_000);
    // The hour has room again, the day one unit: a group naming two new addresses spends both or none.
    const both = await a.group('+14155550101', '+14155550102');
    expect(both.status).toBe(429);
    // Two new addresses never fit an hour of one: that limit answers.
    expect(both.body).toMatchObject({ error: 'new_contact_limit', policy: 'newContacts', limit: 1, message: expect.stringContaining('2 new contacts') });
    const one = await a.group('+14155550123', '+14155550101');
    expect(one.status).toBe(202);
    clock.advance(3_600_000);
    const day = await a.toRecipient('+14155550102');
    expect(day.status).toBe(429);
    expect(day.body).toMatchObject({ limit: 2, message: expect.stringContaining('per day') });
    // The day's oldest first contact was counted 2 h ago.
    expect(day.body.retryAfterSeconds).toBe(86_400 - 7_200);
    expect(day.headers.get('retry-after')).toBe(String(86_400 - 7_200));
  });

  it('an idempotent retry of an accepted command adopts it and spends nothing', async () => {
    const a = await account({ pacing: { perMinute: 2 } });
    const key = `retry-${newId()}`;
    const first = await a.send({ 'idempotency-key': key });
    expect(first.body.disposition).toBe('queued');
    const again = await a.send({ 'idempotency-key': key });
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ commandId: first.body.commandId, disposition: 'adopted' });
    expect(await countRows(server, 'commands', { idempotencyKey: key })).toBe(1);
    // One unit spent, not two: one more send fits in the minute.
    expect((await a.send()).status).toBe(202);
    expect((await a.send()).status).toBe(429);
    // Even at the limit, the retry adopts.
    expect((await a.send({ 'idempotency-key': key })).body.disposition).toBe('adopted');
  });

  it('policies off: nothing is held back; turning them off lifts a refusal at once', async () => {
    const a = await account({});
    for (let i = 0; i < 5; i++) expect((await a.send()).status).toBe(202);
    for (let i = 0; i < 3; i++) expect((await a.toRecipient(`+1415555030${i}`)).status).toBe(202);
    await server.services.store.setPolicies(a.accountId, { ...OFF, loopBreaker: { maxUnanswered: 5 } }, clock.now());
    expect((await a.send()).status).toBe(409);
    await server.services.store.setPolicies(a.accountId, OFF, clock.now());
    expect((await a.send()).status).toBe(202);
  });

  it('a refusal writes nothing: no command, no stream event', async () => {
    const a = await account({ pacing: { perMinute: 1 } });
    const { store } = server.services;
    const before = await countRows(server, 'commands');
    expect((await a.send()).status).toBe(202);
    const events = (await store.readEvents(a.accountId, 0, 100)).length;
    const key = `k-${newId()}`;
    expect((await a.send({ 'idempotency-key': key })).status).toBe(429);
    expect(await countRows(server, 'commands')).toBe(before + 1);
    expect(await countRows(server, 'commands', { idempotencyKey: key })).toBe(0);
    expect(await store.findIdempotentCommand(a.accountId, key, 0)).toBeNull();
    expect(await store.readEvents(a.accountId, 0, 100)).toHaveLength(events);
  });
});

// Two servers on one database: the count and the write hold the account's policies row locked.
describe.runIf(testStore() === 'postgres')('line policies across replicas', () => {
  const servers: TestServer[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.stopAndClean();
  });

  it('with one new-contact unit left, concurrent sends at both replicas: exactly one 202', async () => {
    const databaseUrl = await testDatabase(`line-policies-${newId()}`);
    for (let i = 0; i < 2; i++) servers.push(await startTestServer({ databaseUrl, rateLimit: 0 }));
    const a = await servers[0]!.account();
    await new TestHost(servers[0]!.url, a.connectorKey).lease();
    await servers[0]!.services.store.setPolicies(a.accountId, { ...OFF, newContacts: { perHour: 2, perDay: null } }, Date.now());
    const first = await postCommand(servers[1]!.url, a.apiKey, 'message.send', { target: { kind: 'recipient', recipientExternalId: '+14155550400' }, payload: { text: 'hi' } });
    expect(first.status).toBe(202);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => postCommand(servers[i % 2]!.url, a.apiKey, 'message.send', {
      target: { kind: 'recipient', recipientExternalId: `+141555505${String(i).padStart(2, '0')}` }, payload: { text: 'hi' },
    })));
    expect(results.filter((r) => r.status !== 202 && r.status !== 429).map((r) => r.body)).toEqual([]);
    expect(results.filter((r) => r.status === 202)).toHaveLength(1);
    expect(results.filter((r) => r.status === 429).every((r) => r.body.error === 'new_contact_limit')).toBe(true);
  });
});
