import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { expectSpecResponse, headers, ManualClock, postCommand, readyAccount, startTestServer, type TestServer } from './helpers.ts';

/**
 * Retention of commands and inbound attachments (switchboard.yaml, "Retention"): the server's
 * own retention round drops them, the clock moved by hand instead of waited for; what was
 * dropped reads as the spec says.
 */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let server: TestServer | undefined;
afterEach(async () => {
  await server?.stopAndClean();
  server = undefined;
});

async function start(overrides: Parameters<typeof startTestServer>[0] = {}) {
  const clock = new ManualClock();
  server = await startTestServer({ rateLimit: 0, readRateLimit: 0, ...overrides }, clock);
  return { s: server, clock };
}

type Account = Awaited<ReturnType<typeof readyAccount>>;

function send(s: TestServer, a: Account, extra: Record<string, string> = {}) {
  return postCommand(s.url, a.apiKey, 'message.send', { target: { kind: 'conversation', conversationId: a.direct }, payload: { text: 'hi' } }, extra);
}

/** Sends a command, and settles it now unless `settle` is false; answers its id. */
async function command(s: TestServer, a: Account, settle = true, extra: Record<string, string> = {}): Promise<string> {
  // The clock may have moved past the lease: a live one, now.
  await a.host.lease();
  const res = await send(s, a, extra);
  expect(res.status).toBe(202);
  const commandId = res.body.commandId as string;
  if (settle) {
    expect((await a.host.dispatch()).map((c) => c.commandId)).toContain(commandId);
    expect((await a.host.settle(commandId, 'succeeded')).status).toBe(200);
  }
  return commandId;
}

async function read(s: TestServer, a: Account, commandId: string) {
  const res = await fetch(`${s.url}/v1/commands/${commandId}`, { headers: headers(a.apiKey) });
  const body = (await res.json()) as Record<string, unknown>;
  expectSpecResponse('/v1/commands/{commandId}', 'get', res.status, body, res.headers);
  return { status: res.status, body };
}

describe('retention of commands', () => {
  it('a command settled more than 30 days ago reads 404 command_not_found, like one that never existed; a younger one is kept', async () => {
    const { s, clock } = await start();
    const a = await readyAccount(s);
    const old = await command(s, a);
    clock.advance(DAY);
    const younger = await command(s, a);
    clock.advance(29 * DAY);
    await s.retention();
    // Settled 30 days ago to the millisecond: kept; a day more: dropped.
    expect((await read(s, a, old)).status).toBe(200);
    clock.advance(1);
    await s.retention();
    const purged = await read(s, a, old);
    expect(purged).toMatchObject({ status: 404, body: { error: 'command_not_found' } });
    const unknown = await read(s, a, '01900000-0000-7000-8000-00000000abcd');
    expect(purged.body.message).toBe(unknown.body.message);
    expect((await read(s, a, younger)).body).toMatchObject({ status: 'succeeded' });
  });

  it('a command still queued is never dropped, however old; once it settles, its 30 days start', async () => {
    const { s, clock } = await start();
    const a = await readyAccount(s);
    const stuck = await command(s, a, false);
    clock.advance(365 * DAY);
    await s.retention();
    expect((await read(s, a, stuck)).body).toMatchObject({ status: 'queued' });
    await a.host.lease();
    await a.host.dispatch();
    expect((await a.host.settle(stuck, 'failed', 'gateway_rejected', { errorMessage: 'the gateway rejected the send' })).status).toBe(200);
    clock.advance(29 * DAY);
    await s.retention();
    expect((await read(s, a, stuck)).body).toMatchObject({ status: 'failed', errorMessage: 'the gateway rejected the send' });
    clock.advance(DAY + 1);
    await s.retention();
    expect((await read(s, a, stuck)).status).toBe(404);
  });

  it('a command is kept as long as its Idempotency-Key: a repeat adopts it with its status until both are dropped', async () => {
    // The shortest retention the server allows: commands exactly as long as keys.
    const { s, clock } = await start({ idempotencyRetentionMs: DAY, commandRetentionMs: DAY });
    const a = await readyAccount(s);
    const original = await command(s, a, true, { 'idempotency-key': 'order-42' });
    clock.advance(DAY - 1);
    await s.retention();
    await a.host.lease();
    const repeat = await send(s, a, { 'idempotency-key': 'order-42' });
    expect(repeat.body).toEqual({ commandId: original, status: 'succeeded', disposition: 'adopted' });
    clock.advance(2);
    await s.retention();
    expect((await read(s, a, original)).status).toBe(404);
    // Past retention the key is forgotten, as the spec keeps it: the same key is new work.
    await a.host.lease();
    const fresh = await send(s, a, { 'idempotency-key': 'order-42' });
    expect(fresh.body).toMatchObject({ disposition: 'queued', status: 'queued' });
    expect(fresh.body.commandId).not.toBe(original);
  });

  it('the server refuses a command retention shorter than the Idempotency-Key\'s, and defaults to no less than it', () => {
    expect(() => loadConfig({ SWITCHBOARD_COMMAND_RETENTION_MS: String(47 * HOUR) })).toThrow(/SWITCHBOARD_COMMAND_RETENTION_MS .* must be at least SWITCHBOARD_IDEMPOTENCY_RETENTION_MS/);
    expect(loadConfig({}).commandRetentionMs).toBe(30 * DAY);
    expect(loadConfig({ SWITCHBOARD_IDEMPOTENCY_RETENTION_MS: String(40 * DAY) }).commandRetentionMs).toBe(40 * DAY);
    expect(loadConfig({ SWITCHBOARD_COMMAND_RETENTION_MS: String(48 * HOUR) }).commandRetentionMs).toBe(48 * HOUR);
  });
});

describe('retention of inbound attachments', () => {
  it('an attachment that arrived more than 7 days ago answers 404 attachment_not_found; a newer one still downloads', async () => {
    const { s, clock } = await start();
    const a = await readyAccount(s);
    const download = (id: string) => fetch(`${s.url}/v1/attachments/${id}`, { headers: headers(a.apiKey) });
    await a.host.upload('att-old', 'old.txt', 'text/plain', new TextEncoder().encode('old'));
    clock.advance(DAY);
    await a.host.lease();
    await a.host.upload('att-new', 'new.txt', 'text/plain', new TextEncoder().encode('new'));
    clock.advance(6 * DAY + 1);
    await s.retention();
    const gone = await download('att-old');
    const body = await gone.json();
    expect(gone.status).toBe(404);
    expect(body).toMatchObject({ error: 'attachment_not_found' });
    expectSpecResponse('/v1/attachments/{attachmentId}', 'get', 404, body, gone.headers);
    const kept = await download('att-new');
    expect(kept.status).toBe(200);
    expect(await kept.text()).toBe('new');
  });

  it('each period is the server\'s own setting', async () => {
    const { s, clock } = await start({ attachmentRetentionMs: HOUR });
    const a = await readyAccount(s);
    await a.host.upload('att', 'a.txt', 'text/plain', new TextEncoder().encode('a'));
    clock.advance(HOUR + 1);
    await s.retention();
    expect((await fetch(`${s.url}/v1/attachments/att`, { headers: headers(a.apiKey) })).status).toBe(404);
  });
});
