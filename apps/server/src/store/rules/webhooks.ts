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

/**
 * Which endpoints an operator's listing of a state shows, as a condition both stores' SQL takes:
 * failing is enabled and retrying the event after its cursor (a delivery or a replay clears
 * `failing_since`); disabled is either reason.
 */
export const ENDPOINT_STATE_CONDITION: Record<'all' | 'failing' | 'disabled', string> = {
  all: 'true',
  failing: 'enabled = 1 AND failing_since IS NOT NULL',
  disabled: 'enabled = 0',
};
