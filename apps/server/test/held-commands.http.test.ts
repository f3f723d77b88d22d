import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testDatabase, testStore } from '@switchboard/testkit/postgres';
import { createIdSource } from '../src/ids.ts';
import type { LinePolicies } from '../src/store/types.ts';
import {
  countRows, eventsAfter, expectAdminSpec, expectSpecResponse, headers, ManualClock, postCommand, startTestServer, TestHost, type PageEvent, type TestServer,
} from './helpers.ts';

/**
 * The line policies that hold rather than refuse (specs/openapi/switchboard.yaml, "Line
 * policies"): quiet hours and first-contact approval, over HTTP against the real server. The
 * manual clock starts at 2026-01-01 00:00 UTC.
 */
const newId = createIdSource().next;
const OFF: LinePolicies = { newContacts: null, pacing: null, loopBreaker: null, quietHours: null, firstContactApproval: false };
const NIGHT = { from: '22:00', until: '08:00', timeZone: 'UTC', conversationTimeZones: {} };
const SEND = '/v1/commands/message.send';
const HOUR = 3_600_000;

describe('held commands (quiet hours, first-contact approval)', () => {
  let server: TestServer;
  let operator: string;
  const clock = new ManualClock();

  beforeAll(async () => {
    server = await startTestServer({ rateLimit: 0, leaseTtlMs: 3 * 86_400_000 }, clock);
    operator = (await server.operatorKey()).secret;
  });
  afterAll(async () => {
    await server.stopAndClean();
  });

  async function admin(method: string, path: string, body?: unknown, key = operator): Promise<{ status: number; body: any }> {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    const answer = { status: res.status, body: text ? JSON.parse(text) : null };
    const specPath = path.split('?')[0]!.replace(/\/v1\/admin\/commands\/[^/]+/, '/v1/admin/commands/{commandId}').replace(/\/v1\/admin\/accounts\/[^/]+/, '/v1/admin/accounts/{accountId}');
    expectAdminSpec(specPath, method, answer.status, answer.body);
    return answer;
  }

  async function account(policies: Partial<LinePolicies>) {
    const a = await server.account();
    const host = await new TestHost(server.url, a.connectorKey).lease();
    const direct = await host.conversation(server, a.accountId, 'direct', ['+14155550123']);
    await server.services.store.setPolicies(a.accountId, { ...OFF, ...policies }, clock.now());
    const send = (extra: Record<string, string> = {}, conversationId = direct) =>
      postCommand(server.url, a.apiKey, 'message.send', { target: { kind: 'conversation', conversationId }, payload: { text: 'hi' } }, extra);
    const toRecipient = (address: string) =>
      postCommand(server.url, a.apiKey, 'message.send', { target: { kind: 'recipient', recipientExternalId: address }, payload: { text: 'hello' } });
    const command = async (id: string) => {
      const res = await fetch(`${server.url}/v1/commands/${id}`, { headers: headers(a.apiKey) });
      const body = await res.json() as any;
      expectSpecResponse('/v1/commands/{commandId}', 'get', 200, body, res.headers);
      return body;
    };
    const events = async (type?: string): Promise<PageEvent[]> => (await eventsAfter(server, a.apiKey, '0')).filter((e) => type === undefined || e.type === type);
    return { ...a, host, direct, send, toRecipient, command, events };
  }

  /** Moves the clock to the next `hh:mm` UTC. */
  function moveTo(hh: number, mm = 0): void {
    const day = 86_400_000;
    const target = (hh * 60 + mm) * 60_000;
    const into = clock.now() % day;
    clock.advance(((target - into) % day + day) % day);
  }

  it('quiet hours: a send is accepted held, not dispatched; when the window ends it is released once, in order, and settles as any command', async () => {
    moveTo(23);
    const a = await account({ quietHours: NIGHT });
    const first = await a.send({ 'idempotency-key': `k-${newId()}` });
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ commandId: expect.any(String), status: 'held', disposition: 'queued' });
    expectSpecResponse(SEND, 'post', 202, first.body, first.headers);
    clock.advance(60_000);
    const second = await a.send();
    expect(second.body.status).toBe('held');

    const read = await a.command(first.body.commandId);
    expect(read).toMatchObject({ status: 'held', heldBy: 'quietHours', settledAt: null });
    expect(read.history).toEqual([{ status: 'held', at: read.createdAt }]);
    const [held] = await a.events('command.held');
    expect(held!.data).toEqual({
      commandId: first.body.commandId, commandType: 'message.send', policy: 'quietHours', conversationId: a.direct,
      releasesAt: new Date(clock.now() - 60_000 + 9 * HOUR).toISOString(), reason: expect.stringContaining('quiet hours'),
    });
    expect(await a.host.dispatch()).toEqual([]);

    // The window has not ended: the job releases nothing.
    moveTo(7, 59);
    await server.releaseHolds();
    expect(await a.events('command.released')).toEqual([]);
    moveTo(8);
    await server.releaseHolds();
    await server.releaseHolds();
    const released = await a.events('command.released');
    expect(released.map((e) => e.data)).toEqual([
      { commandId: first.body.commandId, commandType: 'message.send', policy: 'quietHours', by: 'window' },
      { commandId: second.body.commandId, commandType: 'message.send', policy: 'quietHours', by: 'window' },
    ]);
    const dispatched = await a.host.dispatch();
    expect(dispatched.map((c) => c.commandId)).toEqual([first.body.commandId, second.body.commandId]);
    expect((await a.host.settle(first.body.commandId, 'succeeded')).status).toBe(200);
    const settled = await a.command(first.body.commandId);
    expect(settled).toMatchObject({ status: 'succeeded', heldBy: null });
    expect(settled.history.map((h: { status: string }) => h.status)).toEqual(['held', 'queued', 'succeeded']);
  });

  it('quiet hours: a retry with the same Idempotency-Key adopts the held command; no second one is queued', async () => {
    moveTo(23);
    const a = await account({ quietHours: NIGHT });
    const key = `retry-${newId()}`;
    const first = await a.send({ 'idempotency-key': key });
    const again = await a.send({ 'idempotency-key': key });
    expect(again.status).toBe(202);
    expect(again.body).toEqual({ commandId: first.body.commandId, status: 'held', disposition: 'adopted' });
    expect(await countRows(server, 'commands', { idempotencyKey: key })).toBe(1);
    expect(await a.events('command.held')).toHaveLength(1);
  });

  it('quiet hours: a command accepted after the window ended comes after the held ones, even before the job runs', async () => {
    moveTo(23);
    const a = await account({ quietHours: NIGHT });
    const held = await a.send();
    moveTo(8);
    const fresh = await a.send();
    expect(fresh.body.status).toBe('queued');
    expect((await a.events('command.released')).map((e) => e.data.commandId)).toEqual([held.body.commandId]);
    expect((await a.host.dispatch()).map((c) => c.commandId)).toEqual([held.body.commandId, fresh.body.commandId]);
  });

  it('quiet hours: every command type is held; a conversation\'s own time zone applies to it, the account\'s to a recipient send', async () => {
    moveTo(0);
    // 00:00 UTC is 09:00 in Tokyo: that conversation's day has begun, UTC's night has not ended.
    const a = await account({ quietHours: { ...NIGHT } });
    await server.services.store.setPolicies(a.accountId, { ...OFF, quietHours: { ...NIGHT, conversationTimeZones: { [a.direct]: 'Asia/Tokyo' } } }, clock.now());
    expect((await a.send()).body.status).toBe('queued');
    expect((await a.toRecipient('+14155550177')).body.status).toBe('held');
    const other = await a.host.conversation(server, a.accountId, 'direct', ['+14155550124']);
    const tapback = await postCommand(server.url, a.apiKey, 'reaction.tapback', { target: { kind: 'conversation', conversationId: other }, payload: { messageExternalId: 'm1', reaction: 'love' } });
    expect(tapback.body.status).toBe('held');
  });

  it('quiet hours turned off release what they hold (by policy_change); the usage read says what is held and whether it is quiet', async () => {
    moveTo(23);
    const a = await account({ quietHours: NIGHT });
    const held = await a.send();
    const usage = await admin('GET', `/v1/admin/accounts/${a.accountId}/policies/usage?conversationId=${a.direct}`);
    expect(usage.status).toBe(200);
    expect(usage.body).toEqual({
      newContacts: { lastHour: 0, lastDay: 0 },
      quietHours: { quiet: true, opensAt: new Date(clock.now() + 9 * HOUR).toISOString() },
      held: { quietHours: 1, firstContactApproval: 0 },
      conversation: { conversationId: a.direct, sendsLastMinute: 1, unanswered: 1 },
    });
    expect((await admin('PUT', `/v1/admin/accounts/${a.accountId}/policies`, { quietHours: null })).status).toBe(200);
    // Released with the change itself, not by the job later: a send right after it comes after them.
    expect((await a.events('command.released')).map((e) => e.data)).toEqual([
      { commandId: held.body.commandId, commandType: 'message.send', policy: 'quietHours', by: 'policy_change' },
    ]);
    expect((await a.command(held.body.commandId)).status).toBe('queued');
    const next = await a.send();
    expect(next.body.status).toBe('queued');
    expect((await a.host.dispatch()).map((c) => c.commandId)).toEqual([held.body.commandId, next.body.commandId]);
    await server.releaseHolds();
    expect(await a.events('command.released')).toHaveLength(1);
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(/switchboard_line_policy_total\{policy="quietHours",outcome="held"\} [1-9]/);
    expect(metrics).toMatch(/switchboard_line_policy_total\{policy="quietHours",outcome="released"\} [1-9]/);
  });

  it('first-contact approval: a first message waits for an operator; a second to the same address waits too; released, the address is known', async () => {
    moveTo(12);
    const a = await account({ firstContactApproval: true });
    const first = await a.toRecipient('+14155550180');
    expect(first.body.status).toBe('held');
    const second = await a.toRecipient('+1 (415) 555-0180');
    expect(second.body.status).toBe('held');
    // A known address, and a conversation send, go at once.
    expect((await a.toRecipient('+14155550123')).body.status).toBe('queued');
    expect((await a.send()).body.status).toBe('queued');
    const [held] = await a.events('command.held');
    expect(held!.data).toMatchObject({ commandId: first.body.commandId, policy: 'firstContactApproval', releasesAt: null, conversationId: null });
    expect((await a.host.dispatch()).map((c) => c.commandId)).not.toContain(first.body.commandId);

    const released = await admin('POST', `/v1/admin/commands/${first.body.commandId}/release`);
    expect(released.status).toBe(200);
    expect(released.body.command).toMatchObject({ commandId: first.body.commandId, status: 'queued', heldBy: null });
    expect(released.body.timeline.map((t: { kind: string }) => t.kind)).toEqual(['accepted', 'held', 'released']);
    expect((await a.events('command.released')).map((e) => e.data)).toEqual([
      { commandId: first.body.commandId, commandType: 'message.send', policy: 'firstContactApproval', by: 'operator' },
    ]);
    expect((await a.host.dispatch()).map((c) => c.commandId)).toContain(first.body.commandId);
    // Known now: a new send to it is not held; the second one still waits for its own decision.
    expect((await a.toRecipient('+14155550180')).body.status).toBe('queued');
    expect((await a.command(second.body.commandId)).status).toBe('held');

    const rejected = await admin('POST', `/v1/admin/commands/${second.body.commandId}/reject`, { reason: 'a duplicate introduction' });
    expect(rejected.status).toBe(200);
    expect(rejected.body.command).toMatchObject({
      status: 'failed', errorCode: 'first_contact_rejected', errorMessage: 'rejected by an operator: a duplicate introduction', heldBy: null,
    });
    const settled = (await a.events('command.settled')).find((e) => e.data.commandId === second.body.commandId);
    expect(settled!.data).toMatchObject({ status: 'failed', errorCode: 'first_contact_rejected' });

    // Each hold ends once.
    expect((await admin('POST', `/v1/admin/commands/${second.body.commandId}/release`)).body.error).toBe('command_not_held');
    expect((await admin('POST', `/v1/admin/commands/${first.body.commandId}/reject`)).status).toBe(409);
    expect((await admin('POST', `/v1/admin/commands/01900000-0000-7000-8000-000000000000/release`)).body.error).toBe('command_not_found');
    const readOnly = (await server.operatorKey('read-only')).secret;
    expect((await admin('POST', `/v1/admin/commands/${first.body.commandId}/release`, undefined, readOnly)).status).toBe(403);
    const audit = await admin('GET', '/v1/admin/audit?limit=10');
    expect(audit.body.records.map((r: { action: string }) => r.action)).toEqual(expect.arrayContaining(['command.release', 'command.reject']));
  });

  it('first-contact approval with a budget: a held first contact spends it; a rejection gives it back', async () => {
    moveTo(12);
    const a = await account({ firstContactApproval: true, newContacts: { perHour: 1, perDay: null } });
    const first = await a.toRecipient('+14155550190');
    expect(first.body.status).toBe('held');
    expect((await a.toRecipient('+14155550191')).status).toBe(429);
    expect((await admin('POST', `/v1/admin/commands/${first.body.commandId}/reject`)).body.command.errorMessage).toBe('rejected by an operator');
    const next = await a.toRecipient('+14155550191');
    expect(next.status).toBe(202);
    expect(next.body.status).toBe('held');
  });

  it('an approval during quiet hours holds the command again, by quiet hours', async () => {
    moveTo(23);
    const a = await account({ firstContactApproval: true, quietHours: NIGHT });
    const first = await a.toRecipient('+14155550195');
    const released = await admin('POST', `/v1/admin/commands/${first.body.commandId}/release`);
    expect(released.body.command).toMatchObject({ status: 'held', heldBy: 'quietHours' });
    expect((await a.events('command.held')).map((e) => e.data.policy)).toEqual(['firstContactApproval', 'quietHours']);
    moveTo(8);
    await server.releaseHolds();
    expect((await a.events('command.released')).map((e) => e.data)).toEqual([
      { commandId: first.body.commandId, commandType: 'message.send', policy: 'quietHours', by: 'window' },
    ]);
  });

  it('a lease change while a command is held loses nothing: released, it goes to the new holder', async () => {
    moveTo(23);
    const a = await account({ quietHours: NIGHT });
    const held = await a.send();
    await a.host.release();
    const next = await new TestHost(server.url, a.connectorKey).lease();
    moveTo(8);
    await server.releaseHolds();
    expect((await next.dispatch()).map((c) => c.commandId)).toEqual([held.body.commandId]);
  });

  it('bad policy input: a clear 400 naming the field, and nothing changed', async () => {
    const a = await account({ pacing: { perMinute: 5 } });
    const path = `/v1/admin/accounts/${a.accountId}/policies`;
    const bad: Array<[unknown, string]> = [
      [{ quietHours: { ...NIGHT, timeZone: 'Mars/Olympus' } }, 'quietHours.timeZone'],
      [{ quietHours: { ...NIGHT, conversationTimeZones: { [a.direct]: 'Nowhere/Town' } } }, `quietHours.conversationTimeZones.${a.direct}`],
      [{ quietHours: { ...NIGHT, from: '25:00' } }, 'quietHours.from'],
      [{ quietHours: { ...NIGHT, until: '22:00' } }, 'quietHours.until'],
      [{ quietHours: { from: '22:00', timeZone: 'UTC' } }, 'quietHours.until'],
      [{ firstContactApproval: 'yes' }, 'firstContactApproval'],
    ];
    for (const [body, field] of bad) {
      const answer = await admin('PUT', path, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body).toMatchObject({ error: 'invalid_body', field });
    }
    expect((await admin('GET', path)).body).toEqual({ ...OFF, quietHours: null, firstContactApproval: false, pacing: { perMinute: 5 } });
  });
});

// Two servers on one database: each releases under the account's policies lock, so a hold ends once.
describe.runIf(testStore() === 'postgres')('held commands across replicas', () => {
  const servers: TestServer[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.stopAndClean();
  });

  it('both replicas run the release job at once: every held command is released exactly once, in order', async () => {
    const databaseUrl = await testDatabase(`held-${newId()}`);
    const clock = new ManualClock();
    clock.advance(23 * HOUR);
    for (let i = 0; i < 2; i++) servers.push(await startTestServer({ databaseUrl, rateLimit: 0, leaseTtlMs: 86_400_000 }, clock));
    const a = await servers[0]!.account();
    const host = await new TestHost(servers[0]!.url, a.connectorKey).lease();
    const direct = await host.conversation(servers[0]!, a.accountId, 'direct', ['+14155550123']);
    await servers[0]!.services.store.setPolicies(a.accountId, { ...OFF, quietHours: NIGHT }, clock.now());
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await postCommand(servers[i % 2]!.url, a.apiKey, 'message.send', { target: { kind: 'conversation', conversationId: direct }, payload: { text: `n${i}` } });
      expect(r.body.status).toBe('held');
      ids.push(r.body.commandId);
    }
    clock.advance(9 * HOUR);
    await Promise.all([servers[0]!.releaseHolds(), servers[1]!.releaseHolds(), servers[0]!.releaseHolds(), servers[1]!.releaseHolds()]);
    const released = (await eventsAfter(servers[1]!, a.apiKey, '0')).filter((e) => e.type === 'command.released').map((e) => e.data.commandId);
    expect(released).toEqual(ids);
    expect((await host.dispatch()).map((c) => c.commandId)).toEqual(ids);
  });
});
