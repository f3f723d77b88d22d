import { describe, expect, test } from 'vitest';
import pino from 'pino';
import type { Answer, ConnectorClient } from '@switchboard/connector-client';
import type { BatchedSettlement, DispatchedCommand, PlatformEvent, Settlement } from '@switchboard/contracts';
import type { Driver, Outcome } from '../driver/types.ts';
import { ConnectorHost } from './host.ts';
import { dispatched, directTarget } from './fixtures.test-support.ts';

/** A server played in memory: hands out `commands` on the first poll and records what the host sends. */
function fakeServer(commands: DispatchedCommand[], takesBatches: boolean) {
  const calls: string[] = [];
  const done = new Set<string>();
  let settledAll: () => void = () => undefined;
  const allSettled = new Promise<void>((resolve) => (settledAll = resolve));
  const settledOne = (commandId: string) => {
    done.add(commandId);
    if (done.size === commands.length) settledAll();
  };
  let polls = 0;
  const ok = <T>(body: T, status = 200): Promise<Answer<T>> => Promise.resolve({ status, body });
  const client = {
    acquireLease: () => ok({ accountId: 'a', hostId: 'h', epoch: 1, ttlMs: 60_000, expiresAt: new Date(Date.now() + 60_000).toISOString() }),
    renewLease: () => ok({ accountId: 'a', hostId: 'h', epoch: 1, ttlMs: 60_000, expiresAt: new Date(Date.now() + 60_000).toISOString() }),
    releaseLease: () => ok(null, 204),
    dispatch: (_epoch: number, _max: number, _holding: string[], _waitMs: number, signal: AbortSignal) => {
      if (polls++ === 0) return ok({ commands });
      return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
    },
    settleBatch: (_epoch: number, settlements: BatchedSettlement[]) => {
      calls.push(`batch ${settlements.map((s) => `${s.commandId}(${(s.events ?? []).map((e) => e.type).join(',')})`).join(' ')}`);
      if (!takesBatches) return ok({ error: 'not_found', message: 'Route POST:/v1/connector/settlements/batch not found' }, 404);
      for (const s of settlements) settledOne(s.commandId);
      return ok({ results: settlements.map((s) => ({ commandId: s.commandId, result: 'settled', status: s.status, errorCode: s.errorCode })) });
    },
    reportPlatformEvents: (_epoch: number, events: PlatformEvent[]) => {
      calls.push(`report ${events.map((e) => e.type).join(',')}`);
      return ok({ recorded: events.length });
    },
    settle: (s: Settlement) => {
      calls.push(`settle ${s.commandId}`);
      settledOne(s.commandId);
      return ok({ commandId: s.commandId, status: s.status, errorCode: s.errorCode });
    },
    close: () => undefined,
  };
  return { client: client as unknown as ConnectorClient, calls, allSettled };
}

/** A platform that confirms every send with its message.sent. */
const driver = {
  findExecuted: async () => null,
  sendToConversation: async (action, conversation): Promise<Outcome> => ({
    result: 'confirmed',
    events: [{ type: 'message.sent', conversationExternalId: conversation.externalId, messageExternalId: `m-${action.commandId}`, commandId: action.commandId }],
  }),
  subscribe: () => ({ stop: async () => undefined }),
  close: async () => undefined,
} as Partial<Driver> as Driver;

async function runUntilSettled(server: ReturnType<typeof fakeServer>): Promise<void> {
  const host = new ConnectorHost({
    client: server.client,
    log: pino({ level: 'silent' }),
    hostId: 'h',
    osMajorVersion: 15,
    capabilities: [{ name: 'command.message_send.conversation.v1' }],
    driverFor: () => driver,
    dispatchWaitMs: 20_000,
    maxInFlight: 10,
    shutdownGraceMs: 1_000,
  });
  const running = host.run();
  await server.allSettled;
  await host.stop();
  await running;
}

describe('ConnectorHost settles', () => {
  const target = directTarget();
  const commands = () => [dispatched('message.send', { text: 'one' }, target), dispatched('message.send', { text: 'two' }, target)];

  test('each command with its platform events in a settlement batch, in dispatch order', async () => {
    const [first, second] = commands();
    const server = fakeServer([first!, second!], true);
    await runUntilSettled(server);
    // However the two were grouped, the batches list them in order, each with its message.sent.
    expect(server.calls.join(' ').replaceAll('batch ', '')).toBe(`${first!.commandId}(message.sent) ${second!.commandId}(message.sent)`);
  });

  test('on a server without batches (404), by a report and then a settlement per command, asking for a batch once', async () => {
    const [first, second] = commands();
    const server = fakeServer([first!, second!], false);
    await runUntilSettled(server);
    expect(server.calls).toEqual([
      `batch ${first!.commandId}(message.sent)`,
      'report message.sent',
      `settle ${first!.commandId}`,
      'report message.sent',
      `settle ${second!.commandId}`,
    ]);
  });
});

describe('ConnectorHost shutting down', () => {
  test('a lease taken over while it drains (the process replacing it started) ends run() cleanly, not as a failure', { timeout: 10_000 }, async () => {
    const command = dispatched('message.send', { text: 'slow' }, directTarget());
    const server = fakeServer([command], true);
    let takenOver = false;
    const lease = (epoch: number) => ({ status: 200, body: { accountId: 'a', hostId: 'h', epoch, ttlMs: 300, expiresAt: new Date(Date.now() + 300).toISOString() } });
    Object.assign(server.client, {
      acquireLease: async () => lease(1),
      renewLease: async (epoch: number) => (takenOver ? { status: 409, body: { error: 'lease_lost', message: 'this epoch is not the live lease' } } : lease(epoch)),
    });
    let sent: () => void = () => undefined;
    const sending = new Promise<void>((resolve) => (sent = resolve));
    let finish: () => void = () => undefined;
    const slowDriver = {
      ...driver,
      sendToConversation: async (action: { commandId: string }, conversation: { externalId: string }): Promise<Outcome> => {
        sent();
        await new Promise<void>((resolve) => (finish = resolve));
        return { result: 'confirmed', events: [{ type: 'message.sent', conversationExternalId: conversation.externalId, messageExternalId: `m-${action.commandId}`, commandId: action.commandId }] };
      },
    } as Driver;
    const host = new ConnectorHost({
      client: server.client,
      log: pino({ level: 'silent' }),
      hostId: 'h',
      osMajorVersion: 15,
      capabilities: [{ name: 'command.message_send.conversation.v1' }],
      driverFor: () => slowDriver,
      dispatchWaitMs: 20_000,
      maxInFlight: 10,
      shutdownGraceMs: 5_000,
    });
    const running = host.run();
    await sending;
    const stopped = host.stop();
    takenOver = true;
    // The next renewal (a third of the TTL) is answered lease_lost while the lease is live here.
    await expect(running).resolves.toBeUndefined();
    finish();
    await stopped;
  });
});
