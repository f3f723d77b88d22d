import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { AddressRefused, bareHost, resolveDeliveryAddress, type Resolver } from './address.ts';

export interface SendOptions {
  timeoutMs: number;
  allowHosts: readonly string[];
  resolve?: Resolver;
}

/** What one attempt got: a status (with Retry-After), or why no response arrived. */
export type SendResult =
  | { status: number; retryAfter: string | null; error: null; latencyMs: number }
  | { status: null; retryAfter: null; error: string; latencyMs: number };

/**
 * POSTs `body` once. Never follows a redirect (a 3xx is just a status), reads the status line and
 * headers only, and gives up after `timeoutMs` from the start, whatever stage it is at.
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
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(result);
    };
    const make = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = make(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      lookup,
      ...(isIP(bareHost(url)) === 0 ? { servername: bareHost(url) } : {}),
      agent: false,
    }, (res: IncomingMessage) => {
      // The status decides; the body is never read, so a large or endless one costs nothing.
      finish({ status: res.statusCode ?? 0, retryAfter: typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : null, error: null, latencyMs: latency() });
    });
    const timer = setTimeout(() => finish({ status: null, retryAfter: null, error: 'timeout', latencyMs: latency() }), options.timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => finish({ status: null, retryAfter: null, error: `connection: ${error.code ?? error.message}`, latencyMs: latency() }));
    req.end(body);
  });
}
