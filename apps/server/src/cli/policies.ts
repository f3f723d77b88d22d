import { paint, table, UsageError } from './format.ts';
import type { Account, LinePolicies, Operator, PolicyUsage } from './operator.ts';

type Out = (human: string, json: unknown) => void;

/** The options of `policies set` that take a limit, each a whole number or "off". */
export const POLICY_OPTIONS = ['new-contacts-per-hour', 'new-contacts-per-day', 'pacing-per-minute', 'loop-breaker'] as const;
export type PolicyOption = (typeof POLICY_OPTIONS)[number];

/** The options of `policies set` for the hold policies. */
export const HOLD_OPTIONS = ['quiet-hours', 'time-zone', 'conversation-time-zone', 'first-contact-approval'] as const;
export type HoldOption = (typeof HOLD_OPTIONS)[number];

/** What `policies set` was told to change, each by its option; an option left out keeps what is set. */
export type PolicyChanges = Partial<Record<PolicyOption, number | null>> & {
  /** The window, or null for off. */
  'quiet-hours'?: { from: string; until: string } | null;
  'time-zone'?: string;
  /** A conversation's own time zone, or null to remove it (it then uses the account's). */
  'conversation-time-zone'?: Record<string, string | null>;
  'first-contact-approval'?: boolean;
};

/** The options as the command line gave them (the conversation time zones repeatable). */
export type PolicyArguments = Partial<Record<PolicyOption | 'quiet-hours' | 'time-zone' | 'first-contact-approval', string>> & { 'conversation-time-zone'?: string[] };

/** An option's value: "off" is null, else a whole number of at least 1 (the server checks the maximum). */
export function policyLimit(option: PolicyOption, value: string): number | null {
  if (value === 'off') return null;
  if (!/^[1-9]\d{0,8}$/.test(value)) throw new UsageError(`--${option} takes a whole number of at least 1, or "off" (not "${value}")`);
  return Number(value);
}

const CLOCK = '([01]\\d|2[0-3]):[0-5]\\d';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `--quiet-hours`: "HH:MM-HH:MM" (24-hour local times; the window may cross midnight), or "off". */
export function quietWindow(value: string): { from: string; until: string } | null {
  if (value === 'off') return null;
  const found = new RegExp(`^(${CLOCK})-(${CLOCK})$`).exec(value);
  if (!found) throw new UsageError(`--quiet-hours takes a window from-until in 24-hour local time, such as 21:00-08:00, or "off" (not "${value}")`);
  return { from: found[1]!, until: found[3]! };
}

/** `--conversation-time-zone`: "<conversationId>=<zone>", or "<conversationId>=off" to remove it. */
export function conversationZone(value: string): [string, string | null] {
  const at = value.indexOf('=');
  const id = value.slice(0, at);
  const zone = value.slice(at + 1);
  if (at < 0 || !UUID.test(id) || zone === '') {
    throw new UsageError(`--conversation-time-zone takes <conversationId>=<time zone> (such as America/New_York), or <conversationId>=off (not "${value}")`);
  }
  return [id.toLowerCase(), zone === 'off' ? null : zone];
}

/** `--first-contact-approval`: on or off. */
export function onOff(option: string, value: string): boolean {
  if (value !== 'on' && value !== 'off') throw new UsageError(`--${option} takes on or off (not "${value}")`);
  return value === 'on';
}

/** The command line's options as changes; a value that does not fit is a UsageError (exit 2). */
export function policyChanges(args: PolicyArguments): PolicyChanges {
  const changes: PolicyChanges = {};
  for (const option of POLICY_OPTIONS) if (args[option] !== undefined) changes[option] = policyLimit(option, args[option]);
  if (args['quiet-hours'] !== undefined) changes['quiet-hours'] = quietWindow(args['quiet-hours']);
  if (args['time-zone'] !== undefined) {
    if (args['time-zone'].trim() === '') throw new UsageError('--time-zone takes a time zone name, such as Europe/Paris');
    changes['time-zone'] = args['time-zone'];
  }
  if (args['conversation-time-zone']?.length) changes['conversation-time-zone'] = Object.fromEntries(args['conversation-time-zone'].map(conversationZone));
  if (args['first-contact-approval'] !== undefined) changes['first-contact-approval'] = onOff('first-contact-approval', args['first-contact-approval']);
  return changes;
}

/**
 * The current set with the named options changed and every other policy kept: the admin API
 * replaces the whole set, so `set` reads, merges and puts. Quiet hours turned on the first time
 * need a time zone; the time zones need quiet hours on (a UsageError otherwise).
 */
export function mergePolicies(current: LinePolicies, changes: PolicyChanges): LinePolicies {
  const has = (option: keyof PolicyChanges) => option in changes;
  const perHour = has('new-contacts-per-hour') ? changes['new-contacts-per-hour']! : current.newContacts?.perHour ?? null;
  const perDay = has('new-contacts-per-day') ? changes['new-contacts-per-day']! : current.newContacts?.perDay ?? null;
  const perMinute = has('pacing-per-minute') ? changes['pacing-per-minute']! : current.pacing?.perMinute ?? null;
  const maxUnanswered = has('loop-breaker') ? changes['loop-breaker']! : current.loopBreaker?.maxUnanswered ?? null;
  return {
    newContacts: perHour === null && perDay === null ? null : { perHour, perDay },
    pacing: perMinute === null ? null : { perMinute },
    loopBreaker: maxUnanswered === null ? null : { maxUnanswered },
    quietHours: mergeQuietHours(current.quietHours ?? null, changes),
    firstContactApproval: has('first-contact-approval') ? changes['first-contact-approval']! : current.firstContactApproval === true,
  };
}

function mergeQuietHours(current: NonNullable<LinePolicies['quietHours']> | null, changes: PolicyChanges): LinePolicies['quietHours'] {
  const zones = changes['conversation-time-zone'];
  const window = 'quiet-hours' in changes ? changes['quiet-hours']! : current && { from: current.from, until: current.until };
  if (window === null) {
    if (changes['time-zone'] !== undefined || zones) {
      throw new UsageError(`--time-zone and --conversation-time-zone need quiet hours on: ${'quiet-hours' in changes ? 'not with --quiet-hours off' : 'turn them on with --quiet-hours from-until'}`);
    }
    return null;
  }
  const timeZone = changes['time-zone'] ?? current?.timeZone;
  if (timeZone === undefined) throw new UsageError('--quiet-hours needs --time-zone the first time: the time zone the window is in (an IANA name such as Europe/Paris)');
  const conversationTimeZones: Record<string, string> = { ...current?.conversationTimeZones };
  for (const [id, zone] of Object.entries(zones ?? {})) {
    if (zone === null) delete conversationTimeZones[id];
    else conversationTimeZones[id] = zone;
  }
  return { ...window, timeZone, conversationTimeZones };
}

/** One row per policy: what it limits or holds, and its setting or "off". */
export function policiesTable(p: LinePolicies): string {
  const off = paint('dim', 'off');
  const limit = (n: number | null | undefined) => (n == null ? off : String(n));
  const q = p.quietHours;
  const zones = Object.entries(q?.conversationTimeZones ?? {});
  const rows = table([
    ['POLICY', 'LIMIT', 'WHAT IT COUNTS OR HOLDS'],
    ['new-contacts-per-hour', limit(p.newContacts?.perHour), 'first messages to never-contacted addresses, rolling hour'],
    ['new-contacts-per-day', limit(p.newContacts?.perDay), 'the same, rolling day'],
    ['pacing-per-minute', limit(p.pacing?.perMinute), 'messages to one conversation in any 60 seconds'],
    ['loop-breaker', limit(p.loopBreaker?.maxUnanswered), 'messages in a row to a conversation with no reply'],
    ['quiet-hours', q ? `${q.from}-${q.until} ${q.timeZone}` : off, 'every command waits in this window, then goes out in order'],
    ['first-contact-approval', p.firstContactApproval ? 'on' : off, 'a first message to a never-contacted address waits for an operator'],
  ]);
  if (zones.length === 0) return rows;
  return `${rows}\n\n${paint('bold', 'Conversation time zones')} (quiet hours; the others use ${q!.timeZone})\n${zones.map(([id, zone]) => `  ${id}  ${zone}`).join('\n')}`;
}

/** Where the account stands against its policies now, in a few lines. */
export function usageLines(target: Account, usage: PolicyUsage): string {
  const { newContacts, quietHours, held } = usage;
  const heldTotal = held.quietHours + held.firstContactApproval;
  const lines: Array<[string, string]> = [
    ['new contacts', `${newContacts.lastHour} in the last hour, ${newContacts.lastDay} in the last day`],
    ['quiet hours', quietHours.quiet ? `${paint('yellow', 'quiet now')}, opens at ${quietHours.opensAt}` : 'not quiet now'],
    [
      'held',
      heldTotal === 0 ? 'nothing'
        : `${paint('yellow', String(held.quietHours))} by quiet hours, ${paint('yellow', String(held.firstContactApproval))} by first-contact approval (switchboard held ${target.name})`,
    ],
  ];
  if (usage.conversation) {
    lines.push(['conversation', `${usage.conversation.conversationId}: ${usage.conversation.sendsLastMinute} sends in the last minute, ${usage.conversation.unanswered} in a row with no reply`]);
  }
  return `${paint('bold', 'Now')}\n${lines.map(([what, value]) => `  ${what.padEnd(13)} ${value}`).join('\n')}`;
}

/**
 * `policies <account> [--conversation ID]` shows the account's line policies and what they count
 * now; `policies set <account> --option value ...` changes the named ones.
 */
export async function policiesCommand(operator: Operator, target: Account, set: boolean, changes: PolicyChanges, conversationId: string | undefined, out: Out): Promise<void> {
  if (!set) {
    if (conversationId !== undefined && !UUID.test(conversationId)) throw new UsageError(`--conversation takes a conversation id (not "${conversationId}")`);
    const [policies, usage] = await Promise.all([operator.getPolicies(target.id), operator.policyUsage(target.id, conversationId?.toLowerCase() ?? null)]);
    out(`Line policies of ${paint('bold', target.name)}\n\n${policiesTable(policies)}\n\n${usageLines(target, usage)}`, { ...policies, usage });
    return;
  }
  const stored = await operator.setPolicies(target.id, mergePolicies(await operator.getPolicies(target.id), changes));
  out(`${paint('green', '✔')} line policies of ${paint('bold', target.name)} set\n\n${policiesTable(stored)}`, stored);
}
