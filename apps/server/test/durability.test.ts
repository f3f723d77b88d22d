import { afterAll, describe, expect, it } from 'vitest';
import { removeDataDir, startServer, type ServerProcess } from '@switchboard/testkit';
import { headers, postCommand, TestHost } from './helpers.ts';

const started: ServerProcess[] = [];
afterAll(async () => {
  for (const s of started) await s.kill();
  if (started[0]) removeDataDir(started[0].dataDir);
});

describe('a 202 means the command is durable', () => {
  it('survives kill -9 right after the 202, and still settles', async () => {
    const env = { SWITCHBOARD_RATE_LIMIT: '0', SWITCHBOARD_LEASE_TTL_MS: '600000' };
    const first = await startServer(env);
    started.push(first);
    const account = await first.account();
    const host = await new TestHost(first.url, account.connectorKey, 'durable-host').lease();
    await host.report([{ type: 'conversation.appeared', externalId: 'chat-1', conversationKind: 'direct', name: null, participants: ['+14155550123'] }]);
    const list = (await (await fetch(`${first.url}/v1/conversations`, { headers: headers(account.apiKey) })).json() as any);
    const conversationId = list.conversations[0].conversationId as string;

    // Many commands in flight; SIGKILL the moment the first 202 arrives.
    const acknowledged: string[] = [];
    let killed: Promise<void> | undefined;
    const attempts = Array.from({ length: 200 }, (_, i) =>
      postCommand(first.url, account.apiKey, 'message.send', { target: { kind: 'conversation', conversationId }, payload: { text: `m${i}` } })
        .then((res) => {
          if (res.status === 202) {
            acknowledged.push(res.body.commandId);
            killed ??= first.kill();
          }
        })
        .catch(() => undefined),
    );
    await Promise.all(attempts);
    await killed;
    expect(acknowledged.length).toBeGreaterThan(0);

    const second = await startServer(env, first.dataDir);
    started.push(second);
    for (const commandId of acknowledged) {
      const res = await fetch(`${second.url}/v1/commands/${commandId}`, { headers: headers(account.apiKey) });
      expect(res.status, commandId).toBe(200);
      expect(((await res.json() as any)).status).toBe('queued');
    }

    // The host comes back (a restart: same host id, new epoch) and settles every one of them.
    const revived = await new TestHost(second.url, account.connectorKey, 'durable-host').lease();
    expect(revived.epoch).toBe(2);
    const pending = new Set(acknowledged);
    while (pending.size > 0) {
      const batch = await revived.dispatch(1000);
      for (const command of batch) {
        if (!pending.has(command.commandId)) continue;
        expect((await revived.settle(command.commandId, 'succeeded')).status).toBe(200);
        pending.delete(command.commandId);
      }
    }
    const page = (await (await fetch(`${second.url}/v1/events?limit=1000`, { headers: headers(account.apiKey) })).json() as any);
    const settled = page.events.filter((e: { type: string }) => e.type === 'command.settled').map((e: { data: { commandId: string } }) => e.data.commandId);
    for (const commandId of acknowledged) expect(settled.filter((id: string) => id === commandId)).toHaveLength(1);
  });
});

describe('a dispatch lost to a crash is handed out again', () => {
  it('after kill -9, the same epoch gets the commands whose dispatch answer never reached it, with no host restart', async () => {
    const env = { SWITCHBOARD_RATE_LIMIT: '0', SWITCHBOARD_LEASE_TTL_MS: '600000' };
    const first = await startServer(env);
    started.push(first);
    const account = await first.account();
    const host = await new TestHost(first.url, account.connectorKey, 'kept-host').lease();
    await host.report([{ type: 'conversation.appeared', externalId: 'chat-1', conversationKind: 'direct', name: null, participants: ['+14155550123'] }]);
    const list = (await (await fetch(`${first.url}/v1/conversations`, { headers: headers(account.apiKey) })).json() as any);
    const target = { kind: 'conversation', conversationId: list.conversations[0].conversationId };
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await postCommand(first.url, account.apiKey, 'message.send', { target, payload: { text: `m${i}` } })).body.commandId);
    // The server records the dispatch, and dies before the host reads the answer.
    const lost = await host.call('dispatch', { epoch: host.epoch, holding: [], waitMs: 0 });
    expect(lost.body.commands).toHaveLength(3);
    await first.kill();

    const second = await startServer(env, first.dataDir);
    started.push(second);
    // The same host process, the same live epoch: its next poll holds nothing.
    const same = new TestHost(second.url, account.connectorKey, 'kept-host');
    same.epoch = host.epoch;
    expect((await same.dispatch(0)).map((c) => c.commandId)).toEqual(ids);
    for (const id of ids) expect((await same.settle(id, 'succeeded')).status).toBe(200);
    expect(await same.dispatch(0)).toEqual([]);
  });
});
