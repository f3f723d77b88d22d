import { schemas } from '@switchboard/contracts';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { dispatched, groupTarget, participantsTarget, recipientTarget } from './fixtures.test-support.ts';
import { validate } from './validate.ts';

const invalid = { ok: false, code: 'payload_invalid' };

describe('message.send to a conversation', () => {
  test.each([
    ['plain text omits kind', { text: 'hi' }],
    ['rich_text with subject, effect and reply', { kind: 'rich_text', text: 'hi', subject: 'Re', effect: 'confetti', replyToMessageExternalId: 'M1' }],
    ['rich_text without the optional fields', { kind: 'rich_text', text: 'hi' }],
    ['rich_link', { kind: 'rich_link', url: 'https://example.com/a' }],
    ['fields at their maxLength', { kind: 'rich_text', text: 'hi', replyToMessageExternalId: 'm'.repeat(256) }],
    ['a url of 2,048 characters', { kind: 'rich_link', url: `https://example.com/${'a'.repeat(2048 - 20)}` }],
    ['poll with 2 options', { kind: 'poll', question: 'Lunch?', options: ['yes', 'no'] }],
    ['attachment (settled later as transfer_unavailable)', { kind: 'attachment', transferId: 't1' }],
    ['sticker (settled later as transfer_unavailable)', { kind: 'sticker', transferId: 't1' }],
  ])('%s is valid', (_name, payload) => {
    expect(validate(dispatched('message.send', payload)).ok).toBe(true);
  });

  test.each([
    ['a misspelled field', { txt: 'hi' }],
    ['an unknown extra field on plain text', { text: 'hi', effect: 'confetti' }],
    ['kind "text" (plain text omits kind)', { kind: 'text', text: 'hi' }],
    ['empty text', { text: '' }],
    ['text over 20,000 characters', { text: 'x'.repeat(20_001) }],
    ['a bad effect enum', { kind: 'rich_text', text: 'hi', effect: 'sparkles' }],
    ['a subject over 256 characters', { kind: 'rich_text', text: 'hi', subject: 's'.repeat(257) }],
    ['a link that is not http(s)', { kind: 'rich_link', url: 'ftp://example.com' }],
    ['a poll with one option', { kind: 'poll', question: 'q', options: ['only'] }],
    ['a poll with 13 options', { kind: 'poll', question: 'q', options: Array.from({ length: 13 }, (_, i) => `o${i}`) }],
    ['an unknown kind', { kind: 'video', url: 'https://example.com' }],
    ['an attachment without transferId', { kind: 'attachment' }],
    // The spec's maxLength on stored payload strings: checked here, not by the endpoint.
    ['a replyToMessageExternalId over 256 characters', { kind: 'rich_text', text: 'hi', replyToMessageExternalId: 'm'.repeat(257) }],
    ['a url over 2,048 characters', { kind: 'rich_link', url: `https://example.com/${'a'.repeat(2030)}` }],
    ['a transferId over 256 characters', { kind: 'attachment', transferId: 't'.repeat(257) }],
  ])('%s is payload_invalid', (_name, payload) => {
    expect(validate(dispatched('message.send', payload))).toMatchObject(invalid);
  });

  test('the detail names the offending field', () => {
    const result = validate(dispatched('message.send', { kind: 'rich_text', text: 'hi', effect: 'sparkles' }));
    expect(result.ok === false && result.detail).toMatch(/^\/payload\/effect: /);
    expect(result.ok === false && result.path).toBe('/payload/effect');
  });
});

describe('message.send to a recipient carries {text} only', () => {
  test('the text is what is sent', () => {
    const result = validate(dispatched('message.send', { text: 'hello' }, recipientTarget()));
    expect(result).toEqual({ ok: true, plan: { type: 'message.send', target: 'recipient', recipientExternalId: 'bob@example.com', text: 'hello' } });
  });

  test.each([
    ['text that is not a string', { text: 42 }],
    ['empty text', { text: '' }],
    ['no text', {}],
  ])('%s is payload_invalid', (_name, payload) => {
    expect(validate(dispatched('message.send', payload, recipientTarget()))).toMatchObject(invalid);
  });
});

describe('the other command types', () => {
  test.each([
    ['reaction.tapback', { messageExternalId: 'M1', tapback: 'love' }],
    ['reaction.tapback', { messageExternalId: 'M1', tapback: 'laugh', remove: true }],
    ['reaction.apply', { tapback: 'like' }],
    ['name_photo.share', {}],
    ['group.update', { action: 'rename', name: 'Team' }],
    ['group.update', { action: 'add_participant', participantExternalId: '+14155550103' }],
    ['group.update', { action: 'remove_participant', participantExternalId: '+14155550102' }],
    ['group.update', { action: 'set_photo', transferId: 't1' }],
    ['group.leave', {}],
  ] as const)('%s %j is valid', (type, payload) => {
    expect(validate(dispatched(type, payload, groupTarget())).ok).toBe(true);
  });

  test.each([
    ['reaction.tapback', { messageExternalId: 'M1', tapback: 'wow' }],
    ['reaction.tapback', { tapback: 'love' }],
    ['reaction.apply', {}],
    ['reaction.apply', { tapback: 'love', messageExternalId: 'M1' }],
    ['name_photo.share', { card: 'mine' }],
    ['group.update', { action: 'rename', name: 'n'.repeat(129) }],
    ['group.update', { action: 'rename' }],
    ['group.update', { action: 'remove_participant' }],
    ['group.update', { action: 'promote', participantExternalId: '+14155550103' }],
    ['group.update', { name: 'Team' }],
    ['group.leave', { reason: 'bye' }],
    ['reaction.tapback', { messageExternalId: 'm'.repeat(257), tapback: 'love' }],
    ['group.update', { action: 'add_participant', participantExternalId: `${'a'.repeat(250)}@x.io` }],
    ['group.update', { action: 'set_photo', transferId: 't'.repeat(257) }],
  ] as const)('%s %j is payload_invalid', (type, payload) => {
    expect(validate(dispatched(type, payload, groupTarget()))).toMatchObject(invalid);
  });

  test.each([
    ['not an address', 'not_a_phone_number_or_email'],
    ['4155550103', 'invalid_phone_number'],
    ['dana@', 'invalid_email'],
  ])('group.update add_participant of %j is payload_invalid at /payload/participantExternalId', (participantExternalId, reason) => {
    expect(validate(dispatched('group.update', { action: 'add_participant', participantExternalId }, groupTarget()))).toEqual({
      ok: false, code: 'payload_invalid', path: '/payload/participantExternalId', detail: expect.stringContaining(reason),
    });
  });

  test('group.update remove_participant names a member as the platform lists it, even in a form that is not an address', () => {
    const result = validate(dispatched('group.update', { action: 'remove_participant', participantExternalId: '72345' }, groupTarget()));
    expect(result).toMatchObject({ ok: true, plan: { payload: { action: 'remove_participant', participantExternalId: '72345' } } });
  });

  test.each([
    ['add_participant', '+1 (415) 555-0103', '+14155550103'],
    ['remove_participant', ' +44 20 7946 0958 ', '+442079460958'],
    ['add_participant', 'Dana@Example.COM', 'Dana@example.com'],
  ])('group.update %s takes %j as %j, the form the platform knows', (action, participantExternalId, address) => {
    const result = validate(dispatched('group.update', { action, participantExternalId }, groupTarget()));
    expect(result).toMatchObject({ ok: true, plan: { type: 'group.update', payload: { action, participantExternalId: address } } });
  });

  test('group.create takes its participants from the target and text, optionally name, from the payload', () => {
    expect(validate(dispatched('group.create', { text: 'hi all', name: 'Team' }, participantsTarget()))).toEqual({
      ok: true,
      plan: { type: 'group.create', participants: ['+14155550101', '+14155550102'], payload: { text: 'hi all', name: 'Team' } },
    });
    expect(validate(dispatched('group.create', { name: 'Team' }, participantsTarget()))).toMatchObject(invalid);
  });

  test('a target of the wrong kind for the type is an invalid target', () => {
    expect(validate(dispatched('reaction.apply', { tapback: 'like' }, recipientTarget()))).toMatchObject({ ok: false, code: 'invalid_target' });
    expect(validate(dispatched('group.create', { text: 'x' }, groupTarget()))).toMatchObject({ ok: false, code: 'invalid_target' });
  });
});

describe('properties', () => {
  const types = ['message.send', 'reaction.tapback', 'reaction.apply', 'name_photo.share', 'group.create', 'group.update', 'group.leave'] as const;

  test('any payload validates to a plan or to a failure with a detail; it never throws', () => {
    fc.assert(
      fc.property(fc.constantFrom(...types), fc.dictionary(fc.string(), fc.jsonValue()), (type, payload) => {
        const target = type === 'group.create' ? participantsTarget() : groupTarget();
        const result = validate(dispatched(type, payload, target));
        expect(result.ok || (result.code === 'payload_invalid' && result.detail.length > 0)).toBe(true);
      }),
    );
  });

  test('plain text of 1 to 20,000 characters is valid, and any extra key makes it invalid', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 300 }), fc.string({ minLength: 1 }).filter((k) => k !== 'text' && k !== 'kind' && k !== '__proto__'), (text, extra) => {
        expect(validate(dispatched('message.send', { text })).ok).toBe(true);
        expect(validate(dispatched('message.send', { text, [extra]: 1 })).ok).toBe(false);
      }),
    );
  });
});

test('checking the branch a payload names accepts exactly what the MessageSendPayload union accepts', () => {
  const payloads = fc.oneof(
    fc.record({ text: fc.string() }, { requiredKeys: [] }),
    fc.record({ kind: fc.constantFrom('rich_text', 'rich_link', 'poll', 'attachment', 'sticker', 'text', 'other'), text: fc.string(), url: fc.constantFrom('https://a.example', 'x'), question: fc.string(), options: fc.array(fc.string()), transferId: fc.string(), effect: fc.constantFrom('confetti', 'bad') }, { requiredKeys: ['kind'] }),
    fc.dictionary(fc.string(), fc.jsonValue()),
  );
  fc.assert(
    fc.property(payloads, (payload) => {
      expect(validate(dispatched('message.send', payload)).ok).toBe(schemas.zMessageSendPayload.safeParse(payload).success);
    }),
    { numRuns: 500 },
  );
});
