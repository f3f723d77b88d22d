import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConnectorClient } from '@switchboard/connector-client';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';

/**
 * ConnectorClient.fetchTransfer over real HTTP, against answers shaped as
 * specs/openapi/connector.yaml `fetchTransfer` says: 200 with the bytes and their headers, 404
 * `transfer_not_found`, and the protocol's other errors.
 */
const bytes = Buffer.from([0, 1, 2, 250, 251, 252, 10, 13]);
const sha256 = createHash('sha256').update(bytes).digest('hex');
let server: Server;
let client: ConnectorClient;
const seen: string[] = [];
/** Several MiB, answered in 64 KiB writes: many chunks to join. */
const large = Buffer.alloc(3 * 1_048_576 + 5, 7);
const stalled: ServerResponse[] = [];

function answer(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://x');
  seen.push(`${req.method} ${url.pathname}${url.search} ${req.headers.authorization}`);
  const id = decodeURIComponent(url.pathname.split('/').at(-1)!);
  const json = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  if (id === 'plain') {
    res.writeHead(200, { 'content-type': 'Image/PNG; charset=binary', 'content-disposition': 'attachment; filename="a \\"quoted\\" name.png"', 'x-switchboard-sha256': sha256.toUpperCase() });
    res.end(bytes);
  } else if (id === 'utf8') {
    res.writeHead(200, { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="facture.pdf"; filename*=UTF-8''${encodeURIComponent('facturé 😀.pdf')}`, 'x-switchboard-sha256': sha256 });
    res.end(bytes);
  } else if (id === 'empty') {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '0', 'x-switchboard-sha256': createHash('sha256').digest('hex') });
    res.end();
  } else if (id === 'large') {
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(large.byteLength), 'x-switchboard-sha256': createHash('sha256').update(large).digest('hex') });
    for (let at = 0; at < large.byteLength; at += 65_536) res.write(large.subarray(at, at + 65_536));
    res.end();
  } else if (id === 'stalled') {
    // Headers and a first part, then nothing: a fetch waits until its signal aborts.
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': '1000000' });
    res.write(Buffer.alloc(1000));
    stalled.push(res);
  } else if (id === 'lost') {
    json(409, { error: 'lease_lost', message: 'epoch 1 is not the live lease' });
  } else if (id === 'broken') {
    json(500, { error: 'internal', message: 'boom' });
  } else {
    json(404, { error: 'transfer_not_found', message: 'no usable transfer' });
  }
}

beforeAll(async () => {
  server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  client = new ConnectorClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'sbc_test');
});

afterAll(async () => {
  for (const res of stalled) res.destroy();
  client.close();
  await new Promise((resolve) => server.close(resolve));
});

const command = { commandId: '6f1c2d7e-1111-4222-8333-944455556666', epoch: 3 };

describe('ConnectorClient.fetchTransfer', () => {
  test('200: the bytes as they came, the file name from Content-Disposition, the media type without parameters, the sha256 lower-cased', async () => {
    const fetched = await client.fetchTransfer('plain', command);
    expect(fetched).toEqual({ result: 'found', transfer: { fileName: 'a "quoted" name.png', mimeType: 'image/png', sha256, bytes: new Uint8Array(bytes) } });
    expect(seen.at(-1)).toBe(`GET /v1/connector/transfers/plain?commandId=${command.commandId}&epoch=3 Bearer sbc_test`);
  });

  test('filename* (RFC 5987, UTF-8) wins over filename', async () => {
    const fetched = await client.fetchTransfer('utf8', command);
    expect(fetched.result === 'found' && fetched.transfer.fileName).toBe('facturé 😀.pdf');
  });

  test('an empty transfer is zero bytes', async () => {
    const fetched = await client.fetchTransfer('empty', command);
    expect(fetched).toMatchObject({ result: 'found', transfer: { mimeType: 'text/plain', bytes: new Uint8Array(0) } });
  });

  test('404 is no usable transfer, with the server\'s error', async () => {
    expect(await client.fetchTransfer('unknown', command)).toEqual({ result: 'not_found', error: { error: 'transfer_not_found', message: 'no usable transfer' } });
  });

  test('any other answer comes back as it is: lease lost, 5xx', async () => {
    expect(await client.fetchTransfer('lost', command)).toEqual({ result: 'other', answer: { status: 409, body: { error: 'lease_lost', message: 'epoch 1 is not the live lease' } } });
    expect(await client.fetchTransfer('broken', command)).toMatchObject({ result: 'other', answer: { status: 500 } });
  });

  test('a large body is held once: the joined chunks are handed out as they are, not copied again', async () => {
    const slice = vi.spyOn(ArrayBuffer.prototype, 'slice');
    try {
      const fetched = await client.fetchTransfer('large', command);
      expect(fetched.result === 'found' && Buffer.from(fetched.transfer.bytes.buffer).equals(large)).toBe(true);
      expect(slice.mock.calls.filter((call) => ((call[1] ?? 0) as number) - ((call[0] ?? 0) as number) >= large.byteLength)).toEqual([]);
    } finally {
      slice.mockRestore();
    }
  });

  test('a stalled fetch stops when its signal aborts (the lease ended)', async () => {
    const ended = new AbortController();
    const fetching = client.fetchTransfer('stalled', command, ended.signal);
    await vi.waitFor(() => expect(stalled).toHaveLength(1));
    ended.abort();
    await expect(fetching).rejects.toThrow();
  });
});
