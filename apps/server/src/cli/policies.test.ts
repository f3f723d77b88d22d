import { describe, expect, it } from 'vitest';
import { UsageError } from './format.ts';
import { mergePolicies, policyLimit } from './policies.ts';

const all = { newContacts: { perHour: 15, perDay: 50 }, pacing: { perMinute: 10 }, loopBreaker: { maxUnanswered: 8 } };
const off = { newContacts: null, pacing: null, loopBreaker: null };

describe('policies set: a limit on the command line', () => {
  it('is a whole number of at least 1, or off', () => {
    expect(policyLimit('pacing-per-minute', '10')).toBe(10);
    expect(policyLimit('loop-breaker', 'off')).toBeNull();
    for (const bad of ['0', '-1', '2.5', 'ten', '', '01', '1e3', 'OFF']) expect(() => policyLimit('pacing-per-minute', bad), bad).toThrow(UsageError);
  });
});

describe('policies set: only the named policies change', () => {
  it('keeps what was not named', () => {
    expect(mergePolicies(all, { 'pacing-per-minute': 20 })).toEqual({ ...all, pacing: { perMinute: 20 } });
    expect(mergePolicies(off, { 'loop-breaker': 3 })).toEqual({ ...off, loopBreaker: { maxUnanswered: 3 } });
  });

  it('one window of the new-contact budget changes alone; both off turns the budget off', () => {
    expect(mergePolicies(all, { 'new-contacts-per-day': null })).toEqual({ ...all, newContacts: { perHour: 15, perDay: null } });
    expect(mergePolicies(off, { 'new-contacts-per-hour': 5 })).toEqual({ ...off, newContacts: { perHour: 5, perDay: null } });
    expect(mergePolicies(all, { 'new-contacts-per-hour': null, 'new-contacts-per-day': null })).toEqual({ ...all, newContacts: null });
  });

  it('off turns a policy off', () => {
    expect(mergePolicies(all, { 'pacing-per-minute': null, 'loop-breaker': null })).toEqual({ ...all, pacing: null, loopBreaker: null });
  });
});
