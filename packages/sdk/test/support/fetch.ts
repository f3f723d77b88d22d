/** Fake responses and a scripted fetch for unit tests of the client. */

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

export function errorBody(status: number, error: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Response {
  return json(status, { error, message: `${error} (test)`, requestId: 'req-1', ...extra }, headers);
}

export const ack = (commandId = '0190b7a4-0000-7000-8000-000000000001', disposition: 'queued' | 'adopted' = 'queued') =>
  json(202, { commandId, status: 'queued', disposition });

/** The error Node's fetch (undici) throws when nothing listens on the port. */
export function connectionRefused(): TypeError {
  return new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }) });
}

/** The error Node's fetch throws when the connection drops after the request went out. */
export function connectionReset(): TypeError {
  return new TypeError('fetch failed', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) });
}

export type Step = Response | Error | ((request: Request) => Response | Promise<Response>);

/** A fetch that answers the scripted steps in order and records every request it was given. */
export function scriptedFetch(...steps: Step[]) {
  const requests: Request[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    requests.push(request);
    const step = steps.shift();
    // A 400 is fatal on every path, so a test that makes more requests than scripted fails loudly
    // instead of retrying forever.
    if (step === undefined) return json(400, { error: 'invalid_query', message: `unscripted request ${request.method} ${request.url}` });
    if (step instanceof Error) throw step;
    return typeof step === 'function' ? step(request) : step;
  };
  return { fetch, requests, remaining: () => steps.length };
}

/** A fetch whose request never answers until aborted (then rejects like fetch does). */
export function hangingFetch(): (request: Request) => Promise<Response> {
  return (request) =>
    new Promise((_resolve, reject) => {
      request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
    });
}

export type StreamEnd = 'close' | 'error' | 'hang';

/**
 * An SSE response whose body delivers `chunks` (each its own read) and then closes, fails like a
 * dropped connection, or stays open until the request is aborted.
 */
export function sse(chunks: string[], end: StreamEnd = 'hang', request?: Request): Response {
  const encoder = new TextEncoder();
  const queue = [...chunks];
  let aborted: (reason: unknown) => void = () => undefined;
  request?.signal.addEventListener('abort', () => aborted(request.signal.reason), { once: true });
  // One chunk per pull, so every chunk is read before the stream ends or fails.
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = queue.shift();
      if (chunk !== undefined) return controller.enqueue(encoder.encode(chunk));
      if (end === 'close') return controller.close();
      if (end === 'error') return controller.error(new TypeError('terminated'));
      return new Promise<void>((resolve) => {
        aborted = (reason) => {
          controller.error(reason);
          resolve();
        };
      });
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

/** One stream event as the service writes it. */
export function frame(id: number, type: string, data: Record<string, unknown> = {}): string {
  const envelope = { id: String(id), type, time: '2026-01-01T00:00:00.000Z', account: 'acct', data };
  return `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify(envelope)}\n\n`;
}
