import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { WebhookEndpointRecord } from '../store/webhooks.ts';

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The secrets that sign a delivery at `now`: the current one, and the one a rotation replaced while its overlap lasts. */
export function signingSecrets(endpoint: WebhookEndpointRecord, now: number): string[] {
  const live = endpoint.previousSecret !== null && (endpoint.previousSecretExpiresAt ?? 0) > now;
  return live ? [endpoint.secret, endpoint.previousSecret!] : [endpoint.secret];
}

/** The Standard Webhooks headers of one attempt; `webhook-signature` carries one signature per secret. */
export function signedHeaders(messageId: string, body: string, secrets: readonly string[], now: number): Record<string, string> {
  const timestamp = new Date(now);
  return {
    'content-type': 'application/json',
    'user-agent': 'Switchboard-Webhooks/1',
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(now / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(messageId, timestamp, body)).join(' '),
  };
}
