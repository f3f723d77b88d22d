import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { SwitchboardClient } from './client.ts';
// Loaded here first: the client imports it on first use, which TestClock.run would take for a stall.
import './transfers.ts';
import { SwitchboardError, SwitchboardNetworkError } from './errors.ts';
import { TestClock } from '../test/support/clock.ts';
import { connectionRefused, connectionReset, errorBody, json, scriptedFetch, type Step } from '../test/support/fetch.ts';

const transfer = {
  transferId: 'tr_1',
  fileName: 'photo.png',
  mimeType: 'image/png',
  byteSize: 3,
  sha256: '039058c6f2c0cb492c533b0a4d14ef77cc0f78abccced5287d84a1a2011cfb81',
  createdAt: '2026-11-28T00:00:00.000Z',
  expiresAt: '2026-11-29T00:00:00.000Z',
};
const created = () => json(201, transfer);
/** A step that reads the whole upload, as the server does, before answering. */
const reading = (answer: () => Response): Step => async (request) => {
  await request.arrayBuffer();
  return answer();
};

function setup(...steps: Step[]) {
  const clock = new TestClock();
  const scripted = scriptedFetch(...steps);
  const client = new SwitchboardClient({ baseUrl: 'http://switchboard.test', apiKey: 'sk_test', fetch: scripted.fetch, clock, random: () => 0.5 });
  return { client, clock, requests: scripted.requests };
}

const bytes = new Uint8Array([1, 2, 3]);
async function* chunks() {
  yield new Uint8Array([1]);
  yield new Uint8Array([2, 3]);
}

describe('transfers.upload', () => {
  it('posts the bytes to /v1/transfers?fileName= with their Content-Type and answers the Transfer', async () => {
    const { client, clock, requests } = setup(created());
    expect(await clock.run(client.transfers.upload(bytes, { fileName: 'photo 1.png', contentType: 'image/png' }))).toEqual(transfer);
    const [request] = requests;
    expect(request!.method).toBe('POST');
    const url = new URL(request!.url);
    expect([url.pathname, url.searchParams.get('fileName')]).toEqual(['/v1/transfers', 'photo 1.png']);
    expect(request!.headers.get('content-type')).toBe('image/png');
    expect(request!.headers.get('authorization')).toBe('Bearer sk_test');
    expect(new Uint8Array(await request!.arrayBuffer())).toEqual(bytes);
  });

  it("takes a Blob's own type when contentType is omitted, and contentType over it when given", async () => {
    const { client, clock, requests } = setup(created(), created());
    await clock.run(client.transfers.upload(new Blob([bytes], { type: 'image/png' }), { fileName: 'a.png' }));
    await clock.run(client.transfers.upload(new Blob([bytes], { type: 'image/png' }), { fileName: 'a.gif', contentType: 'image/gif' }));
    expect(requests.map((r) => r.headers.get('content-type'))).toEqual(['image/png', 'image/gif']);
  });

  it('refuses a body with no media type before sending anything', async () => {
    const { client, requests } = setup();
    await expect(client.transfers.upload(new Blob([bytes]), { fileName: 'a.bin' })).rejects.toThrow(/contentType/);
    expect(requests).toHaveLength(0);
  });

  it('streams a web ReadableStream, a Node Readable and an async iterable, chunk by chunk', async () => {
    const { client, clock, requests } = setup(reading(created), reading(created), reading(created));
    const web = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array([1]));
        controller.enqueue(new Uint8Array([2, 3]));
        controller.close();
      },
    });
    for (const body of [web, Readable.from(chunks()), chunks()]) {
      expect(await clock.run(client.transfers.upload(body, { fileName: 'a.png', contentType: 'image/png' }))).toEqual(transfer);
    }
    expect(requests).toHaveLength(3);
  });

  it('maps an error answer to SwitchboardError with its code (transfers off: transfers_disabled, not retried)', async () => {
    const { client, clock, requests } = setup(errorBody(404, 'transfers_disabled'));
    const error = await clock.run(client.transfers.upload(bytes, { fileName: 'a.png', contentType: 'image/png' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SwitchboardError);
    expect([(error as SwitchboardError).status, (error as SwitchboardError).code]).toEqual([404, 'transfers_disabled']);
    expect(requests).toHaveLength(1);
  });

  it('does not retry what the service refused for good: too large, a type it does not take', async () => {
    const { client, clock } = setup(errorBody(413, 'transfer_too_large'), errorBody(415, 'transfer_type_not_allowed'));
    await expect(clock.run(client.transfers.upload(bytes, { fileName: 'a.png', contentType: 'image/png' }))).rejects.toMatchObject({ code: 'transfer_too_large' });
    await expect(clock.run(client.transfers.upload(bytes, { fileName: 'a.exe', contentType: 'application/x-msdownload' }))).rejects.toMatchObject({ code: 'transfer_type_not_allowed' });
  });

  it('sends bytes in memory again after a dropped connection or a 429, whole each time', async () => {
    const { client, clock, requests } = setup(connectionReset(), reading(() => errorBody(429, 'rate_limited', { retryAfterSeconds: 1 }, { 'retry-after': '1' })), created());
    expect(await clock.run(client.transfers.upload(bytes, { fileName: 'a.png', contentType: 'image/png' }))).toEqual(transfer);
    expect(requests).toHaveLength(3);
    expect(new Uint8Array(await requests[2]!.arrayBuffer())).toEqual(bytes);
  });

  it('sends a stream again when the failure came before its first byte was read (connection refused)', async () => {
    const { client, clock, requests } = setup(connectionRefused(), reading(created));
    expect(await clock.run(client.transfers.upload(chunks(), { fileName: 'a.png', contentType: 'image/png' }))).toEqual(transfer);
    expect(requests).toHaveLength(2);
  });

  it('never sends a stream again once bytes of it were read: a 429 or a dropped connection after that is thrown', async () => {
    const dropped = async (request: Request): Promise<Response> => {
      await request.body!.getReader().read();
      throw connectionReset();
    };
    const { client, clock, requests } = setup(reading(() => errorBody(429, 'rate_limited', { retryAfterSeconds: 1 }, { 'retry-after': '1' })), dropped, created());
    await expect(clock.run(client.transfers.upload(chunks(), { fileName: 'a.png', contentType: 'image/png' }))).rejects.toMatchObject({ code: 'rate_limited' });
    const error = await clock.run(client.transfers.upload(chunks(), { fileName: 'a.png', contentType: 'image/png' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SwitchboardNetworkError);
    expect(requests).toHaveLength(2);
  });

  it('closes a Node Readable it gave up on', async () => {
    const { client, clock } = setup(reading(() => errorBody(413, 'transfer_too_large')));
    const body = Readable.from(chunks());
    await expect(clock.run(client.transfers.upload(body, { fileName: 'a.png', contentType: 'image/png' }))).rejects.toMatchObject({ code: 'transfer_too_large' });
    expect(body.destroyed).toBe(true);
  });
});
