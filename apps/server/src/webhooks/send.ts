import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { AddressRefused, bareHost, resolveDeliveryAddress, type Resolver } from './address.ts';
import type { Connections } from './connections.ts';

export interface SendOptions {
  timeoutMs: number;
  allowHosts: readonly string[];
  resolve?: Resolver;
  /** Kept-alive connections; without them each attempt opens and closes its own. */
  connections?: Connections;
}

/** Response body bytes read (and dropped) so a kept-alive connection can carry the next attempt; past it the connection is closed. */
const BODY_LIMIT = 16_384;

/** What one attempt got: a status (with Retry-After), or why no response arrived. */
export type SendResult =
  | { status: number; retryAfter: string | null; error: null; latencyMs: number }
  | { status: null; retryAfter: null; error: string; latencyMs: number };

/**
 * POSTs `body` once. Never follows a redirect (a 3xx is just a status), decides on the status line
 * and headers, and gives up after `timeoutMs` from the start, whatever stage it is at. With
 * `connections`, the body is then read up to BODY_LIMIT within the same time so the connection
 * can be reused; otherwise the connection is closed.
 */
export async function sendOnce(url: URL, headers: Record<string, string>, body: string, options: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  let pinned: { address: string; family: number };
  try {
    pinned = await resolveDeliveryAddress(url, options.allowHosts, options.resolve);
  } catch (error) {
    const reason = error instanceof AddressRefused ? `address_refused: ${error.message}` : `dns: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
    return { status: null, retryAfter: null, error: reason, latencyMs: latency() };
  }
  // The connection goes to the address that was checked.
  const lookup: LookupFunction = (_host, opts, callback) => {
    if (opts.all) (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  return new Promise((resolve) => {
    let settled = false;
    /** `keep`: a response arrived and the connection may serve again once its body is read. */
    const finish = (result: SendResult, keep = false) => {
      if (settled) return;
      settled = true;
      if (!keep) {
        clearTimeout(timer);
        req.destroy();
      }
      resolve(result);
    };
    const make = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = make(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      lookup,
      ...(isIP(bareHost(url)) === 0 ? { servername: bareHost(url) } : {}),
      agent: options.connections?.agent(url, pinned.address) ?? false,
    }, (res: IncomingMessage) => {
      // The status decides; the body is only drained for reuse, so a large or endless one costs nothing.
      const keep = options.connections !== undefined;
      finish({ status: res.statusCode ?? 0, retryAfter: typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : null, error: null, latencyMs: latency() }, keep);
      if (!keep) return;
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > BODY_LIMIT) req.destroy();
      });
      res.on('end', () => clearTimeout(timer));
      res.on('error', () => req.destroy());
    });
    const timer = setTimeout(() => {
      if (settled) req.destroy(); // the body did not end in time
      else finish({ status: null, retryAfter: null, error: 'timeout', latencyMs: latency() });
    }, options.timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => finish({ status: null, retryAfter: null, error: `connection: ${error.code ?? error.message}`, latencyMs: latency() }));
    req.end(body);
  });
}
