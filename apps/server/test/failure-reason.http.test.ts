import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventSchemas } from '@switchboard/contracts';
import { expectSpecResponse, headers, postCommand, readyAccount, startTestServer, type TestServer } from './helpers.ts';

/**
 * Why a command failed (switchboard.yaml, "Why a command failed"): what the host says in its
 * settlement is on the command read and on the command.settled event, bounded, and only for a
 * failure. The host is played over the connector protocol; apps/connector's end-to-end tests
 * check what the real host says.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ rateLimit: 0 });
});
afterAll(() => server.stopAndClean());

type Account = Awaited<ReturnType<typeof readyAccount>>;

/** A command sent into the account's direct conversation and handed to its host. */
async function dispatched(a: Account): Promise<string> {
  const res = await postCommand(server.url, a.apiKey, 'message.send', { target: { kind: 'conversation', conversationId: a.direct }, payload: { txt: 'typo' } });
  expect(res.status).toBe(202);
  await a.host.dispatch();
  return res.body.commandId as string;
}

async function read(a: Account, commandId: string) {
  const res = await fetch(`${server.url}/v1/commands/${commandId}`, { headers: headers(a.apiKey) });
  const body = (await res.json()) as Record<string, unknown>;
  expectSpecResponse('/v1/commands/{commandId}', 'get', 200, body, res.headers);
  return body;
}

/** The command.settled event of `commandId`, checked against the stream's schema. */
async function settledEvent(a: Account, commandId: string) {
  const res = await fetch(`${server.url}/v1/events?after=0&limit=1000`, { headers: headers(a.apiKey) });
  const { events } = (await res.json()) as { events: Array<{ type: string; data: { commandId?: string } }> };
  const event = events.find((e) => e.type === 'command.settled' && e.data.commandId === commandId);
  return eventSchemas.zCommandSettledEvent.parse(event).data;
}

describe('why a command failed: errorMessage and errorPath', () => {
  it('a failure\'s message and path are on the command read and on its command.settled event', async () => {
    const a = await readyAccount(server);
    const commandId = await dispatched(a);
    const why = { errorMessage: '/payload/txt: Unrecognized key: "txt"', errorPath: '/payload/txt' };
    expect((await a.host.settle(commandId, 'failed', 'payload_invalid', why)).status).toBe(200);
    expect(await read(a, commandId)).toMatchObject({ status: 'failed', errorCode: 'payload_invalid', ...why });
    expect(await settledEvent(a, commandId)).toMatchObject({ status: 'failed', errorCode: 'payload_invalid', ...why });
  });

  it('a queued command and a succeeded one carry neither', async () => {
    const a = await readyAccount(server);
    const commandId = await dispatched(a);
    expect(await read(a, commandId)).toMatchObject({ status: 'queued', errorMessage: null, errorPath: null });
    expect((await a.host.settle(commandId, 'succeeded', null, { detail: 'a note for the log only' })).status).toBe(200);
    expect(await read(a, commandId)).toMatchObject({ status: 'succeeded', errorCode: null, errorMessage: null, errorPath: null });
    expect(await settledEvent(a, commandId)).toMatchObject({ status: 'succeeded', errorMessage: null, errorPath: null });
  });

  it('a succeeded settlement that says why it failed is 400 invalid_request, and settles nothing', async () => {
    const a = await readyAccount(server);
    const commandId = await dispatched(a);
    for (const why of [{ errorMessage: 'no' }, { errorPath: '/payload' }]) {
      const answer = await a.host.settle(commandId, 'succeeded', null, why);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ error: 'invalid_request' });
    }
    expect(await read(a, commandId)).toMatchObject({ status: 'queued' });
  });

  it('a message over 1,024 characters is cut to 1,023 and an ellipsis, counted in characters, not UTF-16 units', async () => {
    const a = await readyAccount(server);
    const commandId = await dispatched(a);
    // Astral characters are two UTF-16 units each: a cut by units would split one.
    const message = '😀'.repeat(1_000) + 'x'.repeat(3_000);
    expect((await a.host.settle(commandId, 'failed', 'gateway_rejected', { errorMessage: message })).status).toBe(200);
    const kept = `${'😀'.repeat(1_000)}${'x'.repeat(23)}…`;
    expect(Array.from(kept)).toHaveLength(1_024);
    expect((await read(a, commandId)).errorMessage).toBe(kept);
    expect((await settledEvent(a, commandId)).errorMessage).toBe(kept);
  });

  it('a message of exactly 1,024 characters is kept whole', async () => {
    const a = await readyAccount(server);
    const commandId = await dispatched(a);
    const message = 'y'.repeat(1_024);
    await a.host.settle(commandId, 'failed', 'gateway_rejected', { errorMessage: message });
    expect((await read(a, commandId)).errorMessage).toBe(message);
  });

  it('a path over 1,024 characters is shortened to its nearest ancestor that fits, never cut mid-segment', async () => {
    const a = await readyAccount(server);
    const commandId = await dispatched(a);
    const path = `/payload/${'k'.repeat(1_000)}/${'deep'.repeat(10)}`;
    await a.host.settle(commandId, 'failed', 'payload_invalid', { errorMessage: 'too deep', errorPath: path });
    expect((await read(a, commandId)).errorPath).toBe(`/payload/${'k'.repeat(1_000)}`);
  });

  it('a host that says why only in detail (from before errorMessage) has it shown as the errorMessage', async () => {
    const a = await readyAccount(server);
    const commandId = await dispatched(a);
    await a.host.settle(commandId, 'failed', 'stale_target', { detail: 'the membership changed underneath the command' });
    expect(await read(a, commandId)).toMatchObject({ errorMessage: 'the membership changed underneath the command', errorPath: null });
  });

  it('a failure the host gives no reason for has a null message', async () => {
    const a = await readyAccount(server);
    const commandId = await dispatched(a);
    await a.host.settle(commandId, 'failed', 'gateway_rejected');
    expect(await read(a, commandId)).toMatchObject({ status: 'failed', errorMessage: null, errorPath: null });
  });

  it('a command.settled stored before errorMessage existed reads with both null', async () => {
    const a = await readyAccount(server);
    const data = { commandId: '01900000-0000-7000-8000-000000000001', logicalActionId: 'x', status: 'failed', errorCode: 'stale_target', commandType: 'message.send', routingPath: 'agent-turn' };
    await server.services.store.appendEvents(a.accountId, [{ type: 'command.settled', time: Date.now(), data }]);
    expect(await settledEvent(a, data.commandId)).toEqual({ ...data, errorMessage: null, errorPath: null });
  });
});
