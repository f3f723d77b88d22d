/** The MCP server's configuration, read from the environment once at start. */
export interface Config {
  /** The Switchboard service, e.g. `http://127.0.0.1:7300`. */
  url: string;
  /** An account API key. Never written to tool output or logs. */
  apiKey: string;
  /** How long a repeated agent-turn tool call reuses its Idempotency-Key (ms). */
  idempotencyWindowMs: number;
  /** The streamable HTTP transport (`--http`). */
  http: { host: string; port: number; token: string | undefined; allowedHosts: string[] };
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const DEFAULT_WINDOW_MS = 10 * 60_000;
// The service remembers an Idempotency-Key for at least 24 h; a longer window would hand out
// keys the service has already forgotten.
const MAX_WINDOW_MS = 24 * 60 * 60_000;

function integer(env: Record<string, string | undefined>, name: string, fallback: number, min: number, max: number, problems: string[]): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) problems.push(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  return value;
}

/** Reads and checks every variable; a ConfigError names each bad one (never its value for the key). */
export function readConfig(env: Record<string, string | undefined> = process.env): Config {
  const problems: string[] = [];
  const url = env.SWITCHBOARD_URL || 'http://127.0.0.1:7300';
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) problems.push(`SWITCHBOARD_URL must be an http(s) URL, got "${url}"`);
  const apiKey = env.SWITCHBOARD_API_KEY ?? '';
  if (apiKey === '') problems.push('SWITCHBOARD_API_KEY is required (an account API key: `switchboard keys create <account>`)');
  const idempotencyWindowMs = integer(env, 'SWITCHBOARD_MCP_IDEMPOTENCY_WINDOW_MS', DEFAULT_WINDOW_MS, 1_000, MAX_WINDOW_MS, problems);
  const port = integer(env, 'SWITCHBOARD_MCP_PORT', 7310, 0, 65_535, problems);
  if (problems.length > 0) throw new ConfigError(problems.join('; '));
  return {
    url: url.replace(/\/+$/, ''),
    apiKey,
    idempotencyWindowMs,
    http: {
      host: env.SWITCHBOARD_MCP_HOST || '127.0.0.1',
      port,
      token: env.SWITCHBOARD_MCP_HTTP_TOKEN || undefined,
      allowedHosts: (env.SWITCHBOARD_MCP_ALLOWED_HOSTS ?? '').split(',').map((h) => h.trim()).filter(Boolean),
    },
  };
}
