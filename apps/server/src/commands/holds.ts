import type { Services } from '../services.ts';

type Deps = Pick<Services, 'store' | 'clock' | 'hub' | 'waiters' | 'metrics' | 'log'>;

/** How often each replica looks for quiet-hours holds whose window ended (specs: "Line policies"). */
export const HOLD_RELEASE_INTERVAL_MS = 5_000;

/**
 * One round of the release job: the store releases the due quiet-hours holds of every account
 * (each once, whichever replica gets there first); their streams and dispatch polls are woken.
 */
export async function releaseDueHolds(services: Deps): Promise<void> {
  const released = await services.store.releaseDueHolds(services.clock.now());
  for (const { accountId, released: n } of released) {
    services.metrics.linePolicies.inc({ policy: 'quietHours', outcome: 'released' }, n);
    services.hub.notify(accountId);
    services.waiters.wake(accountId);
    services.log.info({ accountId, released: n }, 'quiet hours ended: held commands released');
  }
}
