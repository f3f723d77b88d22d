/**
 * `transfers.upload`: media for an `attachment`, a `sticker` or a `set_photo`, sent as the body
 * of `POST /v1/transfers` with its own Content-Type. Loaded on first use, so a client that never
 * uploads does not download it.
 */
import type { call, Context } from './http.ts';
import type { Failure, isRetryable } from './retry.ts';
import type { Transfer, UploadBody, UploadOptions } from './types.ts';

/** The client's context, with the two functions an upload needs (passed in: see client.ts). */
export interface UploadContext extends Context {
  call: typeof call;
  isRetryable: typeof isRetryable;
}

type Chunks = () => Promise<IteratorResult<Uint8Array>>;

/** Reads a web ReadableStream or an async iterable (a Node Readable) one chunk at a time. */
function chunksOf(body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>): { next: Chunks; close(): Promise<unknown> } {
  if (typeof ReadableStream !== 'undefined' && body instanceof ReadableStream) {
    const reader = body.getReader();
    return { next: () => reader.read() as Promise<IteratorResult<Uint8Array>>, close: () => reader.cancel() };
  }
  const iterator = (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  return { next: () => iterator.next(), close: async () => iterator.return?.() };
}

/**
 * One attempt's body over the shared source. `touched` turns true once fetch asks for the first
 * chunk: from then on the source is partly read and the upload cannot be sent again.
 */
function attemptBody(next: Chunks, state: { touched: boolean }): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        state.touched = true;
        const { done, value } = await next();
        if (done) controller.close();
        else controller.enqueue(value);
      },
    },
    // No read ahead: nothing is pulled from the source until fetch sends.
    { highWaterMark: 0 },
  );
}

export async function upload(ctx: UploadContext, body: UploadBody, options: UploadOptions): Promise<Transfer> {
  const isBlob = typeof Blob !== 'undefined' && body instanceof Blob;
  const contentType = options.contentType ?? (isBlob ? body.type : '');
  if (!contentType) throw new TypeError('transfers.upload needs a contentType (the media type, e.g. image/png)');
  const inMemory = isBlob || body instanceof ArrayBuffer || ArrayBuffer.isView(body);
  const stream = inMemory ? undefined : chunksOf(body as ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>);
  const state = { touched: false };
  // Bytes in memory are sent again whole: a repeat stores a second copy nothing names, which
  // expires. A stream is sent again only while none of it was read.
  const retryable = (failure: Failure) => (stream === undefined || !state.touched) && ctx.isRetryable('read', failure);
  try {
    const { data } = await ctx.call(
      options.timeoutMs === undefined ? ctx : { ...ctx, timeoutMs: options.timeoutMs },
      retryable,
      (signal) =>
        ctx.api.POST('/v1/transfers', {
          params: { query: { fileName: options.fileName } },
          body: (stream ? attemptBody(stream.next, state) : body) as unknown as string,
          bodySerializer: (b: unknown) => b as never,
          headers: { 'Content-Type': contentType },
          // A stream body needs half duplex (fetch's rule); bytes in memory go with a Content-Length.
          ...(stream ? { duplex: 'half' } : {}),
          signal,
        }),
      options.signal,
    );
    return data;
  } finally {
    await stream?.close().catch(() => undefined);
  }
}
