/**
 * @switchboard/sdk/webhooks: verifies Switchboard's webhook deliveries (Standard Webhooks
 * signatures) with Web Crypto, so it runs in Node >= 20.19, Deno, Bun, Cloudflare Workers and
 * other edge runtimes. Separate from the client so a receiver loads only this.
 */
import type { WebhookEvent } from './types.ts';

/**
 * A delivery carries any event of the account's stream, the opt-in ones included (`poll.voted`,
 * `message.delivered`, `message.read`, `message.failed`, `message.reaction`, `message.edited`,
 * `message.unsent`): an endpoint's `eventTypes` filter chooses among them, not the SDK.
 */
export type {
  WebhookEvent,
  WebhookEndpointDisabledEvent,
  WebhookTestEvent,
  PollVotedEvent,
  MessageDeliveredEvent,
  MessageReadEvent,
  MessageFailedEvent,
  MessageReactionEvent,
  MessageEditedEvent,
  MessageUnsentEvent,
} from './types.ts';

export interface VerifyOptions {
  /** How far `webhook-timestamp` may be from now, either way, in seconds. Default 300 (the Standard Webhooks default). */
  toleranceSeconds?: number;
  /** Unix milliseconds (tests). */
  now?: number;
}

/** The delivery is not one Switchboard signed with any of the secrets given. Answer 400 or 401, never 2xx. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string {
  const value = headers instanceof Headers ? headers.get(name) : headers[name] ?? headers[name.toLowerCase()];
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) throw new WebhookVerificationError(`missing ${name} header`);
  return text;
}

function base64Bytes(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * Checks a delivery's `webhook-signature` against `secret` (or each of `secrets`, e.g. the old
 * and the new one while you switch after a rotation) and its `webhook-timestamp` against the
 * clock, and returns the event. Pass the body exactly as received (the raw text, not re-encoded
 * JSON). De-duplicate by `webhook-id` (the event id): a delivery can arrive more than once.
 *
 * ```ts
 * const event = await verifyWebhook(process.env.WEBHOOK_SECRET!, await request.text(), request.headers);
 * ```
 */
export async function verifyWebhook(secret: string | readonly string[], body: string, headers: HeaderSource, options: VerifyOptions = {}): Promise<WebhookEvent> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  const seconds = Number(timestamp);
  const now = (options.now ?? Date.now()) / 1000;
  if (!/^\d+$/.test(timestamp) || Math.abs(now - seconds) > (options.toleranceSeconds ?? 300)) {
    throw new WebhookVerificationError('webhook-timestamp is missing, malformed or outside the tolerance');
  }
  const signed = new TextEncoder().encode(`${id}.${timestamp}.${body}`);
  const candidates = signatures.split(' ').filter((s) => s.startsWith('v1,')).map((s) => s.slice(3));
  for (const one of typeof secret === 'string' ? [secret] : secret) {
    let key: CryptoKey;
    try {
      key = await crypto.subtle.importKey('raw', base64Bytes(one.replace(/^whsec_/, '')), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
    } catch {
      throw new WebhookVerificationError('the secret is not a whsec_ base64 secret');
    }
    for (const candidate of candidates) {
      let bytes: Uint8Array<ArrayBuffer>;
      try {
        bytes = base64Bytes(candidate);
      } catch {
        continue;
      }
      // crypto.subtle.verify compares in constant time.
      if (await crypto.subtle.verify('HMAC', key, bytes, signed)) return JSON.parse(body) as WebhookEvent;
    }
  }
  throw new WebhookVerificationError('no signature matches');
}
