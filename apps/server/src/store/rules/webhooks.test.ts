import { describe, expect, it } from 'vitest';
import type { WebhookEndpointRecord } from '../webhooks.ts';
import { changedEndpoint } from './webhooks.ts';

const failing: WebhookEndpointRecord = {
  id: 'w1', accountId: 'a1', url: 'https://example.com/hook', description: null, eventTypes: null, secret: 's', previousSecret: null,
  previousSecretExpiresAt: null, enabled: false, disabledReason: 'failing', disabledAt: 50, cursor: 7, attempt: 9, nextAttemptAt: 60, failingSince: 10, createdAt: 1,
};
const healthy: WebhookEndpointRecord = { ...failing, enabled: true, disabledReason: null, disabledAt: null, attempt: 0, nextAttemptAt: 0, failingSince: null };

describe('changedEndpoint', () => {
  it('enabling a disabled endpoint starts its delivery afresh', () => {
    expect(changedEndpoint(failing, { enabled: true }, 100)).toEqual(healthy);
  });

  it('disabling an enabled one says the operator did it, when', () => {
    expect(changedEndpoint(healthy, { enabled: false }, 100)).toEqual({ ...healthy, enabled: false, disabledReason: 'operator', disabledAt: 100 });
  });

  it('enabling an enabled one, or disabling a disabled one, changes nothing of its delivery state', () => {
    expect(changedEndpoint(healthy, { enabled: true }, 100)).toEqual(healthy);
    expect(changedEndpoint(failing, { enabled: false }, 100)).toEqual(failing);
  });

  it('the url, description and event types change as asked, and only they', () => {
    const change = { url: 'https://example.org/h', description: 'ops', eventTypes: ['command.settled'] };
    expect(changedEndpoint(failing, change, 100)).toEqual({ ...failing, ...change });
  });
});
