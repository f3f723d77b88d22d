/**
 * Media uploads against the real server started with SWITCHBOARD_TRANSFERS=enabled and the real
 * simulated connector host, which fetches the upload when it sends it; and against a server with
 * transfers off, the default.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths, startHost, type HostProcess } from '@switchboard/testkit';
import { SwitchboardClient, SwitchboardError } from '../../src/index.ts';
import { startService, type Service } from '../support/service.ts';

const run = promisify(execFile);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('transfers turned on', () => {
  let service: Service;
  let host: HostProcess;
  let client: SwitchboardClient;
  let accountId: string;
  let simDir: string;

  beforeAll(async () => {
    service = await startService({ SWITCHBOARD_TRANSFERS: 'enabled' });
    const account = await service.server.account();
    accountId = account.accountId;
    simDir = mkdtempSync(join(tmpdir(), 'switchboard-sim-'));
    host = startHost({ url: service.server.url, connectorKey: account.connectorKey, env: { SWITCHBOARD_SIM_DB: join(simDir, 'simulator.db') } });
    await host.leased();
    client = new SwitchboardClient({ baseUrl: service.server.url, apiKey: account.apiKey });
  });
  afterAll(async () => {
    await host?.stop();
    await service?.stop();
    if (simDir) rmSync(simDir, { recursive: true, force: true });
  });

  it('uploads a Uint8Array: 201 with its size, type, name and the SHA-256 of its bytes', async () => {
    const bytes = randomBytes(1_000);
    const transfer = await client.transfers.upload(new Uint8Array(bytes), { fileName: 'parcel.png', contentType: 'image/png' });
    expect(transfer).toMatchObject({ fileName: 'parcel.png', mimeType: 'image/png', byteSize: 1_000, sha256: sha256(bytes) });
    expect(Date.parse(transfer.expiresAt)).toBeGreaterThan(Date.parse(transfer.createdAt));
  });

  it('streams a Node Readable of several chunks (over 1 MiB, with no Content-Length) and a web ReadableStream', async () => {
    const parts = [randomBytes(700_000), randomBytes(700_000), randomBytes(5)];
    const whole = Buffer.concat(parts);
    const fromNode = await client.transfers.upload(Readable.from(parts), { fileName: 'clip.mp4', contentType: 'video/mp4' });
    expect([fromNode.byteSize, fromNode.sha256]).toEqual([whole.length, sha256(whole)]);
    const fromWeb = await client.transfers.upload(Readable.toWeb(Readable.from(parts)) as ReadableStream<Uint8Array>, { fileName: 'clip.mp4', contentType: 'video/mp4' });
    expect(fromWeb.sha256).toBe(sha256(whole));
  });

  it("answers the typed error the service sends: a type the account does not allow", async () => {
    const error = await client.transfers.upload(new Uint8Array([1]), { fileName: 'a.zip', contentType: 'application/zip' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SwitchboardError);
    expect([(error as SwitchboardError).status, (error as SwitchboardError).code]).toEqual([415, 'transfer_type_not_allowed']);
  });

  it('an uploaded file sent as an attachment settles succeeded', async () => {
    const after = (await client.eventPage({ after: 'now' })).nextAfter;
    await run(process.execPath, [paths.connector, 'inject', '--account', accountId, '--from', '+14155550123', '--text', 'A photo, please', '--sim-db', join(simDir, 'simulator.db')]);
    let conversationId: string | undefined;
    const controller = new AbortController();
    for await (const event of client.events({ after, signal: controller.signal })) {
      if (event.type === 'message.received') {
        conversationId = event.data.conversationId;
        break;
      }
    }
    controller.abort();
    const photo = await client.transfers.upload(new Blob([randomBytes(2_000)], { type: 'image/png' }), { fileName: 'photo.png' });
    const ack = await client.sendMessage({ target: { kind: 'conversation', conversationId: conversationId! }, payload: { kind: 'attachment', transferId: photo.transferId } });
    expect(await client.settled(ack.commandId, { timeoutMs: 20_000 })).toMatchObject({ status: 'succeeded', errorCode: null });
  });
});

describe('transfers turned off (the default)', () => {
  let service: Service;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('an upload is SwitchboardError transfers_disabled (404), not retried', async () => {
    const account = await service.server.account();
    let requests = 0;
    const client = new SwitchboardClient({ baseUrl: service.server.url, apiKey: account.apiKey, fetch: (request) => (requests++, fetch(request)) });
    for (const body of [new Uint8Array([1, 2, 3]), Readable.from([new Uint8Array([1, 2, 3])])]) {
      const error = await client.transfers.upload(body, { fileName: 'a.png', contentType: 'image/png' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SwitchboardError);
      expect([(error as SwitchboardError).status, (error as SwitchboardError).code]).toEqual([404, 'transfers_disabled']);
    }
    expect(requests).toBe(2);
  });
});
