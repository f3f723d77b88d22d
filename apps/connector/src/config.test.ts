import { describe, expect, test } from 'vitest';
import { allCapabilityNames, ConfigError, flagsToEnv, loadConfig } from './config.ts';

const base = { SWITCHBOARD_CONNECTOR_KEY: 'sbc_test', SWITCHBOARD_HOST_ID: 'host-a', SWITCHBOARD_DATA_DIR: '/tmp/switchboard-data' };

describe('loadConfig', () => {
  test('by default a host declares every capability, every rich kind and every group.update parameter', () => {
    const config = loadConfig(base);
    expect(config.capabilities.map((c) => c.name)).toEqual(allCapabilityNames);
    expect(config.capabilities.find((c) => c.name === 'command.message_send.content.v1')).toEqual({
      name: 'command.message_send.content.v1',
      supportedKinds: ['rich_text', 'rich_link', 'poll', 'attachment', 'sticker'],
    });
    expect(config.capabilities.find((c) => c.name === 'command.group_update.v1')).toEqual({
      name: 'command.group_update.v1', supportsRename: true, supportsPhoto: true, supportsParticipants: true,
    });
    expect(config.simulator.dbPath).toBe('/tmp/switchboard-data/simulator.db');
    expect(config.simulator.faults).toEqual({ gatewayRejected: 0, sendNotOk: 0, echoLost: 0, groupUpdateUnverified: 0 });
  });

  test('the declaration is narrowed from the environment, each group.update parameter independently', () => {
    const config = loadConfig({
      ...base,
      SWITCHBOARD_CAPABILITIES: 'command.message_send.conversation.v1,command.message_send.content.v1,command.group_update.v1',
      SWITCHBOARD_SUPPORTED_KINDS: 'rich_text,poll',
      SWITCHBOARD_SUPPORTS_PHOTO: 'false',
    });
    expect(config.capabilities).toEqual([
      { name: 'command.message_send.conversation.v1' },
      { name: 'command.message_send.content.v1', supportedKinds: ['rich_text', 'poll'] },
      { name: 'command.group_update.v1', supportsRename: true, supportsPhoto: false, supportsParticipants: true },
    ]);
    expect(loadConfig({ ...base, SWITCHBOARD_CAPABILITIES: 'none' }).capabilities).toEqual([]);
  });

  test('simulator settings: latency ranges, fault probabilities, seed, stall, database path', () => {
    const config = loadConfig({
      ...base,
      SWITCHBOARD_SIM_DB: '/tmp/elsewhere.db',
      SWITCHBOARD_SIM_SEED: '99',
      SWITCHBOARD_SIM_LATENCY_MS: '5-20',
      SWITCHBOARD_SIM_ECHO_LATENCY_MS: '3',
      SWITCHBOARD_SIM_P_GATEWAY_REJECTED: '0.1',
      SWITCHBOARD_SIM_P_ECHO_LOST: '0.25',
      SWITCHBOARD_SIM_REMOVE_STALL_MS: '1500',
    });
    expect(config.simulator).toMatchObject({
      dbPath: '/tmp/elsewhere.db', seed: 99, sendLatency: { min: 5, max: 20 }, echoLatency: { min: 3, max: 3 },
      faults: { gatewayRejected: 0.1, sendNotOk: 0, echoLost: 0.25, groupUpdateUnverified: 0 }, removeStallMs: 1500,
    });
  });

  test('every problem is reported at once', () => {
    const attempt = () => loadConfig({
      SWITCHBOARD_HOST_ID: 'no spaces allowed',
      SWITCHBOARD_OS_MAJOR_VERSION: 'twenty-six',
      SWITCHBOARD_CAPABILITIES: 'command.teleport.v1',
      SWITCHBOARD_SIM_P_SEND_NOT_OK: '2',
      SWITCHBOARD_SIM_LATENCY_MS: '20-5',
    });
    expect(attempt).toThrow(ConfigError);
    const message = (() => { try { attempt(); } catch (error) { return (error as Error).message; } return ''; })();
    for (const name of ['SWITCHBOARD_CONNECTOR_KEY', 'SWITCHBOARD_HOST_ID', 'SWITCHBOARD_OS_MAJOR_VERSION', 'command.teleport.v1', 'SWITCHBOARD_SIM_P_SEND_NOT_OK', 'SWITCHBOARD_SIM_LATENCY_MS']) {
      expect(message).toContain(name);
    }
  });

  test('the bluebubbles driver: its URL and password are required, the rest has defaults', () => {
    const config = loadConfig({ ...base, SWITCHBOARD_DRIVER: 'bluebubbles', SWITCHBOARD_BLUEBUBBLES_URL: 'http://127.0.0.1:1234/', SWITCHBOARD_BLUEBUBBLES_PASSWORD: 'secret' });
    expect(config.driver).toBe('bluebubbles');
    expect(config.bluebubbles).toEqual({
      url: 'http://127.0.0.1:1234', password: 'secret', webhookHost: '127.0.0.1', webhookPort: 7399, webhookUrl: null,
      echoTimeoutMs: 75_000, updateTimeoutMs: 45_000, catchUpWindowMs: 3_600_000, catchUpIntervalMs: 30_000,
      journalPath: '/tmp/switchboard-data/bluebubbles-host-a.db',
    });
    const message = (() => { try { loadConfig({ ...base, SWITCHBOARD_DRIVER: 'bluebubbles', SWITCHBOARD_BLUEBUBBLES_WEBHOOK_LISTEN: 'nowhere' }); } catch (error) { return (error as Error).message; } return ''; })();
    for (const name of ['SWITCHBOARD_BLUEBUBBLES_URL', 'SWITCHBOARD_BLUEBUBBLES_PASSWORD', 'SWITCHBOARD_BLUEBUBBLES_WEBHOOK_LISTEN']) expect(message).toContain(name);
    expect(() => loadConfig({ ...base, SWITCHBOARD_DRIVER: 'macos' })).toThrow(/"simulator" or "bluebubbles"/);
  });

  test('flags of `run` stand for environment variables and win over them', () => {
    const env = flagsToEnv(['--driver', 'bluebubbles', '--bluebubbles-url=http://mac:1234', '--bluebubbles-password', 'p'], { SWITCHBOARD_DRIVER: 'simulator', OTHER: 'kept' });
    expect(env).toEqual({ SWITCHBOARD_DRIVER: 'bluebubbles', SWITCHBOARD_BLUEBUBBLES_URL: 'http://mac:1234', SWITCHBOARD_BLUEBUBBLES_PASSWORD: 'p', OTHER: 'kept' });
    expect(() => flagsToEnv(['--driver'])).toThrow(ConfigError);
    expect(() => flagsToEnv(['bluebubbles'])).toThrow(ConfigError);
  });
});
