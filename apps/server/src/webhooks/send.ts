import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { AddressRefused, bareHost, resolveDeliveryAddress, type Resolver } from './address.ts';
import type { Connections } from './connections.ts';
import type { EventRecord } from '../store/types.ts';
import type { WebhookEndpointRecord } from '../store/webhooks.ts';
import { toEnvelope } from '../stream/envelope.ts';
import { signedHeaders, signingSecrets } from './signing.ts';

export interface SendOptions {
  timeoutMs: number;
  allowHosts: readonly string[];
  resolve?: Resolver;
  /** Kept-alive connections; without them each attempt opens and closes its own. */
  connections?: Connections;
}

/** Response body bytes read (and dropped) so a kept-alive connection can carry the next attempt; past it the connection is closed. */
const BODY_LIMIT = 16_384;
/** What the delivery log keeps of a response body: enough for an operator to see why a receiver refused. */
export const RESPONSE_BODY_BYTES = 1_024;

/** What one attempt got: a status (with Retry-After and the body's first KiB), or why no response arrived. */
export type SendResult =
  | { status: number; retryAfter: string | null; error: null; latencyMs: number; responseBody: string | null }
  | { status: null; retryAfter: null; error: string; latencyMs: number; responseBody: null };

/**
 * POSTs `body` once. Never follows a redirect (a 3xx is just a status), and gives up after
 * `timeoutMs` from the start, whatever stage it is at. It answers once it has the status line and
 * the body's first RESPONSE_BODY_BYTES (or the whole body, if shorter); a timeout while reading
 * the body keeps the status and what was read. With `connections`, the body is then read on up to
 * BODY_LIMIT within the same time so the connection can be reused; otherwise it is closed.
 */
export async function sendOnce(url: URL, headers: Record<string, string>, body: string, options: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  let pinned: { address: string; family: number };
  try {
    pinned = await resolveDeliveryAddress(url, options.allowHosts, options.resolve);
  } catch (error) {
    const reason = error instanceof AddressRefused ? `address_refused: ${error.message}` : `dns: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
    return { status: null, retryAfter: null, error: reason, latencyMs: latency(), responseBody: null };
  }
  // The connection goes to the address that was checked.
  const lookup: LookupFunction = (_host, opts, callback) => {
    if (opts.all) (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  const keep = options.connections !== undefined;
  return new Promise((resolve) => {
    let settled = false;
    /** Answers with the status and the body read so far, once the response has arrived. */
    let answer: (() => void) | null = null;
    /** `reuse`: the connection may serve again once its body is read. */
    const finish = (result: SendResult, reuse = false) => {
      if (settled) return;
      settled = true;
      if (!reuse) {
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
      // The status decides; of the body only the first KiB is kept, and the rest only drained for
      // reuse, so a large or endless one costs nothing.
      const status = res.statusCode ?? 0;
      const retryAfter = typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : null;
      const latencyMs = latency();
      const kept: Buffer[] = [];
      let keptBytes = 0;
      let read = 0;
      answer = () => finish({ status, retryAfter, error: null, latencyMs, responseBody: responseText(kept) }, keep);
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (keptBytes < RESPONSE_BODY_BYTES) {
          const part = chunk.subarray(0, RESPONSE_BODY_BYTES - keptBytes);
          kept.push(part);
          keptBytes += part.length;
          if (keptBytes >= RESPONSE_BODY_BYTES) answer!();
        }
        if (read > BODY_LIMIT) req.destroy();
      });
      res.on('end', () => {
        answer!();
        clearTimeout(timer);
      });
      // A body cut short (a reset, or closed past the limit) still answers with what came.
      res.on('error', () => {
        answer!();
        req.destroy();
      });
      res.on('close', () => answer!());
    });
    const timer = setTimeout(() => {
      if (answer) answer(); // the status came, the body did not end in time: keep what was read
      else finish({ status: null, retryAfter: null, error: 'timeout', latencyMs: latency(), responseBody: null });
      req.destroy();
    }, options.timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (answer) answer(); // after the status line, a failure only cuts the body short
      else finish({ status: null, retryAfter: null, error: `connection: ${error.code ?? error.message}`, latencyMs: latency(), responseBody: null });
    });
    req.end(body);
  });
}

/** One attempt of `event` at `endpoint`, signed at `at` with the secrets live then, its id as `webhook-id`. */
export function deliverEvent(endpoint: WebhookEndpointRecord, event: EventRecord, at: number, options: SendOptions): Promise<SendResult> {
  const body = JSON.stringify(toEnvelope(event));
  return sendOnce(new URL(endpoint.url), signedHeaders(String(event.id), body, signingSecrets(endpoint, at), at), body, options);
}

/** The kept bytes as UTF-8 (a character cut at the end becomes U+FFFD); null for an empty body. */
function responseText(chunks: readonly Buffer[]): string | null {
  const bytes = Buffer.concat(chunks);
  return bytes.length === 0 ? null : bytes.toString('utf8');
}
