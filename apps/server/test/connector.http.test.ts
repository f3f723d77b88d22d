import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headers, ManualClock, postCommand, readyAccount, startTestServer, TestHost, type TestServer } from './helpers.ts';
import type { PlatformEvent } from '@switchboard/contracts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ rateLimit: 0 });
});
afterAll(() => server.stopAndClean());

async function events(apiKey: string): Promise<Array<{ id: string; type: string; data: any }>> {
  const response = await fetch(`${server.url}/v1/events?after=0&limit=1000`, { headers: headers(apiKey) });
  return ((await response.json()) as { events: Array<{ id: string; type: string; data: any }> }).events;
}

async function send(a: Awaited<ReturnType<typeof readyAccount>>): Promise<string> {
  const res = await postCommand(server.url, a.apiKey, 'message.send', { target: { kind: 'conversation', conversationId: a.direct }, payload: { text: 'hi' } });
  expect(res.status).toBe(202);
  return res.body.commandId;
}

describe('dispatch: delivery is confirmed by the host', () => {
  it('a command the host does not list in holding is handed out again under the same epoch, oldest first', async () => {
    const a = await readyAccount(server);
    const first = await send(a);
    const second = await send(a);
    const poll = (holding: string[]) => a.host.call('dispatch', { epoch: a.host.epoch, holding, waitMs: 0 });
    expect((await poll([])).body.commands.map((c: { commandId: string }) => c.commandId)).toEqual([first, second]);
    // The answer never arrived: the next poll holds nothing, and gets both again.
    expect((await poll([])).body.commands.map((c: { commandId: string }) => c.commandId)).toEqual([first, second]);
    expect((await poll([second])).body.commands.map((c: { commandId: string }) => c.commandId)).toEqual([first]);
    expect((await poll([first, second])).body.commands).toEqual([]);
  });

  it('a poll without holding is refused: the server cannot tell what arrived', async () => {
    const a = await readyAccount(server);
    const answer = await a.host.call('dispatch', { epoch: a.host.epoch, waitMs: 0 });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'invalid_request' });
  });
});

describe('a dispatch poll renews the lease', () => {
  const TTL = 15_000;
  const sendTo = (url: string, apiKey: string) => postCommand(url, apiKey, 'message.send', { target: { kind: 'recipient', recipientExternalId: '+14155550123' }, payload: { text: 'hi' } });
  type Leased = { s: TestServer; account: Awaited<ReturnType<TestServer['account']>>; host: TestHost };
  /** A server of `ttlMs` (on `clock`, when given) with an account whose host holds the lease, stopped after `body`. */
  async function leased(ttlMs: number, clock: ManualClock | undefined, body: (leased: Leased) => Promise<void>): Promise<void> {
    const s = await startTestServer({ leaseTtlMs: ttlMs }, clock);
    try {
      const account = await s.account();
      await body({ s, account, host: await new TestHost(s.url, account.connectorKey).lease() });
    } finally {
      await s.stopAndClean();
    }
  }

  it('an empty read once less than half the TTL is left, and says when: a host that only polls keeps its lease', async () => {
    const clock = new ManualClock();
    await leased(TTL, clock, async ({ s, account, host }) => {
      const poll = async () => (await host.call('dispatch', { epoch: host.epoch, holding: [], waitMs: 0 })).body;
      // More than half the TTL left: not renewed; the last renewal (the lease) was 7.5 s before the poll.
      clock.advance(7_500);
      expect(await poll()).toEqual({ commands: [], renewedAfterMs: -7_500 });
      clock.advance(1);
      expect(await poll()).toEqual({ commands: [], renewedAfterMs: 0 });
      // Live until 7.501 s + TTL, not a moment longer, with no renewal of its own.
      clock.advance(TTL - 1);
      expect((await sendTo(s.url, account.apiKey)).status).toBe(202);
      expect((await poll()).renewedAfterMs).toBe(0);
      clock.advance(TTL);
      expect((await sendTo(s.url, account.apiKey)).status).toBe(503);
      expect((await host.call('dispatch', { epoch: host.epoch, holding: [], waitMs: 0 })).body).toMatchObject({ error: 'lease_lost' });
    });
  });

  it('an empty read for a poll holding commands renews once a tenth of the TTL has passed: its host may count on its polls alone', async () => {
    const clock = new ManualClock();
    await leased(TTL, clock, async ({ s, account, host }) => {
      expect((await sendTo(s.url, account.apiKey)).status).toBe(202);
      const [command] = await host.dispatch();
      clock.advance(1_501);
      const answer = await host.call('dispatch', { epoch: host.epoch, holding: [command!.commandId], waitMs: 0 });
      expect(answer.body).toEqual({ commands: [], renewedAfterMs: 0 });
    });
  });

  it('a read that hands out commands renews once a tenth of the TTL has passed: the host counts a fresh lease while it executes them', async () => {
    const clock = new ManualClock();
    await leased(TTL, clock, async ({ s, account, host }) => {
      clock.advance(1_500);
      expect((await sendTo(s.url, account.apiKey)).status).toBe(202);
      const first = await host.call('dispatch', { epoch: host.epoch, holding: [], waitMs: 0 });
      expect(first.body.commands).toHaveLength(1);
      expect(first.body.renewedAfterMs).toBe(-1_500);
      clock.advance(1);
      expect((await sendTo(s.url, account.apiKey)).status).toBe(202);
      const second = await host.call('dispatch', { epoch: host.epoch, holding: [first.body.commands[0].commandId], waitMs: 0 });
      expect(second.body.commands).toHaveLength(1);
      expect(second.body.renewedAfterMs).toBe(0);
    });
  });

  it("a long poll's answer leaves its host at least a third of the TTL", async () => {
    const ttl = 3_000;
    await leased(ttl, undefined, async ({ s, account, host }) => {
      // Polls of half the TTL, back to back, for two TTLs: the lease never lapses.
      for (const started = Date.now(); Date.now() - started < 6_000;) {
        const sentAt = Date.now();
        const answer = await host.call('dispatch', { epoch: host.epoch, holding: [], waitMs: 1_500 });
        expect(answer.status).toBe(200);
        // The host's count from the answer: renewed while it waited, or just before it answered.
        expect(sentAt + answer.body.renewedAfterMs + ttl - Date.now()).toBeGreaterThanOrEqual(ttl / 3 - 50);
      }
      expect((await sendTo(s.url, account.apiKey)).status).toBe(202);
    });
  }, 20_000);

  it('a waiting poll keeps its lease live past the TTL; once its connection closes, the lease lives out its TTL', async () => {
    const ttl = 1_200;
    const s = await startTestServer({ leaseTtlMs: ttl });
    try {
      const account = await s.account();
      const host = new TestHost(s.url, account.connectorKey);
      const lease = await host.call('lease', { hostId: host.hostId, osMajorVersion: 15, capabilities: [] });
      expect(lease.body).toMatchObject({ ttlMs: ttl, keptWhilePolling: true });
      host.epoch = lease.body.epoch;
      const other = new TestHost(s.url, account.connectorKey);
      const tryOther = () => other.call('lease', { hostId: other.hostId, osMajorVersion: 15, capabilities: [] });
      // One poll waits three TTLs: no renewal of the host's own, and no other host gets in.
      const sentAt = Date.now();
      const answer = host.call('dispatch', { epoch: host.epoch, holding: [], waitMs: 3 * ttl });
      for (const at of [1.5, 2.5]) {
        await new Promise((resolve) => setTimeout(resolve, sentAt + at * ttl - Date.now()));
        const refused = await tryOther();
        expect(refused.status).toBe(409);
        expect(refused.body).toMatchObject({ error: 'lease_held', holderHostId: host.hostId });
      }
      const answered = await answer;
      expect(answered.status).toBe(200);
      // Renewed while it waited: the answer leaves the host at least a third of the TTL.
      expect(answered.body.renewedAfterMs).toBeGreaterThan(2 * ttl);
      expect(sentAt + answered.body.renewedAfterMs + ttl - Date.now()).toBeGreaterThanOrEqual(ttl / 3 - 50);
      expect((await postCommand(s.url, account.apiKey, 'message.send', { target: { kind: 'recipient', recipientExternalId: '+14155550123' }, payload: { text: 'hi' } })).status).toBe(202);

      // A poll whose connection closes (its host died) stops the renewals.
      const closed = new AbortController();
      const dying = host.call('dispatch', { epoch: host.epoch, holding: [], waitMs: 10 * ttl }, closed.signal).catch(() => null);
      await new Promise((resolve) => setTimeout(resolve, ttl));
      closed.abort();
      await dying;
      const diedAt = Date.now();
      let taken = await tryOther();
      while (taken.status !== 200 && Date.now() - diedAt < 3 * ttl) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        taken = await tryOther();
      }
      expect(taken.status).toBe(200);
      // Within the TTL of its last renewal, which came at most half the TTL before the close... plus the sweep's sixth.
      expect(Date.now() - diedAt).toBeLessThanOrEqual(ttl + 200);
    } finally {
      await s.stopAndClean();
    }
  }, 20_000);

  it("a poll's lease_lost names the live lease's host: a process with the same host id took it over", async () => {
    await leased(TTL, undefined, async ({ s, account, host }) => {
      const oldEpoch = host.epoch;
      const waiting = host.call('dispatch', { epoch: oldEpoch, holding: [], waitMs: 5_000 });
      const restarted = await new TestHost(s.url, account.connectorKey, host.hostId).lease();
      const answered = await waiting;
      expect(answered.status).toBe(409);
      expect(answered.body).toMatchObject({ error: 'lease_lost', holderHostId: restarted.hostId });
      // Released: no live lease, no holder named.
      await restarted.release();
      const after = await host.call('dispatch', { epoch: oldEpoch, holding: [], waitMs: 0 });
      expect(after.status).toBe(409);
      expect(after.body.holderHostId).toBeUndefined();
    });
  });

  it('a poll of an epoch that is not live renews nothing', async () => {
    const clock = new ManualClock();
    await leased(TTL, clock, async ({ s, account, host }) => {
      clock.advance(10_000);
      expect((await host.call('dispatch', { epoch: host.epoch + 1, holding: [], waitMs: 0 })).status).toBe(409);
      clock.advance(TTL - 10_000);
      expect((await sendTo(s.url, account.apiKey)).status).toBe(503);
    });
  });
});

describe('settlement by the live lease', () => {
  it('a command not dispatched to the live epoch answers 409 not_dispatched, and settles once it is', async () => {
    const a = await readyAccount(server);
    const commandId = await send(a);
    const early = await a.host.settle(commandId, 'succeeded');
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ error: 'not_dispatched' });
    // Handed to the previous epoch only: the live one (a restart of the same host) is told the same.
    await a.host.dispatch();
    const restarted = await new TestHost(server.url, a.connectorKey, a.host.hostId).lease();
    expect((await restarted.settle(commandId, 'succeeded')).body).toMatchObject({ error: 'not_dispatched' });
    // The old epoch is fenced.
    expect((await a.host.settle(commandId, 'succeeded')).body).toMatchObject({ error: 'lease_lost' });
    expect((await restarted.dispatch()).map((c) => c.commandId)).toEqual([commandId]);
    expect((await restarted.settle(commandId, 'succeeded')).status).toBe(200);
    expect((await events(a.apiKey)).filter((e) => e.type === 'command.settled')).toHaveLength(1);
  });

  // connector.yaml, settleCommand: "an epoch that is not the live lease's answers 409 lease_lost".
  it('an ended epoch settling differently what it settled answers 409 lease_lost; the same settlement still answers 200', async () => {
    const a = await readyAccount(server);
    const commandId = await send(a);
    await a.host.dispatch();
    const first = await a.host.settle(commandId, 'succeeded');
    expect(first.status).toBe(200);
    await new TestHost(server.url, a.connectorKey, a.host.hostId).lease();
    const different = await a.host.settle(commandId, 'failed', 'gateway_rejected');
    expect(different.status).toBe(409);
    expect(different.body).toMatchObject({ error: 'lease_lost' });
    expect(await a.host.settle(commandId, 'succeeded')).toEqual(first);
  });
});

describe('platform events are recorded once, whole', () => {
  it('a re-reported batch adds no second event: conversation, messages, rename, membership', async () => {
    const a = await readyAccount(server);
    const commandId = await send(a);
    const batch: PlatformEvent[] = [
      { type: 'conversation.appeared', externalId: 'chat-again', conversationKind: 'group', name: 'Old', participants: ['+14155550123'] },
      { type: 'message.sent', conversationExternalId: 'chat-again', messageExternalId: 'out-1', commandId },
      { type: 'message.received', conversationExternalId: 'chat-again', messageExternalId: 'in-1', senderExternalId: '+14155550123', text: 'hey', attachments: [], receivedAt: new Date().toISOString() },
      { type: 'group.renamed', conversationExternalId: 'chat-again', name: 'New' },
      { type: 'group.participants_changed', conversationExternalId: 'chat-again', added: ['dana@example.com'], removed: [], participants: ['+14155550123', 'dana@example.com'] },
    ];
    const before = (await events(a.apiKey)).length;
    await a.host.report(batch);
    await a.host.report(batch);
    // After failover, another host re-reports the same message.
    const next = await new TestHost(server.url, a.connectorKey, a.host.hostId).lease();
    await next.report([batch[1]!]);
    // The same members in another order (a platform lists them as it likes) change nothing.
    await next.report([{ ...batch[4]!, added: [], participants: ['dana@example.com', '+14155550123'] } as PlatformEvent]);
    const types = (await events(a.apiKey)).slice(before).map((e) => e.type);
    expect(types).toEqual(['conversation.appeared', 'message.sent', 'message.received', 'group.renamed', 'group.participants_changed']);
  });

  it("a membership change shows what changed from the members the server held, whatever the host counted", async () => {
    const a = await readyAccount(server);
    await a.host.report([{ type: 'conversation.appeared', externalId: 'chat-count', conversationKind: 'group', name: null, participants: ['+14155550123', '+14155550124'] }]);
    // A host that restarted knows no earlier members: it counts every member as added.
    await a.host.report([{
      type: 'group.participants_changed', conversationExternalId: 'chat-count',
      added: ['+14155550124', 'dana@example.com'], removed: ['+14155550999'], participants: ['+14155550124', 'dana@example.com'],
    }]);
    const changed = (await events(a.apiKey)).filter((e) => e.type === 'group.participants_changed').at(-1)!;
    expect(changed.data).toMatchObject({ added: ['dana@example.com'], removed: ['+14155550123'], participants: ['+14155550124', 'dana@example.com'] });
  });

  /** Reports `batch` as one request: answered 400 invalid_request, with nothing of it on the stream. */
  async function refusedWhole(a: Awaited<ReturnType<typeof readyAccount>>, batch: unknown[]): Promise<{ message?: string }> {
    const before = (await events(a.apiKey)).length;
    const answer = await a.host.call('platform-events', { epoch: a.host.epoch, events: batch });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'invalid_request' });
    expect(await events(a.apiKey)).toHaveLength(before);
    return answer.body as { message?: string };
  }

  it('a batch naming an unknown conversation records nothing of it, not even the conversation it announced', async () => {
    const a = await readyAccount(server);
    const before = (await events(a.apiKey)).length;
    const refused = await refusedWhole(a, [
      { type: 'conversation.appeared', externalId: 'chat-half', conversationKind: 'direct', name: null, participants: ['+14155550199'] },
      { type: 'group.renamed', conversationExternalId: 'chat-nobody', name: 'x' },
    ]);
    expect(refused.message).toContain('chat-nobody');
    // Reported again, whole, the conversation appears with its event.
    await a.host.report([{ type: 'conversation.appeared', externalId: 'chat-half', conversationKind: 'direct', name: null, participants: ['+14155550199'] }]);
    expect((await events(a.apiKey)).slice(before).map((e) => e.type)).toEqual(['conversation.appeared']);
  });

  // A command id a host names goes on the stream (stream.yaml: a UUID): one that is no UUID is refused.
  it('a platform event whose commandId is not a UUID is refused whole', async () => {
    const a = await readyAccount(server);
    await refusedWhole(a, [
      { type: 'conversation.appeared', externalId: 'chat-odd', conversationKind: 'direct', name: null, participants: ['+14155550188'] },
      { type: 'message.sent', conversationExternalId: 'chat-odd', messageExternalId: 'out-odd', commandId: 'not-a-uuid' },
    ]);
  });
});

describe('settlement batches: each settlement with its platform events, in one transaction', () => {
  const sent = (chat: string, commandId: string): PlatformEvent => ({ type: 'message.sent', conversationExternalId: chat, messageExternalId: `out-${commandId}`, commandId });
  /** Dispatches what is queued; answers the platform's id of the conversation the commands went to. */
  const dispatchAll = async (host: TestHost) => ((await host.dispatch())[0]!.target as { externalId: string }).externalId;
  const batch = (host: TestHost, settlements: unknown[]) => host.call('settlements/batch', { epoch: host.epoch, settlements });

  it('settles in the batch\'s order, each command after its platform events; repeated, it answers the same and records nothing', async () => {
    const a = await readyAccount(server);
    const [first, second] = [await send(a), await send(a)];
    const chat = await dispatchAll(a.host);
    const before = (await events(a.apiKey)).length;
    const body = [
      { commandId: first, status: 'succeeded', errorCode: null, events: [sent(chat, first!)] },
      { commandId: second, status: 'failed', errorCode: 'send_returned_not_ok', errorMessage: 'the gateway said no', events: [sent(chat, second!)] },
    ];
    const answer = await batch(a.host, body);
    expect(answer.status).toBe(200);
    expect(answer.body.results).toEqual([
      { commandId: first, result: 'settled', status: 'succeeded', errorCode: null },
      { commandId: second, result: 'settled', status: 'failed', errorCode: 'send_returned_not_ok' },
    ]);
    const recorded = (await events(a.apiKey)).slice(before);
    expect(recorded.map((e) => [e.type, e.data.commandId])).toEqual([
      ['message.sent', first], ['command.settled', first], ['message.sent', second], ['command.settled', second],
    ]);
    expect(recorded[3]!.data).toMatchObject({ status: 'failed', errorMessage: 'the gateway said no' });
    // The answer was lost: the host sends the batch again.
    expect((await batch(a.host, body)).body).toEqual(answer.body);
    expect(await events(a.apiKey)).toHaveLength(before + 4);
  });

  it('each item answers for itself: an unknown conversation records nothing of its item, the others settle', async () => {
    const a = await readyAccount(server);
    const [early, ok, lost] = [await send(a), await send(a), await send(a)];
    const chat = await dispatchAll(a.host);
    const notYet = await send(a);
    const before = (await events(a.apiKey)).length;
    const answer = await batch(a.host, [
      { commandId: early, status: 'succeeded', errorCode: 'invalid_target' },
      { commandId: lost, status: 'succeeded', errorCode: null, events: [sent(chat, lost!), { type: 'group.renamed', conversationExternalId: 'chat-nobody', name: 'x' }] },
      { commandId: notYet, status: 'succeeded', errorCode: null, events: [sent(chat, notYet!)] },
      { commandId: ok, status: 'succeeded', errorCode: null },
      { commandId: '01a20b83-0000-7000-8000-000000000000', status: 'succeeded', errorCode: null },
    ]);
    expect(answer.status).toBe(200);
    expect(answer.body.results.map((r: { result: string }) => r.result)).toEqual(['invalid_request', 'invalid_request', 'not_dispatched', 'settled', 'command_not_found']);
    expect(answer.body.results[1].message).toContain('chat-nobody');
    // The command not dispatched yet still has its message recorded: the platform showed it.
    expect((await events(a.apiKey)).slice(before).map((e) => [e.type, e.data.commandId])).toEqual([['message.sent', notYet], ['command.settled', ok]]);
  });

  it('a command that made its conversation (conversation.appeared naming it) settles with that conversation', async () => {
    const a = await readyAccount(server);
    const res = await postCommand(server.url, a.apiKey, 'message.send', { target: { kind: 'recipient', recipientExternalId: '+14155550177' }, payload: { text: 'hello' } });
    const commandId = res.body.commandId as string;
    await a.host.dispatch();
    const answer = await batch(a.host, [{
      commandId, status: 'succeeded', errorCode: null,
      events: [
        { type: 'conversation.appeared', externalId: 'chat-new-recipient', conversationKind: 'direct', name: null, participants: ['+14155550177'], commandId },
        sent('chat-new-recipient', commandId),
      ],
    }]);
    expect(answer.body.results[0]).toMatchObject({ result: 'settled' });
    const recorded = await events(a.apiKey);
    const appeared = recorded.find((e) => e.type === 'conversation.appeared' && e.data.commandId === commandId)!;
    expect(recorded.find((e) => e.type === 'command.settled' && e.data.commandId === commandId)!.data.conversationId).toBe(appeared.data.conversationId);
  });

  it('an epoch that is not the live lease\'s settles nothing and records none of its events', async () => {
    const a = await readyAccount(server);
    const commandId = await send(a);
    const chat = await dispatchAll(a.host);
    const stale = a.host.epoch;
    await new TestHost(server.url, a.connectorKey, a.host.hostId).lease();
    const before = (await events(a.apiKey)).length;
    const answer = await a.host.call('settlements/batch', { epoch: stale, settlements: [{ commandId, status: 'succeeded', errorCode: null, events: [sent(chat, commandId)] }] });
    expect(answer.body.results).toEqual([{ commandId, result: 'lease_lost', message: expect.any(String) }]);
    expect(await events(a.apiKey)).toHaveLength(before);
  });
});

describe('the bounds connector.yaml declares are enforced (the OWASP lint asks every array and integer for one)', () => {
  const people = (n: number) => Array.from({ length: n }, (_, i) => `+1415555${String(i).padStart(4, '0')}`);

  it('a conversation of 1,024 participants is recorded; 1,025 is 400 invalid_request', async () => {
    const a = await readyAccount(server);
    const report = (n: number) => a.host.call('platform-events', { epoch: a.host.epoch, events: [{ type: 'conversation.appeared', externalId: `big-${n}`, conversationKind: 'group', name: null, participants: people(n) }] });
    expect((await report(1024)).status).toBe(200);
    const over = await report(1025);
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ error: 'invalid_request' });
  });

  it('an epoch above 2^31 - 1 (int32) is 400 invalid_request, not a lookup', async () => {
    const a = await readyAccount(server);
    const answer = await a.host.call('dispatch', { epoch: 2 ** 31, holding: [], waitMs: 0 });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'invalid_request' });
  });
});
