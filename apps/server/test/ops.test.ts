import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogTail, removeDataDir, startServer, type LogRecord, type ServerProcess } from '@switchboard/testkit';
import { headers, postCommand, TestHost } from './helpers.ts';

let server: ServerProcess;
let logs: LogTail;

beforeAll(async () => {
  server = await startServer();
  logs = new LogTail(server.child.stdout!);
});
afterAll(async () => {
  await server.stop();
  removeDataDir(server.dataDir);
});

/** The first log line that matches; the server writes logs asynchronously. */
function logLine(match: (line: LogRecord) => boolean): Promise<LogRecord> {
  return logs.waitFor(match, 5000, 'matching log line');
}

describe('operating the server', () => {
  it('serves /healthz and /readyz', async () => {
    expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
  });

  it('logs one structured line per request with request, account and command ids and the routing path', async () => {
    const account = await server.account();
    const host = await new TestHost(server.url, account.connectorKey).lease();
    await host.report([{ type: 'conversation.appeared', externalId: 'ops-chat', conversationKind: 'direct', name: null, participants: ['+14155550123'] }]);
    const list = (await (await fetch(`${server.url}/v1/conversations`, { headers: headers(account.apiKey) })).json()) as { conversations: { conversationId: string }[] };
    const res = await postCommand(server.url, account.apiKey, 'message.send', { target: { kind: 'conversation', conversationId: list.conversations[0]!.conversationId }, payload: { text: 'x' } });
    expect(res.status).toBe(202);
    const line = await logLine((l) => l.commandId === res.body.commandId);
    expect(line).toMatchObject({ msg: 'request', status: 202, accountId: account.accountId, routingPath: 'agent-turn', reqId: res.headers.get('x-request-id') });

    const rejected = await postCommand(server.url, account.apiKey, 'nope', {});
    const rejectedLine = await logLine((l) => l.reqId === rejected.headers.get('x-request-id'));
    expect(rejectedLine).toMatchObject({ status: 404, error: 'unknown_command', accountId: account.accountId });

    // A dispatch poll, served beside the router, logs the same line.
    const poll = await fetch(`${server.url}/v1/connector/dispatch`, { method: 'POST', headers: headers(account.connectorKey), body: JSON.stringify({ epoch: host.epoch, holding: [], waitMs: 0 }) });
    expect(poll.status).toBe(200);
    const pollLine = await logLine((l) => l.reqId === poll.headers.get('x-request-id'));
    expect(pollLine).toMatchObject({ msg: 'request', method: 'POST', url: '/v1/connector/dispatch', status: 200, accountId: account.accountId });
    expect(typeof pollLine.ms).toBe('number');

    // So does a stream, served beside the router too, once it ends: its time is how long it was open.
    const stopping = new AbortController();
    const stream = await fetch(`${server.url}/v1/events?after=now`, { headers: headers(account.apiKey, { accept: 'text/event-stream' }), signal: stopping.signal });
    expect(stream.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    stopping.abort();
    const streamLine = await logLine((l) => l.reqId === stream.headers.get('x-request-id'));
    expect(streamLine).toMatchObject({ msg: 'request', method: 'GET', url: '/v1/events?after=now', status: 200, accountId: account.accountId });
    expect(streamLine.ms).toBeGreaterThanOrEqual(100);
  });

  it('exports Prometheus metrics: requests by status and code, commands by routing path, settlements and their latency', async () => {
    const account = await server.account();
    const host = await new TestHost(server.url, account.connectorKey).lease();
    const accepted = await postCommand(server.url, account.apiKey, 'message.send', { target: { kind: 'recipient', recipientExternalId: '+14155550123' }, payload: { text: 'x' } });
    await postCommand(server.url, account.apiKey, 'message.send', {});
    const [command] = await host.dispatch(1000);
    expect(command!.commandId).toBe(accepted.body.commandId);
    await host.settle(command!.commandId, 'failed', 'gateway_rejected');
    const text = await (await fetch(`${server.url}/metrics`)).text();
    expect(text).toMatch(/switchboard_http_requests_total\{method="POST",route="\/v1\/commands\/:type",status="202",code=""\} [1-9]/);
    expect(text).toMatch(/switchboard_http_requests_total\{method="POST",route="\/v1\/commands\/:type",status="400",code="target_and_payload_required"\} [1-9]/);
    expect(text).toMatch(/switchboard_commands_accepted_total\{type="message.send",routing_path="admin",disposition="queued"\} [1-9]/);
    expect(text).toMatch(/switchboard_commands_settled_total\{type="message.send",routing_path="admin",status="failed",error_code="gateway_rejected"\} [1-9]/);
    expect(text).toMatch(/switchboard_command_settle_seconds_count\{routing_path="admin"\} [1-9]/);
    expect(text).toMatch(/switchboard_stream_subscribers \d/);
  });
});

describe('memory', () => {
  it('gives memory back once the server goes quiet after start-up, and after traffic once quiet for SWITCHBOARD_MEMORY_QUIET_MS', async () => {
    const other = await startServer({ SWITCHBOARD_LOG_LEVEL: 'debug', SWITCHBOARD_RATE_LIMIT: '0', SWITCHBOARD_MEMORY_QUIET_MS: '4000' });
    const tail = new LogTail(other.child.stdout!);
    const given = () => tail.filter((l) => l.msg === 'memory given back');
    try {
      // Start-up is activity: its first quiet second collects.
      await tail.waitFor((l) => l.msg === 'memory given back', 10_000);
      const account = await other.account();
      const target = { kind: 'recipient', recipientExternalId: '+14155550123' };
      for (let round = 0; round < 60; round++) {
        await Promise.all(Array.from({ length: 50 }, () => postCommand(other.url, account.apiKey, 'message.send', { target, payload: { text: 'x'.repeat(500) } })));
      }
      const loaded = given().length;
      const quietSince = Date.now();
      // A spell of 4 s; on a busy machine a second of the server's own timers can run over the line.
      const after = await tail.waitFor((l) => l.msg === 'memory given back' && given().indexOf(l) >= loaded, 30_000);
      // Not at the first quiet second: only once the spell was over (sampled each second).
      expect(Date.now() - quietSince).toBeGreaterThanOrEqual(3_000);
      expect(after.rssAfter as number).toBeLessThan(after.rssBefore as number);
      // Quiet since: nothing more to give back.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(given().length).toBe(loaded + 1);
    } finally {
      await other.stop();
      removeDataDir(other.dataDir);
    }
  }, 90_000);
});

describe('shutting down', () => {
  it('answers an open dispatch poll at once and exits promptly on SIGTERM', async () => {
    const other = await startServer();
    try {
      const account = await other.account();
      const host = await new TestHost(other.url, account.connectorKey).lease();
      const poll = host.call('dispatch', { epoch: host.epoch, holding: [], waitMs: 20_000 });
      // The poll is waiting once the server has logged nothing for it; give it a moment to park.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const started = Date.now();
      await other.stop();
      expect(Date.now() - started).toBeLessThan(5_000);
      const answer = await poll;
      expect(answer).toMatchObject({ status: 200, body: { commands: [] } });
      // The lease, just taken, was not yet due for renewal: its last renewal came before the poll.
      expect(answer.body.renewedAfterMs).toBeLessThanOrEqual(0);
    } finally {
      removeDataDir(other.dataDir);
    }
  });
});
