import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { commandTypes, routingPathOf } from '@switchboard/contracts';
import { checkEnvelope } from './envelope.ts';

const UUID = '01900000-0000-7000-8000-000000000000';

describe('checkEnvelope', () => {
  it('never throws, whatever the body', () => {
    fc.assert(
      fc.property(fc.constantFrom(...commandTypes), fc.oneof(fc.string(), fc.json(), fc.jsonValue().map((v) => JSON.stringify(v))), (type, body) => {
        const result = checkEnvelope(type, body);
        expect(typeof result.ok).toBe('boolean');
      }),
      { numRuns: 2000 },
    );
  });

  it('accepts any payload object on a valid conversation target: the payload is not checked', () => {
    // Prototype-poisoning keys are the one thing rejected inside a payload (tested on their own).
    const safe = fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 5 })).filter((p) => !/"(__proto__|prototype)"/.test(JSON.stringify(p)));
    fc.assert(
      fc.property(safe, (payload) => {
        const result = checkEnvelope('message.send', JSON.stringify({ target: { kind: 'conversation', conversationId: UUID }, payload }));
        expect(result.ok).toBe(true);
      }),
    );
  });

  it('reports body_not_object for every non-object JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue().filter((v) => typeof v !== 'object' || v === null || Array.isArray(v)), (value) => {
        const result = checkEnvelope('message.send', JSON.stringify(value));
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.error.code).toBe('body_not_object');
      }),
    );
  });

  it('reports target_and_payload_required before looking inside the target', () => {
    // A prototype-poisoning key anywhere makes the whole body not an object, first (tested on its own).
    const notObject = fc.jsonValue().filter((v) => (typeof v !== 'object' || v === null || Array.isArray(v)) && !/"(__proto__|prototype)"/.test(JSON.stringify(v)));
    fc.assert(
      fc.property(notObject, (payload) => {
        const result = checkEnvelope('message.send', JSON.stringify({ target: { kind: 'conversation', conversationId: 'bad' }, payload }));
        expect(!result.ok && result.error.code).toBe('target_and_payload_required');
      }),
    );
  });

  it('routes as the spec says', () => {
    expect(routingPathOf('message.send', 'conversation')).toBe('agent-turn');
    expect(routingPathOf('message.send', 'recipient')).toBe('admin');
    for (const type of ['reaction.tapback', 'reaction.apply', 'name_photo.share'] as const) expect(routingPathOf(type, 'conversation')).toBe('agent-turn');
    for (const type of ['group.update', 'group.leave'] as const) expect(routingPathOf(type, 'conversation')).toBe('admin');
    expect(routingPathOf('group.create', 'participants')).toBe('admin');
  });
});
