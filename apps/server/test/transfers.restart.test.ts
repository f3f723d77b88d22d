import { afterAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { removeDataDir, startServer, type ServerProcess } from '@switchboard/testkit';
import { postCommand, TestHost } from './helpers.ts';

const started: ServerProcess[] = [];
afterAll(async () => {
  for (const s of started) await s.kill();
  if (started[0]) removeDataDir(started[0].dataDir);
});

/**
 * Transfers turned off over a store that holds some (specs/openapi/switchboard.yaml, "Transfers":
 * off, "every command that names a transferId settles transfer_unavailable"): the off switch, not
 * an unknown id, is what refuses the fetch.
 */
describe('transfers turned off after uploads', () => {
  it('the connector fetch of a stored transfer, for the command that fetched it before, is 404 transfer_not_found', async () => {
    const env = { SWITCHBOARD_RATE_LIMIT: '0', SWITCHBOARD_LEASE_TTL_MS: '600000' };
    const on = await startServer({ ...env, SWITCHBOARD_TRANSFERS: 'enabled' });
    started.push(on);
    const account = await on.account();
    const host = await new TestHost(on.url, account.connectorKey).lease();
    await host.report([{ type: 'conversation.appeared', externalId: 'chat-1', conversationKind: 'direct', name: null, participants: ['+14155550123'] }]);
    const list = await (await fetch(`${on.url}/v1/conversations`, { headers: { authorization: `Bearer ${account.apiKey}` } })).json() as any;

    const bytes = randomBytes(1000);
    const uploaded = await fetch(`${on.url}/v1/transfers?fileName=a.png`, { method: 'POST', headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'image/png' }, body: bytes });
    expect(uploaded.status).toBe(201);
    const { transferId } = await uploaded.json() as { transferId: string };
    const sent = await postCommand(on.url, account.apiKey, 'message.send', { target: { kind: 'conversation', conversationId: list.conversations[0].conversationId }, payload: { kind: 'attachment', transferId } });
    expect(sent.status).toBe(202);
    expect((await host.dispatch()).map((c) => c.commandId)).toEqual([sent.body.commandId]);
    const fetchIt = (url: string) => fetch(`${url}/v1/connector/transfers/${transferId}?commandId=${sent.body.commandId}&epoch=${host.epoch}`, { headers: { authorization: `Bearer ${account.connectorKey}` } });
    const before = await fetchIt(on.url);
    expect(before.status).toBe(200);
    expect(Buffer.from(await before.arrayBuffer()).equals(bytes)).toBe(true);
    await on.stop();

    // The same data, transfers off (the default).
    const off = await startServer(env, on.dataDir);
    started.push(off);
    host.url = off.url;
    await host.lease();
    const after = await fetchIt(off.url);
    expect(after.status).toBe(404);
    expect(await after.json()).toMatchObject({ error: 'transfer_not_found' });
    const again = await fetch(`${off.url}/v1/transfers?fileName=a.png`, { method: 'POST', headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'image/png' }, body: bytes });
    expect(again.status).toBe(404);
    expect(await again.json()).toMatchObject({ error: 'transfers_disabled' });
  }, 60_000);
});
