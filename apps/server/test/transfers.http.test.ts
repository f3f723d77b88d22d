import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { PostgresStore } from '../src/store/postgres/store.ts';
import { DEFAULT_TRANSFER_LIMITS } from '../src/store/rules/transfers.ts';
import type { TransferStore } from '../src/store/types.ts';
import { RawConnection } from './raw-http.ts';
import {
  expectAdminSpec, expectSpecResponse, ManualClock, postCommand, readyAccount, startTestServer, type TestServer,
} from './helpers.ts';

/**
 * Transfers (specs/openapi/switchboard.yaml, "Transfers"), over HTTP against the real server on
 * the run's store: off by default; on, uploads streamed into the store under the account's
 * limits, fetched byte-exact by the connector host for a command, kept as long as a command that
 * used them, and dropped by retention otherwise.
 */
const HOUR = 3_600_000;
const MiB = 1 << 20;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The account's rows in the transfer tables, read straight from the server's database. */
async function stored(server: TestServer, accountId: string): Promise<{ transfers: number; chunks: number; uses: number }> {
  const tables = ['transfers', 'transfer_chunks', 'transfer_uses'] as const;
  const store = server.services.store;
  if ('sql' in store) {
    const sql = (store as PostgresStore).sql;
    const counts = await Promise.all(tables.map(async (t) => Number((await sql.unsafe(`SELECT COUNT(*)::int AS n FROM ${t} WHERE account_id = $1`, [accountId]))[0]!.n)));
    return { transfers: counts[0]!, chunks: counts[1]!, uses: counts[2]! };
  }
  const db = new DatabaseSync(join(server.dataDir, 'switchboard.db'), { readOnly: true });
  try {
    const counts = tables.map((t) => Number(db.prepare(`SELECT COUNT(*) AS n FROM ${t} WHERE account_id = ?`).get(accountId)!.n));
    return { transfers: counts[0]!, chunks: counts[1]!, uses: counts[2]! };
  } finally {
    db.close();
  }
}

const NOTHING = { transfers: 0, chunks: 0, uses: 0 };

/** Resolves once the server's next call of the store's `method` has ended, whatever it answered. */
function nextCallEnded(server: TestServer, method: 'appendTransferChunk' | 'abandonTransfer'): Promise<void> {
  const store = server.services.store as TransferStore;
  const original = store[method].bind(store) as (...args: unknown[]) => Promise<void>;
  return new Promise((resolve) => {
    const spy = vi.spyOn(store, method).mockImplementation((async (...args: unknown[]) => {
      spy.mockRestore();
      try {
        return await original(...args);
      } finally {
        resolve();
      }
    }) as never);
  });
}

interface UploadOptions {
  fileName?: string | null;
  type?: string | null;
  headers?: Record<string, string>;
  /** Send the body chunked (no Content-Length), in pieces of this many bytes. */
  chunked?: number;
}

async function upload(server: TestServer, apiKey: string, bytes: Uint8Array, options: UploadOptions = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const fileName = options.fileName === undefined ? 'photo.png' : options.fileName;
  const type = options.type === undefined ? 'image/png' : options.type;
  const url = `${server.url}/v1/transfers${fileName === null ? '' : `?fileName=${encodeURIComponent(fileName)}`}`;
  const headers: Record<string, string> = { authorization: `Bearer ${apiKey}`, ...(type === null ? {} : { 'content-type': type }), ...options.headers };
  const step = options.chunked;
  const body = step === undefined ? bytes : new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < bytes.length; at += step) controller.enqueue(bytes.subarray(at, at + step));
      controller.close();
    },
  });
  const res = await fetch(url, { method: 'POST', headers, body, ...(step === undefined ? {} : { duplex: 'half' }) } as RequestInit);
  const text = await res.text();
  const answer = { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
  expectSpecResponse('/v1/transfers', 'post', answer.status, answer.body, answer.headers);
  return answer;
}

/** The connector host's fetch of a transfer for a command. */
async function fetchTransfer(server: TestServer, connectorKey: string, transferId: string, commandId: string, epoch: number) {
  const res = await fetch(`${server.url}/v1/connector/transfers/${encodeURIComponent(transferId)}?commandId=${commandId}&epoch=${epoch}`, {
    headers: { authorization: `Bearer ${connectorKey}` },
  });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, bytes, headers: res.headers, body: res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(Buffer.from(bytes).toString()) : null };
}

describe('transfers off (the default)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ rateLimit: 0 });
  });
  afterAll(() => server.stopAndClean());

  it('POST /v1/transfers answers 404 transfers_disabled and stores nothing', async () => {
    const a = await server.account();
    const res = await upload(server, a.apiKey, randomBytes(1000));
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: 'transfers_disabled' });
    expect(await stored(server, a.accountId)).toEqual(NOTHING);
  });

  it('the connector fetch answers 404 transfer_not_found for any id', async () => {
    const a = await readyAccount(server);
    const sent = await postCommand(server.url, a.apiKey, 'message.send', { target: { kind: 'conversation', conversationId: a.direct }, payload: { kind: 'attachment', transferId: 'anything' } });
    const fetched = await fetchTransfer(server, a.connectorKey, 'anything', sent.body.commandId, a.host.epoch);
    expect(fetched.status).toBe(404);
    expect(fetched.body).toMatchObject({ error: 'transfer_not_found' });
  });

  it('an unauthenticated upload is 401 whether transfers are on or off', async () => {
    const res = await fetch(`${server.url}/v1/transfers?fileName=a.png`, { method: 'POST', headers: { 'content-type': 'image/png' }, body: 'x' });
    expect(res.status).toBe(401);
  });
});

describe('transfers on', () => {
  let server: TestServer;
  const clock = new ManualClock();
  const TTL = 24 * HOUR;

  beforeAll(async () => {
    server = await startTestServer({ rateLimit: 0, transfers: 'enabled', transferTtlMs: TTL, leaseTtlMs: 365 * 24 * HOUR }, clock);
  });
  afterAll(() => server.stopAndClean());

  /** An account with a live lease and a conversation, and a command naming `transferId` dispatched to its host. */
  async function commandFor(a: Awaited<ReturnType<typeof readyAccount>>, transferId: string): Promise<string> {
    const sent = await postCommand(server.url, a.apiKey, 'message.send', { target: { kind: 'conversation', conversationId: a.direct }, payload: { kind: 'attachment', transferId } });
    expect(sent.status).toBe(202);
    const dispatched = await a.host.dispatch();
    expect(dispatched.map((c) => c.commandId)).toContain(sent.body.commandId);
    return sent.body.commandId as string;
  }

  it('an upload answers 201 with its id, size, SHA-256 and expiry (now + the TTL)', async () => {
    const a = await server.account();
    const bytes = randomBytes(12_345);
    const res = await upload(server, a.apiKey, bytes, { type: 'Image/PNG; charset=binary', fileName: 'holiday photo.png' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      transferId: expect.any(String),
      fileName: 'holiday photo.png',
      mimeType: 'image/png',
      byteSize: 12_345,
      sha256: sha256(bytes),
      createdAt: new Date(clock.now()).toISOString(),
      expiresAt: new Date(clock.now() + TTL).toISOString(),
    });
    expect(await stored(server, a.accountId)).toEqual({ transfers: 1, chunks: 1, uses: 0 });
  });

  it('an upload of several MiB, chunked, round-trips byte-exact through the connector fetch', async () => {
    const a = await readyAccount(server);
    const bytes = randomBytes(3 * MiB + 517);
    const res = await upload(server, a.apiKey, bytes, { type: 'video/mp4', fileName: 'clip "final".mp4', chunked: 100_000 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ byteSize: bytes.length, sha256: sha256(bytes) });
    expect(await stored(server, a.accountId)).toEqual({ transfers: 1, chunks: 4, uses: 0 });
    const commandId = await commandFor(a, res.body.transferId);
    const fetched = await fetchTransfer(server, a.connectorKey, res.body.transferId, commandId, a.host.epoch);
    expect(fetched.status).toBe(200);
    expect(Buffer.from(fetched.bytes).equals(bytes)).toBe(true);
    expect(fetched.headers.get('content-type')).toBe('video/mp4');
    expect(fetched.headers.get('content-length')).toBe(String(bytes.length));
    expect(fetched.headers.get('content-disposition')).toBe(`attachment; filename="clip _final_.mp4"; filename*=UTF-8''clip%20%22final%22.mp4`);
    expect(fetched.headers.get('x-switchboard-sha256')).toBe(sha256(bytes));
    expect((await stored(server, a.accountId)).uses).toBe(1);
  });

  it('a file name beyond ASCII goes out as filename* too', async () => {
    const a = await readyAccount(server);
    const res = await upload(server, a.apiKey, Buffer.from('BEGIN:VCARD'), { type: 'text/vcard', fileName: 'Zoë 📇.vcf' });
    expect(res.status).toBe(201);
    const fetched = await fetchTransfer(server, a.connectorKey, res.body.transferId, await commandFor(a, res.body.transferId), a.host.epoch);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get('content-disposition')).toBe(`attachment; filename="Zo_ __.vcf"; filename*=UTF-8''${encodeURIComponent('Zoë 📇.vcf')}`);
  });

  it('an empty upload is 400 transfer_empty and stores nothing: Content-Length 0, a chunked body with no bytes, or no body at all', async () => {
    const a = await server.account();
    for (const chunked of [undefined, 1000]) {
      const res = await upload(server, a.apiKey, new Uint8Array(0), { type: 'text/plain', fileName: 'empty.txt', ...(chunked ? { chunked } : {}) });
      expect(res.status, `chunked: ${chunked}`).toBe(400);
      expect(res.body).toMatchObject({ error: 'transfer_empty' });
    }
    const connection = await RawConnection.open(server.url);
    try {
      await connection.send(`POST /v1/transfers?fileName=empty.txt HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${a.apiKey}\r\nContent-Type: text/plain\r\n\r\n`);
      const answer = await connection.response();
      expect(answer?.status).toBe(400);
      expect(JSON.parse(answer!.body)).toMatchObject({ error: 'transfer_empty' });
    } finally {
      connection.close();
    }
    expect(await stored(server, a.accountId)).toEqual(NOTHING);
  });

  it('a store error mid-upload answers 500 internal, closes the connection after the answer, and leaves nothing', async () => {
    const a = await server.account();
    const { store } = server.services;
    const append = store.appendTransferChunk.bind(store);
    // The second chunk fails: the first is in the store, and the body is paused behind the write.
    const seqs: number[] = [];
    const spy = vi.spyOn(store, 'appendTransferChunk').mockImplementation((accountId, transferId, seq, bytes) => {
      seqs.push(seq);
      return seq === 1 ? Promise.reject(new Error('disk full')) : append(accountId, transferId, seq, bytes);
    });
    const connection = await RawConnection.open(server.url);
    try {
      void connection.send(`POST /v1/transfers?fileName=big.png HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${a.apiKey}\r\nContent-Type: image/png\r\nContent-Length: ${3 * MiB}\r\n\r\n`);
      void connection.send(randomBytes(3 * MiB));
      const answer = await connection.response();
      expect(answer?.status).toBe(500);
      expect(JSON.parse(answer!.body)).toMatchObject({ error: 'internal' });
      expect(answer!.headers.connection).toBe('close');
      expect(await connection.closedByServer(10_000)).toBe(true);
    } finally {
      spy.mockRestore();
      connection.close();
    }
    expect(seqs).toEqual([0, 1]);
    expect(await stored(server, a.accountId)).toEqual(NOTHING);
  });

  describe('every refused upload gets its code and stores nothing', () => {
    const cases: Array<[string, () => Promise<{ status: number; body: any; headers: Headers }>, number, string]> = [];
    let a: Awaited<ReturnType<TestServer['account']>>;
    beforeAll(async () => {
      a = await server.account();
      await server.services.store.setTransferLimits(a.accountId, { maxBytes: 2 * MiB, allowedTypes: ['image/*', 'application/pdf'] }, clock.now());
    });
    const big = randomBytes(2 * MiB + 1);
    cases.push(
      ['over the size limit by Content-Length', () => upload(server, a.apiKey, big), 413, 'transfer_too_large'],
      ['over the size limit by a chunked body', () => upload(server, a.apiKey, big, { chunked: 64 * 1024 }), 413, 'transfer_too_large'],
      ['a media type not allowed', () => upload(server, a.apiKey, randomBytes(10), { type: 'text/plain' }), 415, 'transfer_type_not_allowed'],
      ['no Content-Type', () => upload(server, a.apiKey, randomBytes(10), { type: null }), 415, 'transfer_type_invalid'],
      ['a malformed Content-Type', () => upload(server, a.apiKey, randomBytes(10), { type: 'image png' }), 415, 'transfer_type_invalid'],
      ['a media range for a Content-Type', () => upload(server, a.apiKey, randomBytes(10), { type: 'image/*' }), 415, 'transfer_type_invalid'],
      ['a Content-Encoding', () => upload(server, a.apiKey, randomBytes(10), { headers: { 'content-encoding': 'gzip' } }), 415, 'transfer_type_invalid'],
      ['no fileName', () => upload(server, a.apiKey, randomBytes(10), { fileName: null }), 400, 'invalid_query'],
      ['a fileName with a /', () => upload(server, a.apiKey, randomBytes(10), { fileName: 'a/b.png' }), 400, 'invalid_query'],
      ['an empty fileName', () => upload(server, a.apiKey, randomBytes(10), { fileName: '' }), 400, 'invalid_query'],
      ['a fileName with a \\', () => upload(server, a.apiKey, randomBytes(10), { fileName: 'a\\b.png' }), 400, 'invalid_query'],
      ['a fileName of .', () => upload(server, a.apiKey, randomBytes(10), { fileName: '.' }), 400, 'invalid_query'],
      ['a fileName of ..', () => upload(server, a.apiKey, randomBytes(10), { fileName: '..' }), 400, 'invalid_query'],
      ['a fileName with a line feed', () => upload(server, a.apiKey, randomBytes(10), { fileName: 'a\nb.png' }), 400, 'invalid_query'],
      ['a fileName with U+0000', () => upload(server, a.apiKey, randomBytes(10), { fileName: 'a\u0000b.png' }), 400, 'invalid_query'],
      ['a fileName with DEL', () => upload(server, a.apiKey, randomBytes(10), { fileName: 'a\u007fb.png' }), 400, 'invalid_query'],
      ['a fileName with U+001F', () => upload(server, a.apiKey, randomBytes(10), { fileName: '\u001fb.png' }), 400, 'invalid_query'],
    );
    for (const [name, send, status, code] of cases) {
      it(`${name}: ${status} ${code}`, async () => {
        const res = await send();
        expect(res.status).toBe(status);
        expect(res.body).toMatchObject({ error: code });
        // Counted against the reads' budget, and its headers go with every answer past the check.
        expect(res.headers.get('ratelimit-policy')).toMatch(/^"read";/);
        expect(await stored(server, a.accountId)).toEqual(NOTHING);
      });
    }

    it('a body shorter than its Content-Length (the client half-closes): 400 transfer_incomplete', async () => {
      const { port } = new URL(server.url);
      const socket = connect(Number(port), '127.0.0.1');
      const received: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => received.push(chunk));
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      const partial = randomBytes(MiB + 1000);
      socket.write(`POST /v1/transfers?fileName=cut.png HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${a.apiKey}\r\nContent-Type: image/png\r\nContent-Length: ${2 * MiB}\r\n\r\n`);
      socket.write(partial);
      socket.end();
      await closed;
      const answer = Buffer.concat(received).toString('latin1');
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ error: 'transfer_incomplete' });
      expect(await stored(server, a.accountId)).toEqual(NOTHING);
    });

    it('a client that goes away mid-upload leaves nothing, not even the chunk it had stored', async () => {
      const chunkStored = nextCallEnded(server, 'appendTransferChunk');
      const abandoned = nextCallEnded(server, 'abandonTransfer');
      const { port } = new URL(server.url);
      const socket = connect(Number(port), '127.0.0.1');
      socket.on('error', () => undefined);
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.write(`POST /v1/transfers?fileName=gone.png HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${a.apiKey}\r\nContent-Type: image/png\r\nContent-Length: ${2 * MiB}\r\n\r\n`);
      socket.write(randomBytes(MiB + 10));
      await chunkStored;
      expect(await stored(server, a.accountId)).toEqual({ transfers: 1, chunks: 1, uses: 0 });
      socket.resetAndDestroy();
      await abandoned;
      expect(await stored(server, a.accountId)).toEqual(NOTHING);
    });
  });

  describe('the connector fetch', () => {
    it('another account\'s, an unknown or a mismatched transferId is 404 transfer_not_found, and records no use', async () => {
      const a = await readyAccount(server);
      const other = await readyAccount(server);
      const mine = (await upload(server, a.apiKey, randomBytes(100))).body.transferId as string;
      const theirs = (await upload(server, other.apiKey, randomBytes(100))).body.transferId as string;
      const commandId = await commandFor(a, theirs);
      for (const id of [theirs, 'no-such-transfer', mine]) {
        const fetched = await fetchTransfer(server, a.connectorKey, id, commandId, a.host.epoch);
        expect(fetched.status, id).toBe(404);
        expect(fetched.body).toMatchObject({ error: 'transfer_not_found' });
      }
      expect((await stored(server, a.accountId)).uses).toBe(0);
      expect((await stored(server, other.accountId)).uses).toBe(0);
    });

    it('an epoch that is not the live lease\'s is 409 lease_lost; a bad query is 400', async () => {
      const a = await readyAccount(server);
      const transferId = (await upload(server, a.apiKey, randomBytes(100))).body.transferId as string;
      const commandId = await commandFor(a, transferId);
      expect((await fetchTransfer(server, a.connectorKey, transferId, commandId, a.host.epoch + 1)).status).toBe(409);
      expect((await fetchTransfer(server, a.connectorKey, transferId, 'not-a-uuid', a.host.epoch)).status).toBe(400);
      expect((await fetchTransfer(server, a.apiKey, transferId, commandId, a.host.epoch)).status).toBe(401);
    });

    it('expiry is judged at acceptance: a command accepted before it and sent after it gets the bytes; one accepted after is 404', async () => {
      const a = await readyAccount(server);
      const bytes = randomBytes(2000);
      const transferId = (await upload(server, a.apiKey, bytes)).body.transferId as string;
      // Accepted a moment before the expiry, and not sent until after it (no host polled).
      clock.advance(TTL - 1);
      const early = await postCommand(server.url, a.apiKey, 'message.send', { target: { kind: 'conversation', conversationId: a.direct }, payload: { kind: 'attachment', transferId } });
      expect(early.status).toBe(202);
      clock.advance(HOUR);
      expect((await a.host.dispatch()).map((c) => c.commandId)).toEqual([early.body.commandId]);
      const fetched = await fetchTransfer(server, a.connectorKey, transferId, early.body.commandId, a.host.epoch);
      expect(fetched.status).toBe(200);
      expect(Buffer.from(fetched.bytes).equals(bytes)).toBe(true);
      const late = await commandFor(a, transferId);
      const refused = await fetchTransfer(server, a.connectorKey, transferId, late, a.host.epoch);
      expect(refused.status).toBe(404);
      expect(refused.body).toMatchObject({ error: 'transfer_not_found' });
    });

    it('a used transfer survives its expiry for that command, not for a new one', async () => {
      const a = await readyAccount(server);
      const bytes = randomBytes(5000);
      const transferId = (await upload(server, a.apiKey, bytes)).body.transferId as string;
      const first = await commandFor(a, transferId);
      expect((await fetchTransfer(server, a.connectorKey, transferId, first, a.host.epoch)).status).toBe(200);
      clock.advance(TTL + HOUR);
      await server.retention();
      const again = await fetchTransfer(server, a.connectorKey, transferId, first, a.host.epoch);
      expect(again.status).toBe(200);
      expect(Buffer.from(again.bytes).equals(bytes)).toBe(true);
      const second = await commandFor(a, transferId);
      expect((await fetchTransfer(server, a.connectorKey, transferId, second, a.host.epoch)).status).toBe(404);
    });
  });

  describe('retention', () => {
    it('drops expired transfers no command used, keeps used ones while their command is kept, and drops uploads cut off over an hour ago', async () => {
      const a = await readyAccount(server);
      const unused = (await upload(server, a.apiKey, randomBytes(100))).body.transferId as string;
      const used = (await upload(server, a.apiKey, randomBytes(100))).body.transferId as string;
      const commandId = await commandFor(a, used);
      expect((await fetchTransfer(server, a.connectorKey, used, commandId, a.host.epoch)).status).toBe(200);
      // An upload under way (or cut off by a crash): its first chunk and no end.
      const { store } = server.services;
      await store.beginTransfer({ id: 'cut-off', accountId: a.accountId, fileName: 'x.png', mimeType: 'image/png', createdAt: clock.now() });
      await store.appendTransferChunk(a.accountId, 'cut-off', 0, randomBytes(100));
      expect(await stored(server, a.accountId)).toEqual({ transfers: 3, chunks: 3, uses: 1 });

      clock.advance(TTL - 1);
      await server.retention();
      expect((await stored(server, a.accountId)).transfers).toBe(2);
      clock.advance(1);
      await server.retention();
      expect(await stored(server, a.accountId)).toEqual({ transfers: 1, chunks: 1, uses: 1 });
      expect(await store.readTransferChunk(a.accountId, unused, 0)).toBeNull();
      expect(await store.readTransferChunk(a.accountId, used, 0)).not.toBeNull();

      // The command settles and is dropped by its own retention: its use goes with it, then the transfer.
      expect((await a.host.settle(commandId, 'succeeded')).status).toBe(200);
      clock.advance(server.services.config.commandRetentionMs + 1);
      await server.retention();
      expect(await server.services.store.getCommand(a.accountId, commandId)).toBeNull();
      expect(await stored(server, a.accountId)).toEqual(NOTHING);
    });

    it('keeps an expired transfer while a command accepted before its expiry is queued, however long it waits', async () => {
      const a = await readyAccount(server);
      const bytes = randomBytes(3000);
      const transferId = (await upload(server, a.apiKey, bytes)).body.transferId as string;
      const sent = await postCommand(server.url, a.apiKey, 'message.send', { target: { kind: 'conversation', conversationId: a.direct }, payload: { kind: 'attachment', transferId } });
      expect(sent.status).toBe(202);
      clock.advance(TTL + 7 * 24 * HOUR);
      await server.retention();
      expect(await stored(server, a.accountId)).toEqual({ transfers: 1, chunks: 1, uses: 0 });
      expect((await a.host.dispatch()).map((c) => c.commandId)).toEqual([sent.body.commandId]);
      const fetched = await fetchTransfer(server, a.connectorKey, transferId, sent.body.commandId, a.host.epoch);
      expect(fetched.status).toBe(200);
      expect(Buffer.from(fetched.bytes).equals(bytes)).toBe(true);
    });
  });

  describe('the admin API\'s transfer limits', () => {
    let operator: string;
    beforeAll(async () => {
      operator = (await server.operatorKey()).secret;
    });

    async function admin(method: string, accountId: string, body?: unknown, key = operator, contentType = 'application/json'): Promise<{ status: number; body: any }> {
      const res = await fetch(`${server.url}/v1/admin/accounts/${accountId}/transfer-limits`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': contentType }) },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      });
      const text = await res.text();
      const answer = { status: res.status, body: text ? JSON.parse(text) : null };
      expectAdminSpec('/v1/admin/accounts/{accountId}/transfer-limits', method, answer.status, answer.body);
      return answer;
    }

    it('are the defaults until set; a change applies to the next upload, and is audited', async () => {
      const a = await server.account();
      expect(await admin('GET', a.accountId)).toEqual({ status: 200, body: DEFAULT_TRANSFER_LIMITS });
      const limits = { maxBytes: 10, allowedTypes: ['text/plain', 'audio/*'] };
      expect(await admin('PUT', a.accountId, limits)).toEqual({ status: 200, body: limits });
      expect(await admin('GET', a.accountId)).toEqual({ status: 200, body: limits });
      expect((await upload(server, a.apiKey, randomBytes(11), { type: 'text/plain' })).body).toMatchObject({ error: 'transfer_too_large' });
      expect((await upload(server, a.apiKey, randomBytes(10), { type: 'image/png' })).body).toMatchObject({ error: 'transfer_type_not_allowed' });
      expect((await upload(server, a.apiKey, randomBytes(10), { type: 'audio/mpeg' })).status).toBe(201);
      const audit = await (await fetch(`${server.url}/v1/admin/audit?limit=5`, { headers: { authorization: `Bearer ${operator}` } })).json() as any;
      expect(audit.records[0]).toMatchObject({ action: 'account.transfer_limits', accountId: a.accountId, detail: limits });
    });

    it('an empty list allows nothing', async () => {
      const a = await server.account();
      expect((await admin('PUT', a.accountId, { maxBytes: 100, allowedTypes: [] })).status).toBe(200);
      expect((await upload(server, a.apiKey, randomBytes(10))).body).toMatchObject({ error: 'transfer_type_not_allowed' });
    });

    it('a body that is not TransferLimits is 400 invalid_body and changes nothing; an unknown account is 404', async () => {
      const a = await server.account();
      for (const bad of [{ maxBytes: 0, allowedTypes: [] }, { maxBytes: 100_000_001, allowedTypes: [] }, { maxBytes: '100', allowedTypes: [] }, { maxBytes: 1.5, allowedTypes: [] },
        { maxBytes: 100, allowedTypes: ['Image/PNG'] }, { maxBytes: 100, allowedTypes: ['*/*'] }, { maxBytes: 100 }, { maxBytes: 100, allowedTypes: [], extra: 1 },
        'not json', '{"a":', '[]', 'null', JSON.stringify({ maxBytes: 1, allowedTypes: ['x/y'], pad: 'x'.repeat(17 << 10) })]) {
        const res = await admin('PUT', a.accountId, bad);
        expect(res.status, JSON.stringify(bad)).toBe(400);
        expect(res.body).toMatchObject({ error: 'invalid_body' });
      }
      expect(await admin('PUT', a.accountId, JSON.stringify({ maxBytes: 1, allowedTypes: [] }), operator, 'text/plain')).toMatchObject({ status: 415, body: { error: 'unsupported_media_type' } });
      expect((await admin('GET', a.accountId)).body).toEqual(DEFAULT_TRANSFER_LIMITS);
      expect((await admin('GET', '00000000-0000-7000-8000-000000000000')).status).toBe(404);
      expect((await admin('PUT', '00000000-0000-7000-8000-000000000000', { maxBytes: 1, allowedTypes: [] })).status).toBe(404);
    });

    it('a read-only operator key reads them and cannot change them', async () => {
      const a = await server.account();
      const reader = (await server.operatorKey('read-only')).secret;
      expect((await admin('GET', a.accountId, undefined, reader)).status).toBe(200);
      expect((await admin('PUT', a.accountId, { maxBytes: 1, allowedTypes: [] }, reader)).status).toBe(403);
    });
  });
});
