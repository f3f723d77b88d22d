import type { WebhookEndpointChange, WebhookEndpointRecord } from '../webhooks.ts';

/**
 * An endpoint as an operator's change leaves it. Enabling a disabled endpoint starts its
 * delivery afresh (no retry state); disabling an enabled one says the operator did it.
 */
export function changedEndpoint(current: WebhookEndpointRecord, change: WebhookEndpointChange, now: number): WebhookEndpointRecord {
  const next = { ...current, ...change, enabled: current.enabled };
  if (change.enabled === true && !current.enabled) {
    return { ...next, enabled: true, disabledReason: null, disabledAt: null, attempt: 0, nextAttemptAt: 0, failingSince: null };
  }
  if (change.enabled === false && current.enabled) return { ...next, enabled: false, disabledReason: 'operator', disabledAt: now };
  return next;
}
