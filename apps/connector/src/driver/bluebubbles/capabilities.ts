import type { Capability, RichKind } from '@switchboard/contracts';
import type { BbServerInfo } from './wire.ts';

/** What a BlueBubbles server can do, from its server info. */
export interface ServerAbilities {
  osMajorVersion: number;
  /** The Private API is enabled and its helper is connected to Messages. */
  privateApi: boolean;
  serverVersion: string;
}

export function abilitiesOf(info: BbServerInfo): ServerAbilities {
  const major = Number.parseInt(String(info.os_version).split('.')[0] ?? '', 10);
  return { osMajorVersion: Number.isInteger(major) ? major : 0, privateApi: info.private_api === true && info.helper_connected === true, serverVersion: info.server_version };
}

/**
 * The capabilities a host in front of this server declares: AppleScript sends text to existing
 * chats and creates direct chats; the Private API adds effects, subjects and replies
 * (`rich_text`), group creation, tapbacks, contact cards, group changes and leaving. BlueBubbles
 * has no poll API, so `poll` is never declared. `configured` (the operator's list) can only narrow it.
 */
export function capabilitiesFor(abilities: ServerAbilities, configured: readonly Capability[]): Capability[] {
  const kinds: RichKind[] = abilities.privateApi ? ['rich_text', 'rich_link', 'attachment'] : ['rich_link', 'attachment'];
  const derived: Capability[] = [
    { name: 'command.message_send.conversation.v1' },
    { name: 'command.message_send.group.v1' },
    { name: 'command.message_send.recipient.v1' },
    { name: 'command.message_send.content.v1', supportedKinds: kinds },
  ];
  if (abilities.privateApi) {
    derived.push(
      { name: 'command.reaction_tapback.v1' },
      { name: 'command.reaction_apply.v1' },
      { name: 'command.name_photo_share.v1' },
      { name: 'command.group_create.v1' },
      { name: 'command.group_update.v1', supportsRename: true, supportsPhoto: true, supportsParticipants: true },
      { name: 'command.group_leave.v1' },
    );
  }
  const out: Capability[] = [];
  for (const capability of derived) {
    const wanted = configured.find((c) => c.name === capability.name);
    if (!wanted) continue;
    if (capability.name === 'command.message_send.content.v1') {
      out.push({ ...capability, supportedKinds: (capability.supportedKinds ?? []).filter((k) => (wanted.supportedKinds ?? []).includes(k)) });
    } else if (capability.name === 'command.group_update.v1') {
      out.push({
        name: capability.name,
        supportsRename: capability.supportsRename === true && wanted.supportsRename === true,
        supportsPhoto: capability.supportsPhoto === true && wanted.supportsPhoto === true,
        supportsParticipants: capability.supportsParticipants === true && wanted.supportsParticipants === true,
      });
    } else out.push(capability);
  }
  return out;
}
