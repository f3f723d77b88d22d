import { afterAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import postgres from 'postgres';
import { removeDataDir, startServer, type ServerProcess } from '@switchboard/testkit';
import { openSqliteStore } from '../src/store/sqlite/store.ts';
import { openPostgresStore } from '../src/store/postgres/store.ts';
import type { Store } from '../src/store/types.ts';
import { postCommand, TestHost } from './helpers.ts';

const started: ServerProcess[] = [];
afterAll(async () => {
  for (const s of started) await s.kill();
  if (started[0]) removeDataDir(started[0].dataDir);
});

const MiB = 1 << 20;
const HOUR = 3_600_000;

/** The transfers in the server's database, with their state and how many chunks each has. */
async function transfersIn(server: ServerProcess): Promise<Array<{ id: string; state: string; chunks: number }>> {
  const query = `SELECT t.id, t.state, (SELECT COUNT(*) FROM transfer_chunks c WHERE c.account_id = t.account_id AND c.transfer_id = t.id) AS chunks FROM transfers t`;
  const url = server.storeEnv.SWITCHBOARD_DATABASE_URL;
  if (url) {
    const sql = postgres(url, { max: 1, onnotice: () => undefined });
    try {
      return (await sql.unsafe(query)).map((r) => ({ id: r.id as string, state: r.state as string, chunks: Number(r.chunks) }));
    } finally {
      await sql.end({ timeout: 1 });
    }
  }
  const db = new DatabaseSync(join(server.dataDir, 'switchboard.db'), { readOnly: true });
  try {
    return db.prepare(query).all().map((r) => ({ id: r.id as string, state: r.state as string, chunks: Number(r.chunks) }));
  } finally {
    db.close();
  }
}

/** The server's store, opened beside it as the operator's tools do. */
function openBeside(server: ServerProcess): Promise<Store> {
  const url = server.storeEnv.SWITCHBOARD_DATABASE_URL;
  return url ? openPostgresStore({ url }) : Promise.resolve(openSqliteStore({ dataDir: server.dataDir }));
}

describe('an upload cut off by kill -9', () => {
  it('leaves no usable transfer after the restart, and retention drops what it wrote', async () => {
    const env = { SWITCHBOARD_TRANSFERS: 'enabled', SWITCHBOARD_RATE_LIMIT: '0', SWITCHBOARD_LEASE_TTL_MS: '600000' };
    const first = await startServer(env);
    started.push(first);
    const account = await first.account();

    // Half of a 4 MiB upload, then the server is killed while it waits for the rest.
    const { port } = new URL(first.url);
    const socket = connect(Number(port), '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(`POST /v1/transfers?fileName=cut.png HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${account.apiKey}\r\nContent-Type: image/png\r\nContent-Length: ${4 * MiB}\r\n\r\n`);
    socket.write(randomBytes(2 * MiB + 100));
    let rows: Awaited<ReturnType<typeof transfersIn>> = [];
    for (let i = 0; i < 500 && !(rows[0]?.chunks === 2); i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      rows = await transfersIn(first);
    }
    expect(rows).toEqual([{ id: expect.any(String), state: 'uploading', chunks: 2 }]);
    await first.kill();
    socket.destroy();

    const second = await startServer(env, first.dataDir);
    started.push(second);
    expect(await transfersIn(second)).toEqual(rows);

    // A command naming it is not sent: the connector host's fetch is refused.
    const host = await new TestHost(second.url, account.connectorKey).lease();
    await host.report([{ type: 'conversation.appeared', externalId: 'chat-1', conversationKind: 'direct', name: null, participants: ['+14155550123'] }]);
    const list = await (await fetch(`${second.url}/v1/conversations`, { headers: { authorization: `Bearer ${account.apiKey}` } })).json() as any;
    const sent = await postCommand(second.url, account.apiKey, 'message.send', { target: { kind: 'conversation', conversationId: list.conversations[0].conversationId }, payload: { kind: 'attachment', transferId: rows[0]!.id } });
    expect(sent.status).toBe(202);
    await host.dispatch();
    const fetched = await fetch(`${second.url}/v1/connector/transfers/${rows[0]!.id}?commandId=${sent.body.commandId}&epoch=${host.epoch}`, { headers: { authorization: `Bearer ${account.connectorKey}` } });
    expect(fetched.status).toBe(404);
    expect(await fetched.json()).toMatchObject({ error: 'transfer_not_found' });

    // A new upload goes through; retention, an hour on, drops the cut-off one and its chunks.
    const again = await fetch(`${second.url}/v1/transfers?fileName=ok.png`, { method: 'POST', headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'image/png' }, body: randomBytes(1000) });
    expect(again.status).toBe(201);
    const store = await openBeside(second);
    try {
      expect(await store.purgeTransfers(Date.now(), Date.now() + HOUR, 100)).toBe(1);
    } finally {
      await store.close();
    }
    expect(await transfersIn(second)).toEqual([{ id: (await again.json() as any).transferId, state: 'ready', chunks: 1 }]);
  }, 60_000);
});
