import type { CommandType, Target } from '@switchboard/contracts';
import { normaliseAddress } from '@switchboard/addresses';
import type { HoldPolicy, LinePolicies, QuietHours } from '../types.ts';
import type { Row } from './rows.ts';

/** Every policy off: an account without a `line_policies` row. */
export const NO_POLICIES: LinePolicies = Object.freeze({ newContacts: null, pacing: null, loopBreaker: null, quietHours: null, firstContactApproval: false });

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** A `line_policies` row's policies (SQLite keeps JSON text, PostgreSQL jsonb); no row: every policy off. */
export function policiesOf(row: Row | undefined): LinePolicies {
  if (!row) return NO_POLICIES;
  const stored = (typeof row.policies === 'string' ? JSON.parse(row.policies) : row.policies) as Partial<LinePolicies>;
  return {
    newContacts: stored.newContacts ?? null,
    pacing: stored.pacing ?? null,
    loopBreaker: stored.loopBreaker ?? null,
    quietHours: stored.quietHours ? { ...stored.quietHours, conversationTimeZones: stored.quietHours.conversationTimeZones ?? {} } : null,
    firstContactApproval: stored.firstContactApproval === true,
  };
}

/** What a command is, as far as the policies look at it. */
export interface PolicedCommand {
  type: CommandType;
  target: Target;
  conversationId: string | null;
}

/** The addresses a command would be the account's first message to, were they new: a recipient send's, a group's participants. */
export function contactAddresses(command: PolicedCommand): string[] {
  if (command.type === 'message.send' && command.target.kind === 'recipient') return [command.target.recipientExternalId];
  if (command.type === 'group.create' && command.target.kind === 'participants') return [...command.target.participantExternalIds];
  return [];
}

/** A command's contact addresses, normalised as first contacts are kept. */
export function contactKeys(command: PolicedCommand): string[] {
  return [...new Set(contactAddresses(command).map(normalised))];
}

/** The conversation a send is counted against by pacing and the loop breaker; null: neither looks at it. */
function sentConversation(command: PolicedCommand): string | null {
  return command.type === 'message.send' && command.target.kind === 'conversation' ? command.conversationId : null;
}

function newContactsOn(policies: LinePolicies): boolean {
  return policies.newContacts !== null && (policies.newContacts.perHour !== null || policies.newContacts.perDay !== null);
}

/**
 * What the store must read, under the account's lock, to decide `command`; null when no policy
 * applies to it (then intake writes as if there were none: nothing read, nothing locked).
 */
export interface UsageQuery {
  /** The command's addresses to look up (known already, or new), normalised; empty: none. */
  addresses: string[];
  /** First contacts counted at or after this time (ms); null: not needed. */
  firstContactsSince: number | null;
  /** The conversation whose sends to count; null: not needed. */
  conversationId: string | null;
  /** Its `message.send` commands accepted after this time (ms) are wanted; null: not needed. */
  sendsSince: number | null;
  /** Count its sends since its newest inbound message, up to this many (the loop breaker's limit); null: not needed. */
  unansweredUpTo: number | null;
}

export function usageQuery(policies: LinePolicies, command: PolicedCommand, now: number): UsageQuery | null {
  const addresses = newContactsOn(policies) || policies.firstContactApproval ? contactAddresses(command).map(normalised) : [];
  const conversationId = sentConversation(command);
  const pacing = conversationId !== null && policies.pacing !== null;
  const unanswered = conversationId !== null && policies.loopBreaker !== null;
  if (addresses.length === 0 && !pacing && !unanswered) return null;

  return {
    addresses,
    firstContactsSince: addresses.length === 0 || !newContactsOn(policies) ? null : now - (policies.newContacts!.perDay !== null ? DAY_MS : HOUR_MS) + 1,
    conversationId: pacing || unanswered ? conversationId : null,
    sendsSince: pacing ? now - MINUTE_MS + 1 : null,
    unansweredUpTo: unanswered ? policies.loopBreaker!.maxUnanswered : null,
  };
}

/** The policies apply to the command: intake takes the locked path (cheap: no I/O). */
export function policiesApply(policies: LinePolicies, command: PolicedCommand): boolean {
  if (policies === NO_POLICIES) return false;
  // Quiet hours hold every command, and intake releases the account's due holds first.
  if (policies.quietHours !== null) return true;
  if (policies.firstContactApproval && contactAddresses(command).length > 0) return true;
  if (policies.newContacts === null && policies.pacing === null && policies.loopBreaker === null) return false;
  return usageQuery(policies, command, 0) !== null;
}

/** What the store read, under the account's lock, for a `UsageQuery`. */
export interface PolicyUsage {
  /** Every participant of the account's conversations (any form: they are normalised here). */
  participants: readonly string[];
  /** The query's addresses counted as first contacts already (ever), by a command no longer held for approval. */
  counted: readonly string[];
  /** The query's addresses counted by a command first-contact approval still holds: not known yet. */
  awaiting: readonly string[];
  /** When the first contacts since `firstContactsSince` were counted (ms, any order). */
  firstContacts: readonly number[];
  /** When the conversation's `message.send` commands since `sendsSince` were accepted (ms, any order). */
  sends: readonly number[];
  /**
   * The conversation's `message.send` commands accepted at or after its newest inbound message
   * was recorded (all of them when it has none), counted up to `unansweredUpTo`.
   */
  unanswered: number;
}

export type PolicyName = 'newContacts' | 'pacing' | 'loopBreaker';

/** Why a command was refused: its error code, the policy and the limit it reached, and when trying again can help (null: never by waiting). */
export interface PolicyRefusal {
  code: 'new_contact_limit' | 'pacing_limit' | 'loop_breaker';
  policy: PolicyName;
  limit: number;
  /** For a new-contact refusal, the window reached. */
  window: 'hour' | 'day' | 'minute' | null;
  retryAfterMs: number | null;
  /** How many new addresses the command named (a new-contact refusal); 0 otherwise. */
  newAddresses: number;
}

/** A hold the command is accepted under: the policy, and (quiet hours) when the window opens (ms). */
export interface Hold {
  policy: HoldPolicy;
  releasesAt: number | null;
  reason: string;
}

export type PolicyDecision =
  | { proceed: true; firstContacts: string[]; hold: Hold | null }
  | { proceed: false; refusal: PolicyRefusal };

/**
 * Whether `command` may be written under `policies`, given what was read under the account's
 * lock: the loop breaker first (waiting cannot lift it, so a client is never sent to wait and then
 * refused anyway), then pacing, then the new-contact budget, which spends one unit per new address
 * or none. Proceeding names the first contacts to record with the command.
 */
export function decidePolicies(policies: LinePolicies, command: PolicedCommand, usage: PolicyUsage, now: number): PolicyDecision {
  const decision = decideRefusals(policies, command, usage, now);
  if (!decision.proceed) return decision;
  const keys = contactKeys(command);
  const awaiting = usage.awaiting.filter((address) => keys.includes(address));
  if (policies.firstContactApproval && (decision.firstContacts.length > 0 || awaiting.length > 0)) {
    const addresses = [...new Set([...decision.firstContacts, ...awaiting])];
    return { ...decision, hold: approvalHold(addresses) };
  }
  return { ...decision, hold: quietHold(policies, command.conversationId, now) };
}

/** The hold first-contact approval puts on a command naming `addresses` the account never talked to. */
function approvalHold(addresses: readonly string[]): Hold {
  const named = addresses.length === 1 ? addresses[0]! : `${addresses.length} addresses (${addresses.join(', ')})`;
  return { policy: 'firstContactApproval', releasesAt: null, reason: `the account's first message to ${named}: it waits for an operator to release or reject it` };
}

/** The quiet-hours hold on a command to `conversationId` (null: the account's time zone) at `now`; null when it is not quiet. */
export function quietHold(policies: LinePolicies, conversationId: string | null, now: number): Hold | null {
  const q = policies.quietHours;
  if (q === null) return null;
  const zone = zoneOf(q, conversationId);
  const state = quietState(q, zone, now);
  if (!state.quiet) return null;
  return {
    policy: 'quietHours',
    releasesAt: state.opensAt,
    reason: `quiet hours (${q.from} until ${q.until}, ${zone}): it goes out when they end, at ${q.until} ${zone}`,
  };
}

function decideRefusals(policies: LinePolicies, command: PolicedCommand, usage: PolicyUsage, now: number): PolicyDecision {
  const query = usageQuery(policies, command, now);
  if (query === null) return { proceed: true, firstContacts: [], hold: null };

  if (query.unansweredUpTo !== null && usage.unanswered >= policies.loopBreaker!.maxUnanswered) {
    return refuse('loop_breaker', 'loopBreaker', policies.loopBreaker!.maxUnanswered, null, null, 0);
  }
  if (query.sendsSince !== null) {
    const limit = policies.pacing!.perMinute;
    const wait = windowWait(usage.sends, 1, limit, MINUTE_MS, now);
    if (wait !== null) return refuse('pacing_limit', 'pacing', limit, 'minute', wait, 0);
  }
  if (query.addresses.length === 0) return { proceed: true, firstContacts: [], hold: null };

  const known = new Set([...usage.counted, ...usage.awaiting]);
  for (const participant of usage.participants) known.add(normalised(participant));
  const fresh = [...new Set(query.addresses)].filter((address) => !known.has(address));
  if (fresh.length === 0 || !newContactsOn(policies)) return { proceed: true, firstContacts: fresh, hold: null };
  const { perHour, perDay } = policies.newContacts!;
  const waits: Array<{ window: 'hour' | 'day'; limit: number; wait: number }> = [];
  if (perHour !== null) {
    const wait = windowWait(usage.firstContacts, fresh.length, perHour, HOUR_MS, now);
    if (wait !== null) waits.push({ window: 'hour', limit: perHour, wait });
  }
  if (perDay !== null) {
    const wait = windowWait(usage.firstContacts, fresh.length, perDay, DAY_MS, now);
    if (wait !== null) waits.push({ window: 'day', limit: perDay, wait });
  }
  if (waits.length === 0) return { proceed: true, firstContacts: fresh, hold: null };
  // A window whose limit the command alone exceeds answers (no wait lets it through); otherwise,
  // with both exhausted, the later one is when trying again can succeed.
  const binding = waits.find((w) => fresh.length > w.limit) ?? waits.reduce((a, b) => (b.wait > a.wait ? b : a));
  return refuse('new_contact_limit', 'newContacts', binding.limit, binding.window, binding.wait, fresh.length);
}

/**
 * Null when `spend` more fit in the window ending now beside the counted `times`; otherwise how
 * long until enough counted ones leave it (each leaves `windowMs` after it was counted). A spend
 * larger than the limit never fits: the wait is until the window is empty (or a whole window).
 */
export function windowWait(times: readonly number[], spend: number, limit: number, windowMs: number, now: number): number | null {
  const inWindow = times.filter((t) => t > now - windowMs).sort((a, b) => a - b);
  const over = inWindow.length + spend - limit;
  if (over <= 0) return null;
  if (spend > limit) return inWindow.length === 0 ? windowMs : inWindow[inWindow.length - 1]! + windowMs - now;
  return inWindow[over - 1]! + windowMs - now;
}

function refuse(code: PolicyRefusal['code'], policy: PolicyName, limit: number, window: PolicyRefusal['window'], retryAfterMs: number | null, newAddresses: number): PolicyDecision {
  return { proceed: false, refusal: { code, policy, limit, window, retryAfterMs, newAddresses } };
}

/** An address as the envelope check normalises it; one that does not parse is compared as it is. */
function normalised(address: string): string {
  const result = normaliseAddress(address);
  return result.ok ? result.address : address;
}

/** The time zone quiet hours use for a command to `conversationId` (null: the account's). */
export function zoneOf(q: QuietHours, conversationId: string | null): string {
  return (conversationId !== null ? q.conversationTimeZones[conversationId] : undefined) ?? q.timeZone;
}

const clocks = new Map<string, Intl.DateTimeFormat>();

/** Minutes since local midnight in `zone` at `at` (ms). */
function localMinutes(zone: string, at: number): number {
  let clock = clocks.get(zone);
  if (!clock) {
    clock = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    clocks.set(zone, clock);
  }
  const parts = clock.formatToParts(at);
  const part = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return part('hour') * 60 + part('minute');
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** A name `Intl` knows as a time zone. */
export function isTimeZone(zone: string): boolean {
  try {
    localMinutes(zone, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether `at` falls in the quiet window in `zone` (from `from`, inclusive, until `until`,
 * exclusive; across midnight when `from` is later than `until`), and if so when it ends (ms, at
 * the first minute whose local time is `until`, daylight-saving changes included).
 */
export function quietState(q: Pick<QuietHours, 'from' | 'until'>, zone: string, at: number): { quiet: boolean; opensAt: number | null } {
  const from = minutesOf(q.from);
  const until = minutesOf(q.until);
  const now = localMinutes(zone, at);
  const quiet = from < until ? now >= from && now < until : now >= from || now < until;
  if (!quiet) return { quiet: false, opensAt: null };
  // Step to the next minute boundary, then forward by the local distance; a daylight-saving
  // change on the way moves the local clock, so correct until the local time reads `until`.
  let opensAt = at - (at % MINUTE_MS) + MINUTE_MS + ((until - now - 1 + 1440) % 1440) * MINUTE_MS;
  for (let i = 0; i < 3; i++) {
    const off = (until - localMinutes(zone, opensAt) + 1440) % 1440;
    if (off === 0) break;
    opensAt += (off > 720 ? off - 1440 : off) * MINUTE_MS;
  }
  return { quiet: true, opensAt };
}

/** A quiet-hours hold the store found, as the release rule needs it. */
export interface HeldCommand {
  id: string;
  conversationId: string | null;
  heldBy: HoldPolicy;
}

/**
 * Which of the account's held commands quiet hours let go at `now`, in the order given (the
 * order they were accepted), and why: the policy is off (`policy_change`) or its window ended for
 * the command's time zone (`window`). First-contact holds are left to an operator.
 */
export function dueReleases(policies: LinePolicies, held: readonly HeldCommand[], now: number): Array<{ id: string; by: 'window' | 'policy_change' }> {
  const due: Array<{ id: string; by: 'window' | 'policy_change' }> = [];
  for (const command of held) {
    if (command.heldBy !== 'quietHours') continue;
    if (policies.quietHours === null) due.push({ id: command.id, by: 'policy_change' });
    else if (quietHold(policies, command.conversationId, now) === null) due.push({ id: command.id, by: 'window' });
  }
  return due;
}

/** Which command.held and command.released events a store appends (specs/asyncapi/stream.yaml). */
export function heldEvent(command: { id: string; type: CommandType; conversationId: string | null }, hold: Hold, at: number) {
  return {
    type: 'command.held',
    time: at,
    data: {
      commandId: command.id,
      commandType: command.type,
      policy: hold.policy,
      conversationId: command.conversationId,
      releasesAt: hold.releasesAt === null ? null : new Date(hold.releasesAt).toISOString(),
      reason: hold.reason,
    },
  };
}

export function releasedEvent(command: { id: string; type: CommandType }, policy: HoldPolicy, by: 'window' | 'policy_change' | 'operator', at: number) {
  return { type: 'command.released', time: at, data: { commandId: command.id, commandType: command.type, policy, by } };
}

/**
 * An operator's release of a command `heldBy` holds: first-contact approval during quiet hours
 * moves it to a quiet-hours hold; anything else releases it.
 */
export function operatorRelease(policies: LinePolicies, command: { heldBy: HoldPolicy; conversationId: string | null }, now: number): Hold | null {
  return command.heldBy === 'firstContactApproval' ? quietHold(policies, command.conversationId, now) : null;
}

/** The settlement code of a rejected hold. */
export function rejectionCode(heldBy: HoldPolicy): 'first_contact_rejected' | 'quiet_hours_rejected' {
  return heldBy === 'firstContactApproval' ? 'first_contact_rejected' : 'quiet_hours_rejected';
}
