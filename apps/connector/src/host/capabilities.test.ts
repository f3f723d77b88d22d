import type { Capability, CapabilityName, CommandType, DispatchedCommand, RichKind } from '@switchboard/contracts';
import { describe, expect, test } from 'vitest';
import { allCapabilityNames, allRichKinds } from '../config.ts';
import { checkCapabilities } from './capabilities.ts';
import { directTarget, dispatched, groupTarget, participantsTarget, recipientTarget } from './fixtures.test-support.ts';
import { validate } from './validate.ts';

/** Every capability, with every kind and every group.update parameter. */
const everything: Capability[] = allCapabilityNames.map((name) => {
  if (name === 'command.message_send.content.v1') return { name, supportedKinds: [...allRichKinds] };
  if (name === 'command.group_update.v1') return { name, supportsRename: true, supportsPhoto: true, supportsParticipants: true };
  return { name };
});

const without = (name: CapabilityName) => everything.filter((c) => c.name !== name);
const replacing = (capability: Capability) => everything.map((c) => (c.name === capability.name ? capability : c));

function check(type: CommandType, payload: Record<string, unknown>, target: DispatchedCommand['target'], declared: Capability[]) {
  const validation = validate(dispatched(type, payload, target));
  if (!validation.ok) throw new Error(validation.detail);
  return checkCapabilities(validation.plan, declared);
}

describe('the seed\'s Capabilities table', () => {
  test('message.send to a conversation target needs command.message_send.conversation.v1', () => {
    expect(check('message.send', { text: 'x' }, directTarget(), everything).ok).toBe(true);
    expect(check('message.send', { text: 'x' }, directTarget(), without('command.message_send.conversation.v1'))).toMatchObject({ ok: false, detail: expect.stringContaining('command.message_send.conversation.v1') });
  });

  test('message.send to a group also needs command.message_send.group.v1', () => {
    expect(check('message.send', { text: 'x' }, groupTarget(), everything).ok).toBe(true);
    expect(check('message.send', { text: 'x' }, groupTarget(), without('command.message_send.group.v1'))).toMatchObject({ ok: false, detail: expect.stringContaining('command.message_send.group.v1') });
    expect(check('message.send', { text: 'x' }, groupTarget(), without('command.message_send.conversation.v1')).ok).toBe(false);
    // A direct conversation does not need the group capability.
    expect(check('message.send', { text: 'x' }, directTarget(), without('command.message_send.group.v1')).ok).toBe(true);
  });

  test('message.send to a recipient target needs command.message_send.recipient.v1, and nothing for conversations', () => {
    expect(check('message.send', { text: 'x' }, recipientTarget(), [{ name: 'command.message_send.recipient.v1' }]).ok).toBe(true);
    expect(check('message.send', { text: 'x' }, recipientTarget(), without('command.message_send.recipient.v1')).ok).toBe(false);
  });

  const rich: Array<[RichKind, Record<string, unknown>]> = [
    ['rich_text', { kind: 'rich_text', text: 'x' }],
    ['rich_link', { kind: 'rich_link', url: 'https://example.com' }],
    ['poll', { kind: 'poll', question: 'q', options: ['a', 'b'] }],
    ['attachment', { kind: 'attachment', transferId: 't' }],
    ['sticker', { kind: 'sticker', transferId: 't' }],
  ];

  test.each(rich)('a %s send additionally needs command.message_send.content.v1 listing the kind', (kind, payload) => {
    expect(check('message.send', payload, directTarget(), everything).ok).toBe(true);
    expect(check('message.send', payload, directTarget(), without('command.message_send.content.v1')).ok).toBe(false);
    const others = allRichKinds.filter((k) => k !== kind);
    expect(check('message.send', payload, directTarget(), replacing({ name: 'command.message_send.content.v1', supportedKinds: others }))).toMatchObject({
      ok: false,
      detail: expect.stringContaining(`"${kind}" in supportedKinds`),
    });
    expect(check('message.send', payload, directTarget(), replacing({ name: 'command.message_send.content.v1' })).ok).toBe(false);
  });

  test('plain text does not need the content capability', () => {
    expect(check('message.send', { text: 'x' }, directTarget(), without('command.message_send.content.v1')).ok).toBe(true);
  });

  const actions: Array<[string, Record<string, unknown>, 'supportsRename' | 'supportsParticipants' | 'supportsPhoto']> = [
    ['rename', { action: 'rename', name: 'n' }, 'supportsRename'],
    ['add_participant', { action: 'add_participant', participantExternalId: '+14155550103' }, 'supportsParticipants'],
    ['remove_participant', { action: 'remove_participant', participantExternalId: '+14155550102' }, 'supportsParticipants'],
    ['set_photo', { action: 'set_photo', transferId: 't' }, 'supportsPhoto'],
  ];

  test.each(actions)('group.update %s needs command.group_update.v1 with %s, declared independently', (_action, payload, parameter) => {
    expect(check('group.update', payload, groupTarget(), everything).ok).toBe(true);
    expect(check('group.update', payload, groupTarget(), without('command.group_update.v1')).ok).toBe(false);
    const onlyThis = { name: 'command.group_update.v1', [parameter]: true } as Capability;
    expect(check('group.update', payload, groupTarget(), replacing(onlyThis)).ok).toBe(true);
    const allButThis = { name: 'command.group_update.v1', supportsRename: true, supportsPhoto: true, supportsParticipants: true, [parameter]: false } as Capability;
    expect(check('group.update', payload, groupTarget(), replacing(allButThis))).toMatchObject({ ok: false, detail: expect.stringContaining(parameter) });
    // Absent means false.
    expect(check('group.update', payload, groupTarget(), replacing({ name: 'command.group_update.v1' })).ok).toBe(false);
  });
});

describe('the types the table leaves out need the capability of their own name', () => {
  test.each([
    ['reaction.tapback', { messageExternalId: 'M', tapback: 'love' }, directTarget(), 'command.reaction_tapback.v1'],
    ['reaction.apply', { tapback: 'love' }, directTarget(), 'command.reaction_apply.v1'],
    ['name_photo.share', {}, directTarget(), 'command.name_photo_share.v1'],
    ['group.create', { text: 'hi' }, participantsTarget(), 'command.group_create.v1'],
    ['group.leave', {}, groupTarget(), 'command.group_leave.v1'],
  ] as const)('%s needs %s', (type, payload, target, name) => {
    expect(check(type, payload, target, [{ name }]).ok).toBe(true);
    expect(check(type, payload, target, without(name)).ok).toBe(false);
  });
});
