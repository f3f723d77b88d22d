import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from './config.ts';

describe('configuration from the environment', () => {
  it('needs an API key and names every bad variable without echoing the key', () => {
    expect(() => readConfig({})).toThrow(ConfigError);
    expect(() => readConfig({ SWITCHBOARD_URL: 'ftp://x', SWITCHBOARD_MCP_PORT: 'abc', SWITCHBOARD_MCP_IDEMPOTENCY_WINDOW_MS: '5' })).toThrow(
      /SWITCHBOARD_URL.*SWITCHBOARD_API_KEY.*SWITCHBOARD_MCP_IDEMPOTENCY_WINDOW_MS.*SWITCHBOARD_MCP_PORT/,
    );
    expect(() => readConfig({ SWITCHBOARD_API_KEY: 'sb_secret', SWITCHBOARD_MCP_PORT: 'abc' })).toThrow(/^(?!.*sb_secret)/);
  });

  it('defaults: the local service, a 10-minute window, loopback port 7310', () => {
    expect(readConfig({ SWITCHBOARD_API_KEY: 'sb_x' })).toEqual({
      url: 'http://127.0.0.1:7300',
      apiKey: 'sb_x',
      idempotencyWindowMs: 600_000,
      http: { host: '127.0.0.1', port: 7310, token: undefined, allowedHosts: [] },
    });
  });
});
