import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SwitchboardClient, type Clock } from '@switchboard/sdk';
import type { Config } from './config.ts';
import { TurnKeys } from './idempotency.ts';
import { log } from './log.ts';
import { errorResult } from './results.ts';

/** What every tool shares: one client for the account, and the Idempotency-Keys handed out. */
export interface Context {
  client: SwitchboardClient;
  keys: TurnKeys;
  /**
   * Runs a tool body: an exception becomes a tool error, the API key never leaves in a result,
   * and one log line records the call (tool, duration, command id, error code).
   */
  run(tool: string, body: () => Promise<CallToolResult>): Promise<CallToolResult>;
}

export function createContext(config: Config, options: { fetch?: (request: Request) => Promise<Response>; clock?: Clock } = {}): Context {
  const client = new SwitchboardClient({
    baseUrl: config.url,
    apiKey: config.apiKey,
    // A tool call is part of a model's turn: a Retry-After longer than this comes back to the
    // agent as a rate_limited tool error instead of holding the turn.
    retry: { maxDelayMs: 5_000 },
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const redact = (result: CallToolResult): CallToolResult => {
    const text = JSON.stringify(result);
    return text.includes(config.apiKey) ? (JSON.parse(text.replaceAll(config.apiKey, '[redacted]')) as CallToolResult) : result;
  };
  return {
    client,
    keys: new TurnKeys(config.idempotencyWindowMs),
    async run(tool, body) {
      const started = performance.now();
      let result: CallToolResult;
      try {
        result = redact(await body());
      } catch (error) {
        result = redact(errorResult(error));
      }
      const { commandId, error } = (result.structuredContent ?? {}) as { commandId?: unknown; error?: unknown };
      log('tool call', { tool, ms: Math.round(performance.now() - started), ...(typeof commandId === 'string' ? { commandId } : {}), ...(result.isError ? { error } : {}) });
      return result;
    },
  };
}
