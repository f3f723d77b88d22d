import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

describe('transfer settings', () => {
  it('transfers are off and last 24 hours unless set', () => {
    expect(loadConfig({})).toMatchObject({ transfers: 'disabled', transferTtlMs: 24 * 3_600_000 });
    expect(loadConfig({ SWITCHBOARD_TRANSFERS: 'enabled', SWITCHBOARD_TRANSFER_TTL_HOURS: '2' })).toMatchObject({ transfers: 'enabled', transferTtlMs: 2 * 3_600_000 });
  });

  it('any other value is an error at start-up that names the setting', () => {
    for (const value of ['on', 'true', 'Enabled', '1']) {
      expect(() => loadConfig({ SWITCHBOARD_TRANSFERS: value })).toThrow(ConfigError);
      expect(() => loadConfig({ SWITCHBOARD_TRANSFERS: value })).toThrow(/SWITCHBOARD_TRANSFERS must be one of enabled, disabled/);
    }
    for (const value of ['0', '-1', '1.5', 'day', '8761']) {
      expect(() => loadConfig({ SWITCHBOARD_TRANSFER_TTL_HOURS: value })).toThrow(/SWITCHBOARD_TRANSFER_TTL_HOURS must be an integer from 1 to 8760/);
    }
  });
});
