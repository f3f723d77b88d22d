import type { AdminComponents } from '@switchboard/contracts';
import { iso } from '../clock.ts';
import type { MinuteCounts } from '../store/types.ts';
import type { AdminDeps } from './audit.ts';

const MINUTE_MS = 60_000;

/** One entry per minute of the `minutes` ending with the current one, oldest first: the minutes with no command are zeros. */
export function everyMinute(counted: readonly MinuteCounts[], first: number, minutes: number): AdminComponents['schemas']['MinuteCounts'][] {
  const byMinute = new Map(counted.map((m) => [m.minute, m]));
  return Array.from({ length: minutes }, (_, i) => {
    const minute = first + i * MINUTE_MS;
    const m = byMinute.get(minute);
    return { minute: iso(minute), accepted: m?.accepted ?? 0, succeeded: m?.succeeded ?? 0, failed: m?.failed ?? 0 };
  });
}

/** The overview page's figures over the last `minutes` minutes (the current one included). */
export async function overview(deps: AdminDeps, minutes: number): Promise<AdminComponents['schemas']['Overview']> {
  const now = deps.clock.now();
  const first = Math.floor(now / MINUTE_MS) * MINUTE_MS - (minutes - 1) * MINUTE_MS;
  const [accounts, leases, outboundPaused, counts, failing, disabled] = await Promise.all([
    deps.store.listAccounts(),
    deps.store.listLeases(),
    deps.store.outboundPausedForAll(),
    deps.store.commandCounts(first),
    deps.store.webhooks.listAllEndpoints('failing'),
    deps.store.webhooks.listAllEndpoints('disabled'),
  ]);
  const live = leases.filter((l) => l.expiresAt > now).length;
  return {
    accounts: accounts.length,
    hosts: { live, expired: leases.length - live },
    outboundPaused,
    minutes,
    commandsPerMinute: everyMinute(counts.minutes, first, minutes),
    failuresByCode: counts.failures,
    failingEndpoints: failing.length + disabled.length,
  };
}
