import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../config.ts';
import { abilitiesOf, capabilitiesFor } from './capabilities.ts';

const everything = loadConfig({ SWITCHBOARD_CONNECTOR_KEY: 'k' }).capabilities;
const info = (over: Record<string, unknown> = {}) => ({ os_version: '26.1', server_version: '1.9.9', private_api: true, helper_connected: true, ...over });

describe('capabilities from BlueBubbles server info', () => {
  test('the OS major version is read from os_version; the Private API counts only with its helper connected', () => {
    expect(abilitiesOf(info())).toEqual({ osMajorVersion: 26, privateApi: true, serverVersion: '1.9.9' });
    expect(abilitiesOf(info({ helper_connected: false })).privateApi).toBe(false);
    expect(abilitiesOf(info({ private_api: false })).privateApi).toBe(false);
  });

  test('with the Private API: every command type, rich_text, rich_link and attachment, never poll or sticker', () => {
    const declared = capabilitiesFor(abilitiesOf(info()), everything);
    expect(declared.map((c) => c.name).sort()).toEqual([...everything.map((c) => c.name)].sort());
    expect(declared.find((c) => c.name === 'command.message_send.content.v1')?.supportedKinds).toEqual(['rich_text', 'rich_link', 'attachment']);
  });

  test('without it: sends only; and the operator\'s configuration can only narrow what the server allows', () => {
    expect(capabilitiesFor(abilitiesOf(info({ private_api: false })), everything).map((c) => c.name)).toEqual([
      'command.message_send.conversation.v1', 'command.message_send.group.v1', 'command.message_send.recipient.v1', 'command.message_send.content.v1',
    ]);
    const narrowed = loadConfig({ SWITCHBOARD_CONNECTOR_KEY: 'k', SWITCHBOARD_CAPABILITIES: 'command.message_send.content.v1,command.group_update.v1', SWITCHBOARD_SUPPORTED_KINDS: 'poll,rich_text', SWITCHBOARD_SUPPORTS_RENAME: 'false' }).capabilities;
    expect(capabilitiesFor(abilitiesOf(info()), narrowed)).toEqual([
      { name: 'command.message_send.content.v1', supportedKinds: ['rich_text'] },
      { name: 'command.group_update.v1', supportsRename: false, supportsPhoto: true, supportsParticipants: true },
    ]);
  });
});
