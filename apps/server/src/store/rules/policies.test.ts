import { describe, expect, it } from 'vitest';
import type { LinePolicies } from '../types.ts';
import {
  DAY_MS, HOUR_MS, MINUTE_MS, NO_POLICIES, contactAddresses, decidePolicies, dueReleases, isTimeZone, operatorRelease, policiesApply, policiesOf,
  quietHold, quietState, rejectionCode, usageQuery, windowWait, type PolicedCommand, type PolicyUsage,
} from './policies.ts';

const NOW = 10 * DAY_MS;
const CONVERSATION = '0190a000-0000-7000-8000-000000000001';
const send: PolicedCommand = { type: 'message.send', target: { kind: 'conversation', conversationId: CONVERSATION }, conversationId: CONVERSATION };
const toRecipient = (address: string): PolicedCommand => ({ type: 'message.send', target: { kind: 'recipient', recipientExternalId: address }, conversationId: null });
const group = (...addresses: string[]): PolicedCommand => ({ type: 'group.create', target: { kind: 'participants', participantExternalIds: addresses }, conversationId: null });
const policies = (p: Partial<LinePolicies>): LinePolicies => ({ ...NO_POLICIES, ...p });
const usage = (u: Partial<PolicyUsage> = {}): PolicyUsage => ({ participants: [], counted: [], awaiting: [], firstContacts: [], sends: [], unanswered: 0, ...u });

describe('policiesOf', () => {
  it('no row: every policy off; JSON text (SQLite) or an object (PostgreSQL) read alike, missing keys off', () => {
    expect(policiesOf(undefined)).toBe(NO_POLICIES);
    const set = { newContacts: { perHour: 1, perDay: null }, pacing: null, loopBreaker: { maxUnanswered: 2 } };
    expect(policiesOf({ policies: JSON.stringify(set) })).toEqual(policies(set));
    expect(policiesOf({ policies: set })).toEqual(policies(set));
    expect(policiesOf({ policies: { pacing: { perMinute: 3 } } })).toEqual(policies({ pacing: { perMinute: 3 } }));
  });
});

describe('contactAddresses', () => {
  it('a recipient send names its recipient, a group.create its participants, anything else none', () => {
    expect(contactAddresses(toRecipient('+14155550100'))).toEqual(['+14155550100']);
    expect(contactAddresses(group('+14155550100', 'a@example.com'))).toEqual(['+14155550100', 'a@example.com']);
    expect(contactAddresses(send)).toEqual([]);
    expect(contactAddresses({ type: 'group.update', target: { kind: 'conversation', conversationId: CONVERSATION }, conversationId: CONVERSATION })).toEqual([]);
  });
});

describe('policiesApply and usageQuery', () => {
  it('no policies: nothing applies, nothing to read', () => {
    expect(policiesApply(NO_POLICIES, send)).toBe(false);
    expect(policiesApply({ ...NO_POLICIES }, toRecipient('+14155550100'))).toBe(false);
    expect(usageQuery(NO_POLICIES, send, NOW)).toBeNull();
  });

  it('the new-contact budget applies to recipient sends and group.create, not to a conversation send; both limits null is off', () => {
    const budget = policies({ newContacts: { perHour: 2, perDay: null } });
    expect(policiesApply(budget, toRecipient('+14155550100'))).toBe(true);
    expect(policiesApply(budget, group('+14155550100'))).toBe(true);
    expect(policiesApply(budget, send)).toBe(false);
    expect(policiesApply(policies({ newContacts: { perHour: null, perDay: null } }), toRecipient('+14155550100'))).toBe(false);
  });

  it('pacing and the loop breaker apply to a conversation send only', () => {
    for (const p of [policies({ pacing: { perMinute: 1 } }), policies({ loopBreaker: { maxUnanswered: 1 } })]) {
      expect(policiesApply(p, send)).toBe(true);
      expect(policiesApply(p, toRecipient('+14155550100'))).toBe(false);
      expect(policiesApply(p, { type: 'reaction.tapback', target: send.target, conversationId: CONVERSATION })).toBe(false);
    }
  });

  it('reads only what the policies need: a day of first contacts when perDay is set, else an hour; a minute of sends; the unanswered count up to the limit', () => {
    expect(usageQuery(policies({ newContacts: { perHour: 2, perDay: 5 } }), toRecipient('+1 415 555 0100'), NOW)).toEqual({
      addresses: ['+14155550100'], firstContactsSince: NOW - DAY_MS + 1, conversationId: null, sendsSince: null, unansweredUpTo: null,
    });
    expect(usageQuery(policies({ newContacts: { perHour: 2, perDay: null } }), toRecipient('+14155550100'), NOW)!.firstContactsSince).toBe(NOW - HOUR_MS + 1);
    expect(usageQuery(policies({ pacing: { perMinute: 3 } }), send, NOW)).toEqual({
      addresses: [], firstContactsSince: null, conversationId: CONVERSATION, sendsSince: NOW - MINUTE_MS + 1, unansweredUpTo: null,
    });
    expect(usageQuery(policies({ loopBreaker: { maxUnanswered: 4 } }), send, NOW)).toEqual({
      addresses: [], firstContactsSince: null, conversationId: CONVERSATION, sendsSince: null, unansweredUpTo: 4,
    });
  });
});

describe('windowWait', () => {
  it('null while the spend fits beside what the window counts; counted times outside the window are ignored', () => {
    expect(windowWait([], 1, 1, MINUTE_MS, NOW)).toBeNull();
    expect(windowWait([NOW - MINUTE_MS], 1, 1, MINUTE_MS, NOW)).toBeNull();
    expect(windowWait([NOW - 10], 1, 2, MINUTE_MS, NOW)).toBeNull();
  });

  it('full: until the oldest counted leaves; a spend of k: until k leave', () => {
    expect(windowWait([NOW - 10, NOW - 40_000], 1, 2, MINUTE_MS, NOW)).toBe(20_000);
    expect(windowWait([NOW - 10, NOW - 40_000, NOW - 50_000], 2, 3, MINUTE_MS, NOW)).toBe(20_000);
  });

  it('a spend over the limit never fits: until the window is empty, or a whole window', () => {
    expect(windowWait([NOW - 50_000, NOW - 10_000], 3, 2, MINUTE_MS, NOW)).toBe(50_000);
    expect(windowWait([], 3, 2, MINUTE_MS, NOW)).toBe(MINUTE_MS);
  });
});

describe('decidePolicies', () => {
  it('a command no policy applies to proceeds, recording nothing', () => {
    expect(decidePolicies(NO_POLICIES, send, usage(), NOW)).toEqual({ proceed: true, firstContacts: [], hold: null });
  });

  describe('new-contact budget', () => {
    const perHour = policies({ newContacts: { perHour: 2, perDay: null } });

    it('a new address proceeds and is recorded, normalised, while the hour has room', () => {
      expect(decidePolicies(perHour, toRecipient('+1 (415) 555-0100'), usage({ firstContacts: [NOW - 1] }), NOW))
        .toEqual({ proceed: true, firstContacts: ['+14155550100'], hold: null });
    });

    it('at the limit: 429 new_contact_limit, retry when the oldest counted leaves the hour', () => {
      expect(decidePolicies(perHour, toRecipient('+14155550100'), usage({ firstContacts: [NOW - 1_000, NOW - 600_000] }), NOW)).toEqual({
        proceed: false,
        refusal: { code: 'new_contact_limit', policy: 'newContacts', limit: 2, window: 'hour', retryAfterMs: HOUR_MS - 600_000, newAddresses: 1 },
      });
    });

    it('a known address (a participant in any form, or counted before) spends nothing, even with the budget spent', () => {
      const spent = usage({ firstContacts: [NOW - 1, NOW - 2] });
      expect(decidePolicies(perHour, toRecipient('+14155550100'), { ...spent, participants: ['+1 415-555-0100'] }, NOW)).toEqual({ proceed: true, firstContacts: [], hold: null });
      expect(decidePolicies(perHour, toRecipient('+14155550100'), { ...spent, counted: ['+14155550100'] }, NOW)).toEqual({ proceed: true, firstContacts: [], hold: null });
      // A participant that is not an address is compared as it is.
      expect(decidePolicies(perHour, toRecipient('a@example.com'), { ...spent, participants: ['not an address'] }, NOW).proceed).toBe(false);
    });

    it('a group spends one unit per new address, all or nothing', () => {
      const oneLeft = usage({ firstContacts: [NOW - 5_000], participants: ['+14155550101'] });
      expect(decidePolicies(perHour, group('+14155550100', '+14155550101'), oneLeft, NOW)).toEqual({ proceed: true, firstContacts: ['+14155550100'], hold: null });
      const refused = decidePolicies(perHour, group('+14155550100', '+14155550102'), oneLeft, NOW);
      expect(refused).toEqual({
        proceed: false,
        refusal: { code: 'new_contact_limit', policy: 'newContacts', limit: 2, window: 'hour', retryAfterMs: HOUR_MS - 5_000, newAddresses: 2 },
      });
    });

    it('the day counts too; with both exhausted the later window answers', () => {
      const both = policies({ newContacts: { perHour: 1, perDay: 2 } });
      const day = usage({ firstContacts: [NOW - 2 * HOUR_MS, NOW - 3 * HOUR_MS] });
      expect(decidePolicies(both, toRecipient('+14155550100'), day, NOW)).toEqual({
        proceed: false,
        refusal: { code: 'new_contact_limit', policy: 'newContacts', limit: 2, window: 'day', retryAfterMs: DAY_MS - 3 * HOUR_MS, newAddresses: 1 },
      });
      const hourOnly = usage({ firstContacts: [NOW - 60_000] });
      expect(decidePolicies(both, toRecipient('+14155550100'), hourOnly, NOW)).toEqual({
        proceed: false,
        refusal: { code: 'new_contact_limit', policy: 'newContacts', limit: 1, window: 'hour', retryAfterMs: HOUR_MS - 60_000, newAddresses: 1 },
      });
      // Two new addresses can never fit an hour of one: that window answers, not the later day.
      expect(decidePolicies(both, group('+14155550100', '+14155550101'), usage({ firstContacts: [NOW - 2 * HOUR_MS] }), NOW)).toEqual({
        proceed: false,
        refusal: { code: 'new_contact_limit', policy: 'newContacts', limit: 1, window: 'hour', retryAfterMs: HOUR_MS, newAddresses: 2 },
      });
      const perDayOnly = policies({ newContacts: { perHour: null, perDay: 1 } });
      expect(decidePolicies(perDayOnly, toRecipient('+14155550100'), usage({ firstContacts: [NOW - 2 * HOUR_MS] }), NOW).proceed).toBe(false);
      expect(decidePolicies(perDayOnly, toRecipient('+14155550100'), usage({ firstContacts: [NOW - DAY_MS] }), NOW).proceed).toBe(true);
    });
  });

  describe('pacing', () => {
    const pacing = policies({ pacing: { perMinute: 2 } });

    it('below the limit proceeds; at it, 429 pacing_limit until the oldest send leaves the minute', () => {
      expect(decidePolicies(pacing, send, usage({ sends: [NOW - 1] }), NOW)).toEqual({ proceed: true, firstContacts: [], hold: null });
      expect(decidePolicies(pacing, send, usage({ sends: [NOW - 1, NOW - 45_000] }), NOW)).toEqual({
        proceed: false,
        refusal: { code: 'pacing_limit', policy: 'pacing', limit: 2, window: 'minute', retryAfterMs: 15_000, newAddresses: 0 },
      });
      expect(decidePolicies(pacing, send, usage({ sends: [NOW - 1, NOW - MINUTE_MS] }), NOW).proceed).toBe(true);
    });
  });

  describe('loop breaker', () => {
    const breaker = policies({ loopBreaker: { maxUnanswered: 3 } });

    it('below the limit proceeds; at it, 409 loop_breaker with no time to wait', () => {
      expect(decidePolicies(breaker, send, usage({ unanswered: 2 }), NOW)).toEqual({ proceed: true, firstContacts: [], hold: null });
      expect(decidePolicies(breaker, send, usage({ unanswered: 3 }), NOW)).toEqual({
        proceed: false,
        refusal: { code: 'loop_breaker', policy: 'loopBreaker', limit: 3, window: null, retryAfterMs: null, newAddresses: 0 },
      });
    });

    it('answers before pacing when both refuse: waiting would not help', () => {
      const both = policies({ loopBreaker: { maxUnanswered: 1 }, pacing: { perMinute: 1 } });
      const refused = decidePolicies(both, send, usage({ unanswered: 1, sends: [NOW - 1] }), NOW);
      expect(!refused.proceed && refused.refusal.code).toBe('loop_breaker');
      const paced = decidePolicies(both, send, usage({ unanswered: 0, sends: [NOW - 1] }), NOW);
      expect(!paced.proceed && paced.refusal.code).toBe('pacing_limit');
    });
  });
});

describe('quiet hours', () => {
  const at = (iso: string) => Date.parse(iso);
  const night = { from: '21:00', until: '08:00' };

  it('a window across midnight is quiet from `from` (inclusive) until `until` (exclusive), and says when it opens', () => {
    expect(quietState(night, 'UTC', at('2026-11-27T20:59:59Z'))).toEqual({ quiet: false, opensAt: null });
    expect(quietState(night, 'UTC', at('2026-11-27T21:00:00Z'))).toEqual({ quiet: true, opensAt: at('2026-11-28T08:00:00Z') });
    expect(quietState(night, 'UTC', at('2026-11-28T07:59:30Z'))).toEqual({ quiet: true, opensAt: at('2026-11-28T08:00:00Z') });
    expect(quietState(night, 'UTC', at('2026-11-28T08:00:00Z')).quiet).toBe(false);
  });

  it('a window within a day', () => {
    const lunch = { from: '12:00', until: '13:30' };
    expect(quietState(lunch, 'UTC', at('2026-11-27T11:59:00Z')).quiet).toBe(false);
    expect(quietState(lunch, 'UTC', at('2026-11-27T12:10:00Z'))).toEqual({ quiet: true, opensAt: at('2026-11-27T13:30:00Z') });
    expect(quietState(lunch, 'UTC', at('2026-11-27T13:30:00Z')).quiet).toBe(false);
  });

  it('reads local time in the time zone, daylight saving included', () => {
    // 21:30 in Paris (UTC+1 in November) is 20:30 UTC.
    expect(quietState(night, 'Europe/Paris', at('2026-11-27T20:30:00Z'))).toEqual({ quiet: true, opensAt: at('2026-11-28T07:00:00Z') });
    expect(quietState(night, 'UTC', at('2026-11-27T20:30:00Z')).quiet).toBe(false);
    // New York springs forward on 2026-03-08: 08:00 local that morning is 12:00 UTC, not 13:00.
    expect(quietState(night, 'America/New_York', at('2026-03-08T06:00:00Z'))).toEqual({ quiet: true, opensAt: at('2026-03-08T12:00:00Z') });
  });

  it('knows time zones', () => {
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });

  const quiet = policies({ quietHours: { ...night, timeZone: 'UTC', conversationTimeZones: { [CONVERSATION]: 'Asia/Tokyo' } } });

  it('holds every command type while quiet, in the conversation\'s own time zone when it has one', () => {
    // 22:00 UTC is 07:00 in Tokyo: quiet for both.
    const late = at('2026-11-27T22:00:00Z');
    expect(policiesApply(quiet, { type: 'reaction.tapback', target: send.target, conversationId: CONVERSATION })).toBe(true);
    expect(decidePolicies(quiet, send, usage(), late)).toMatchObject({ proceed: true, hold: { policy: 'quietHours', releasesAt: at('2026-11-27T23:00:00Z') } });
    expect(decidePolicies(quiet, toRecipient('+14155550100'), usage(), late)).toMatchObject({ proceed: true, hold: { policy: 'quietHours', releasesAt: at('2026-11-28T08:00:00Z') } });
    // 12:00 UTC is 21:00 in Tokyo: the conversation is quiet, a recipient send (UTC) is not.
    expect(quietHold(quiet, CONVERSATION, at('2026-11-27T12:00:00Z'))?.policy).toBe('quietHours');
    expect(quietHold(quiet, null, at('2026-11-27T12:00:00Z'))).toBeNull();
  });

  it('a refusal comes before a hold: a command that would be refused is not held', () => {
    const both = policies({ ...quiet, loopBreaker: { maxUnanswered: 2 } });
    expect(decidePolicies(both, send, usage({ unanswered: 2 }), at('2026-11-27T22:00:00Z'))).toMatchObject({ proceed: false, refusal: { code: 'loop_breaker' } });
  });

  it('due releases: off releases every quiet-hours hold (policy_change), an open window its own, first contacts are left', () => {
    const held = [
      { id: 'a', conversationId: CONVERSATION, heldBy: 'quietHours' as const },
      { id: 'b', conversationId: null, heldBy: 'quietHours' as const },
      { id: 'c', conversationId: null, heldBy: 'firstContactApproval' as const },
    ];
    expect(dueReleases(NO_POLICIES, held, at('2026-11-27T22:00:00Z'))).toEqual([{ id: 'a', by: 'policy_change' }, { id: 'b', by: 'policy_change' }]);
    expect(dueReleases(quiet, held, at('2026-11-27T22:00:00Z'))).toEqual([]);
    // 23:00 UTC is 08:00 in Tokyo: the conversation's window opened, UTC's did not.
    expect(dueReleases(quiet, held, at('2026-11-27T23:00:00Z'))).toEqual([{ id: 'a', by: 'window' }]);
    expect(dueReleases(quiet, held, at('2026-11-28T08:00:00Z'))).toEqual([{ id: 'a', by: 'window' }, { id: 'b', by: 'window' }]);
  });
});

describe('first-contact approval', () => {
  const approval = policies({ firstContactApproval: true });

  it('holds a command naming an address never talked to; a known one goes', () => {
    expect(policiesApply(approval, toRecipient('+14155550100'))).toBe(true);
    expect(policiesApply(approval, send)).toBe(false);
    expect(decidePolicies(approval, toRecipient('+14155550100'), usage(), NOW))
      .toMatchObject({ proceed: true, firstContacts: ['+14155550100'], hold: { policy: 'firstContactApproval', releasesAt: null } });
    expect(decidePolicies(approval, toRecipient('+14155550100'), usage({ counted: ['+14155550100'] }), NOW)).toEqual({ proceed: true, firstContacts: [], hold: null });
    expect(decidePolicies(approval, toRecipient('+14155550100'), usage({ participants: ['+1 (415) 555-0100'] }), NOW)).toEqual({ proceed: true, firstContacts: [], hold: null });
  });

  it('an address awaiting approval is not known: a second command to it is held, and counts nothing more', () => {
    expect(decidePolicies(approval, toRecipient('+14155550100'), usage({ awaiting: ['+14155550100'] }), NOW))
      .toMatchObject({ proceed: true, firstContacts: [], hold: { policy: 'firstContactApproval' } });
  });

  it('with the budget on, the budget refuses first, and a held first contact spends it', () => {
    const both = policies({ firstContactApproval: true, newContacts: { perHour: 1, perDay: null } });
    expect(decidePolicies(both, toRecipient('+14155550100'), usage({ firstContacts: [NOW - 1] }), NOW)).toMatchObject({ proceed: false, refusal: { code: 'new_contact_limit' } });
    expect(decidePolicies(both, toRecipient('+14155550100'), usage(), NOW)).toMatchObject({ proceed: true, firstContacts: ['+14155550100'], hold: { policy: 'firstContactApproval' } });
  });

  it('an approval during quiet hours holds it again by quiet hours; otherwise it goes; rejections name the policy', () => {
    const quietNow = policies({ firstContactApproval: true, quietHours: { from: '00:00', until: '23:59', timeZone: 'UTC', conversationTimeZones: {} } });
    expect(operatorRelease(quietNow, { heldBy: 'firstContactApproval', conversationId: null }, Date.parse('2026-11-27T12:00:00Z'))?.policy).toBe('quietHours');
    expect(operatorRelease(approval, { heldBy: 'firstContactApproval', conversationId: null }, NOW)).toBeNull();
    expect(operatorRelease(quietNow, { heldBy: 'quietHours', conversationId: null }, Date.parse('2026-11-27T12:00:00Z'))).toBeNull();
    expect(rejectionCode('firstContactApproval')).toBe('first_contact_rejected');
    expect(rejectionCode('quietHours')).toBe('quiet_hours_rejected');
  });
});
