import type { Capability, CapabilityName } from '@switchboard/contracts';
import type { Plan } from './validate.ts';

export type CapabilityCheck = { ok: true } | { ok: false; detail: string };

type GroupParameter = 'supportsRename' | 'supportsParticipants' | 'supportsPhoto';

const GROUP_PARAMETER: Record<Extract<Plan, { type: 'group.update' }>['payload']['action'], GroupParameter> = {
  rename: 'supportsRename',
  add_participant: 'supportsParticipants',
  remove_participant: 'supportsParticipants',
  set_photo: 'supportsPhoto',
};

/** The command types the seed's table leaves out need the capability of their own name. */
const OWN_CAPABILITY: Record<'reaction.tapback' | 'reaction.apply' | 'name_photo.share' | 'group.create' | 'group.leave', CapabilityName> = {
  'reaction.tapback': 'command.reaction_tapback.v1',
  'reaction.apply': 'command.reaction_apply.v1',
  'name_photo.share': 'command.name_photo_share.v1',
  'group.create': 'command.group_create.v1',
  'group.leave': 'command.group_leave.v1',
};

/**
 * Holds a command to what the host declared, as the seed's Capabilities table says: message.send
 * to a conversation needs `command.message_send.conversation.v1`, to a group also
 * `command.message_send.group.v1`, to a recipient `command.message_send.recipient.v1`; a rich
 * kind also needs `command.message_send.content.v1` listing the kind in `supportedKinds`;
 * group.update needs `command.group_update.v1` with the parameter of its action.
 */
export function checkCapabilities(plan: Plan, declared: readonly Capability[]): CapabilityCheck {
  const find = (name: CapabilityName) => declared.find((c) => c.name === name);
  const missing: string[] = [];
  const need = (name: CapabilityName) => {
    if (!find(name)) missing.push(name);
  };

  switch (plan.type) {
    case 'message.send': {
      if (plan.target === 'recipient') {
        need('command.message_send.recipient.v1');
        break;
      }
      need('command.message_send.conversation.v1');
      if (plan.conversation.kind === 'group') need('command.message_send.group.v1');
      if ('kind' in plan.payload) {
        const content = find('command.message_send.content.v1');
        if (!content) missing.push('command.message_send.content.v1');
        else if (!(content.supportedKinds ?? []).includes(plan.payload.kind)) {
          missing.push(`command.message_send.content.v1 with "${plan.payload.kind}" in supportedKinds`);
        }
      }
      break;
    }
    case 'group.update': {
      const parameter = GROUP_PARAMETER[plan.payload.action];
      const capability = find('command.group_update.v1');
      if (!capability) missing.push('command.group_update.v1');
      else if (capability[parameter] !== true) missing.push(`command.group_update.v1 with ${parameter}`);
      break;
    }
    default:
      need(OWN_CAPABILITY[plan.type]);
  }
  return missing.length === 0 ? { ok: true } : { ok: false, detail: `the host does not declare ${missing.join(' and ')}` };
}
