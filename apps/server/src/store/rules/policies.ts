import type { CommandType, Target } from '@switchboard/contracts';
import { normaliseAddress } from '@switchboard/addresses';
import type { LinePolicies } from '../types.ts';
import type { Row } from './rows.ts';

/** Every policy off: an account without a `line_policies` row. */
export const NO_POLICIES: LinePolicies = Object.freeze({ newContacts: null, pacing: null, loopBreaker: null });

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** A `line_policies` row's policies (SQLite keeps JSON text, PostgreSQL jsonb); no row: every policy off. */
export function policiesOf(row: Row | undefined): LinePolicies {
  if (!row) return NO_POLICIES;
  const stored = (typeof row.policies === 'string' ? JSON.parse(row.policies) : row.policies) as Partial<LinePolicies>;
  return { newContacts: stored.newContacts ?? null, pacing: stored.pacing ?? null, loopBreaker: stored.loopBreaker ?? null };
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
  const addresses = newContactsOn(policies) ? contactAddresses(command).map(normalised) : [];
  const conversationId = sentConversation(command);
  const pacing = conversationId !== null && policies.pacing !== null;
  const unanswered = conversationId !== null && policies.loopBreaker !== null;
  if (addresses.length === 0 && !pacing && !unanswered) return null;

  return {
    addresses,
    firstContactsSince: addresses.length === 0 ? null : now - (policies.newContacts!.perDay !== null ? DAY_MS : HOUR_MS) + 1,
    conversationId: pacing || unanswered ? conversationId : null,
    sendsSince: pacing ? now - MINUTE_MS + 1 : null,
    unansweredUpTo: unanswered ? policies.loopBreaker!.maxUnanswered : null,
  };
}

/** The policies apply to the command: intake takes the locked path (cheap: no I/O). */
export function policiesApply(policies: LinePolicies, command: PolicedCommand): boolean {
  if (policies === NO_POLICIES || (policies.newContacts === null && policies.pacing === null && policies.loopBreaker === null)) return false;
  return usageQuery(policies, command, 0) !== null;
}

/** What the store read, under the account's lock, for a `UsageQuery`. */
export interface PolicyUsage {
  /** Every participant of the account's conversations (any form: they are normalised here). */
  participants: readonly string[];
  /** The query's addresses counted as first contacts already (ever). */
  counted: readonly string[];
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

export type PolicyDecision =
  | { proceed: true; firstContacts: string[] }
  | { proceed: false; refusal: PolicyRefusal };

/**
 * Whether `command` may be written under `policies`, given what was read under the account's
 * lock: the loop breaker first (waiting cannot lift it, so a client is never sent to wait and then
 * refused anyway), then pacing, then the new-contact budget, which spends one unit per new address
 * or none. Proceeding names the first contacts to record with the command.
 */
export function decidePolicies(policies: LinePolicies, command: PolicedCommand, usage: PolicyUsage, now: number): PolicyDecision {
  const query = usageQuery(policies, command, now);
  if (query === null) return { proceed: true, firstContacts: [] };

  if (query.unansweredUpTo !== null && usage.unanswered >= policies.loopBreaker!.maxUnanswered) {
    return refuse('loop_breaker', 'loopBreaker', policies.loopBreaker!.maxUnanswered, null, null, 0);
  }
  if (query.sendsSince !== null) {
    const limit = policies.pacing!.perMinute;
    const wait = windowWait(usage.sends, 1, limit, MINUTE_MS, now);
    if (wait !== null) return refuse('pacing_limit', 'pacing', limit, 'minute', wait, 0);
  }
  if (query.addresses.length === 0) return { proceed: true, firstContacts: [] };

  const known = new Set(usage.counted);
  for (const participant of usage.participants) known.add(normalised(participant));
  const fresh = [...new Set(query.addresses)].filter((address) => !known.has(address));
  if (fresh.length === 0) return { proceed: true, firstContacts: [] };
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
  if (waits.length === 0) return { proceed: true, firstContacts: fresh };
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
