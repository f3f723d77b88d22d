import { paint, table, UsageError } from './format.ts';
import type { Account, LinePolicies, Operator } from './operator.ts';

type Out = (human: string, json: unknown) => void;

/** The options of `policies set`, each a policy's limit or "off". */
export const POLICY_OPTIONS = ['new-contacts-per-hour', 'new-contacts-per-day', 'pacing-per-minute', 'loop-breaker'] as const;
export type PolicyOption = (typeof POLICY_OPTIONS)[number];

/** An option's value: "off" is null, else a whole number of at least 1 (the server checks the maximum). */
export function policyLimit(option: PolicyOption, value: string): number | null {
  if (value === 'off') return null;
  if (!/^[1-9]\d{0,8}$/.test(value)) throw new UsageError(`--${option} takes a whole number of at least 1, or "off" (not "${value}")`);
  return Number(value);
}

/**
 * The current set with the named options changed and every other policy kept: the admin API
 * replaces the whole set, so `set` reads, merges and puts.
 */
export function mergePolicies(current: LinePolicies, changes: Partial<Record<PolicyOption, number | null>>): LinePolicies {
  const has = (option: PolicyOption) => option in changes;
  const perHour = has('new-contacts-per-hour') ? changes['new-contacts-per-hour']! : current.newContacts?.perHour ?? null;
  const perDay = has('new-contacts-per-day') ? changes['new-contacts-per-day']! : current.newContacts?.perDay ?? null;
  const perMinute = has('pacing-per-minute') ? changes['pacing-per-minute']! : current.pacing?.perMinute ?? null;
  const maxUnanswered = has('loop-breaker') ? changes['loop-breaker']! : current.loopBreaker?.maxUnanswered ?? null;
  return {
    newContacts: perHour === null && perDay === null ? null : { perHour, perDay },
    pacing: perMinute === null ? null : { perMinute },
    loopBreaker: maxUnanswered === null ? null : { maxUnanswered },
  };
}

/** One row per policy: what it limits, and its limit or "off". */
export function policiesTable(p: LinePolicies): string {
  const limit = (n: number | null | undefined) => (n == null ? paint('dim', 'off') : String(n));
  return table([
    ['POLICY', 'LIMIT', 'WHAT IT COUNTS'],
    ['new-contacts-per-hour', limit(p.newContacts?.perHour), 'first messages to never-contacted addresses, rolling hour'],
    ['new-contacts-per-day', limit(p.newContacts?.perDay), 'the same, rolling day'],
    ['pacing-per-minute', limit(p.pacing?.perMinute), 'messages to one conversation in any 60 seconds'],
    ['loop-breaker', limit(p.loopBreaker?.maxUnanswered), 'messages in a row to a conversation with no reply'],
  ]);
}

/** `policies <account>` shows the account's line policies; `policies set <account> --option N|off ...` changes the named ones. */
export async function policiesCommand(operator: Operator, target: Account, set: boolean, options: Partial<Record<PolicyOption, string>>, out: Out): Promise<void> {
  if (!set) {
    const policies = await operator.getPolicies(target.id);
    out(`Line policies of ${paint('bold', target.name)}\n\n${policiesTable(policies)}`, policies);
    return;
  }
  const changes = Object.fromEntries(POLICY_OPTIONS.filter((o) => options[o] !== undefined).map((o) => [o, policyLimit(o, options[o]!)]));
  const stored = await operator.setPolicies(target.id, mergePolicies(await operator.getPolicies(target.id), changes));
  out(`${paint('green', '✔')} line policies of ${paint('bold', target.name)} set\n\n${policiesTable(stored)}`, stored);
}
