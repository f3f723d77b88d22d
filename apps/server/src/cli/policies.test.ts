import { describe, expect, it } from 'vitest';
import { UsageError } from './format.ts';
import { conversationZone, mergePolicies, onOff, policyChanges, policyLimit, quietWindow } from './policies.ts';
import { targetSummary } from './holds.ts';

const all = { newContacts: { perHour: 15, perDay: 50 }, pacing: { perMinute: 10 }, loopBreaker: { maxUnanswered: 8 }, quietHours: null, firstContactApproval: false };
const off = { newContacts: null, pacing: null, loopBreaker: null, quietHours: null, firstContactApproval: false };
const conversation = '0190a5c2-7d1e-7c3a-9f00-5b1d2e3f4a5b';
const other = '0190a5c2-7d1e-7c3a-9f00-5b1d2e3f4a5c';
const quiet = { from: '21:00', until: '08:00', timeZone: 'Europe/Paris', conversationTimeZones: { [conversation]: 'America/New_York' } };

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

describe('policies set: the hold policies on the command line', () => {
  it('--quiet-hours is a from-until window in 24-hour time, or off', () => {
    expect(quietWindow('21:00-08:00')).toEqual({ from: '21:00', until: '08:00' });
    expect(quietWindow('00:00-23:59')).toEqual({ from: '00:00', until: '23:59' });
    expect(quietWindow('off')).toBeNull();
    for (const bad of ['21-8', '9:00-17:00', '24:00-08:00', '21:00', '21:00-08:60', '21:00 - 08:00', 'OFF', '']) expect(() => quietWindow(bad), bad).toThrow(UsageError);
  });

  it('--conversation-time-zone is <conversationId>=<zone>, or =off; the id is lowercased', () => {
    expect(conversationZone(`${conversation.toUpperCase()}=America/New_York`)).toEqual([conversation, 'America/New_York']);
    expect(conversationZone(`${conversation}=off`)).toEqual([conversation, null]);
    for (const bad of ['America/New_York', `${conversation}=`, 'not-an-id=UTC', `=${conversation}`]) expect(() => conversationZone(bad), bad).toThrow(UsageError);
  });

  it('--first-contact-approval is on or off', () => {
    expect(onOff('first-contact-approval', 'on')).toBe(true);
    expect(onOff('first-contact-approval', 'off')).toBe(false);
    for (const bad of ['yes', 'true', 'ON', '1']) expect(() => onOff('first-contact-approval', bad), bad).toThrow(UsageError);
  });

  it('the command line\'s options become the changes, every value checked', () => {
    expect(policyChanges({ 'quiet-hours': '22:30-07:00', 'time-zone': 'UTC', 'conversation-time-zone': [`${conversation}=Asia/Tokyo`, `${other}=off`], 'first-contact-approval': 'on', 'loop-breaker': 'off' })).toEqual({
      'quiet-hours': { from: '22:30', until: '07:00' }, 'time-zone': 'UTC', 'conversation-time-zone': { [conversation]: 'Asia/Tokyo', [other]: null }, 'first-contact-approval': true, 'loop-breaker': null,
    });
    expect(policyChanges({})).toEqual({});
    expect(() => policyChanges({ 'time-zone': ' ' })).toThrow(UsageError);
  });
});

describe('policies set: the hold policies merge as the limits do', () => {
  it('a limit changed keeps quiet hours and first-contact approval as they are', () => {
    const held = { ...all, quietHours: quiet, firstContactApproval: true };
    expect(mergePolicies(held, { 'pacing-per-minute': 20 })).toEqual({ ...held, pacing: { perMinute: 20 } });
  });

  it('quiet hours turned on the first time need a time zone; then the window or the zone changes alone', () => {
    expect(() => mergePolicies(off, { 'quiet-hours': { from: '21:00', until: '08:00' } })).toThrow(/needs --time-zone/);
    const on = mergePolicies(off, { 'quiet-hours': { from: '21:00', until: '08:00' }, 'time-zone': 'Europe/Paris' });
    expect(on).toEqual({ ...off, quietHours: { from: '21:00', until: '08:00', timeZone: 'Europe/Paris', conversationTimeZones: {} } });
    expect(mergePolicies(on, { 'quiet-hours': { from: '22:00', until: '07:00' } }).quietHours).toEqual({ from: '22:00', until: '07:00', timeZone: 'Europe/Paris', conversationTimeZones: {} });
    expect(mergePolicies(on, { 'time-zone': 'UTC' }).quietHours).toEqual({ from: '21:00', until: '08:00', timeZone: 'UTC', conversationTimeZones: {} });
  });

  it('a conversation\'s time zone is added, changed or removed, the others kept', () => {
    const current = { ...off, quietHours: quiet };
    expect(mergePolicies(current, { 'conversation-time-zone': { [other]: 'Asia/Tokyo' } }).quietHours?.conversationTimeZones).toEqual({ [conversation]: 'America/New_York', [other]: 'Asia/Tokyo' });
    expect(mergePolicies(current, { 'conversation-time-zone': { [conversation]: 'UTC' } }).quietHours?.conversationTimeZones).toEqual({ [conversation]: 'UTC' });
    expect(mergePolicies(current, { 'conversation-time-zone': { [conversation]: null } }).quietHours?.conversationTimeZones).toEqual({});
  });

  it('quiet hours off turns them off; a time zone without quiet hours is refused', () => {
    expect(mergePolicies({ ...off, quietHours: quiet }, { 'quiet-hours': null })).toEqual(off);
    expect(() => mergePolicies(off, { 'time-zone': 'UTC' })).toThrow(/need quiet hours on/);
    expect(() => mergePolicies({ ...off, quietHours: quiet }, { 'quiet-hours': null, 'conversation-time-zone': { [other]: 'UTC' } })).toThrow(/not with --quiet-hours off/);
  });

  it('first-contact approval turns on and off alone', () => {
    expect(mergePolicies(all, { 'first-contact-approval': true })).toEqual({ ...all, firstContactApproval: true });
    expect(mergePolicies({ ...all, firstContactApproval: true }, { 'first-contact-approval': false })).toEqual(all);
  });
});

describe('held: whom a command is for, in a few words', () => {
  it('the conversation, the recipient, or a new group\'s first participants', () => {
    expect(targetSummary({ kind: 'conversation', conversationId: conversation })).toBe(`conversation ${conversation}`);
    expect(targetSummary({ kind: 'recipient', recipientExternalId: '+14155550123' })).toBe('to +14155550123');
    expect(targetSummary({ kind: 'participants', participantExternalIds: ['a@example.com', 'b@example.com'] })).toBe('new group with a@example.com, b@example.com');
    expect(targetSummary({ kind: 'participants', participantExternalIds: ['a', 'b', 'c', 'd', 'e'] })).toBe('new group with a, b, c and 2 more');
  });
});
