import { join } from 'node:path';
import { loadWebhookConfig, type WebhookConfig } from './webhooks/config.ts';

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  logLevel: string;
  /** Requests counted per credential in any window of `rateLimitWindowMs`; 0 lifts the limit (benchmarks only). */
  rateLimit: number;
  rateLimitWindowMs: number;
  /** Reads (GETs of the public API) per credential in any window of `rateLimitWindowMs`; 0 lifts it. */
  readRateLimit: number;
  /** Open SSE streams per credential; 0 lifts it. */
  maxStreamsPerCredential: number;
  /** Failed authentications per client address in any window of `authFailureWindowMs`; 0 lifts it. */
  authFailureLimit: number;
  authFailureWindowMs: number;
  leaseTtlMs: number;
  idempotencyRetentionMs: number;
  eventRetentionMs: number;
  /** Settled commands are dropped this long after they settled (never while queued, never before their key). */
  commandRetentionMs: number;
  /** Inbound attachments are dropped this long after they arrived. */
  attachmentRetentionMs: number;
  heartbeatMs: number;
  sqliteBusyTimeoutMs: number;
  /** A PostgreSQL URL selects the PostgreSQL store (replicas may share it); null keeps SQLite in `dataDir`. */
  databaseUrl: string | null;
  /** Connections in the PostgreSQL pool, at most. */
  databasePoolMax: number;
  /** A PostgreSQL statement running longer is cancelled (its transaction rolls back). */
  databaseStatementTimeoutMs: number;
  /** Apply pending PostgreSQL migrations at start-up (`auto`), or refuse to start until `switchboard migrate` ran (`off`). */
  migrate: 'auto' | 'off';
  /** After traffic, the server gives memory back once it was quiet this long (after start-up, at its first quiet second). */
  memoryQuietMs: number;
  webhooks: WebhookConfig;
  /** `POST /v1/transfers` and the connector's fetch of them (specs: "Transfers"); off unless turned on. */
  transfers: 'enabled' | 'disabled';
  /** A transfer expires this long after its upload: a command accepted later cannot send it. */
  transferTtlMs: number;
}

/** A setting the server cannot run with: reported in one line at start-up. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer ${max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`}, got "${raw}"`);
  }
  return value;
}

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, values: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(values as readonly string[]).includes(raw)) throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${raw}"`);
  return raw as T;
}

/** Reads the server's configuration from the environment, once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const idempotencyRetentionMs = int(env, 'SWITCHBOARD_IDEMPOTENCY_RETENTION_MS', 48 * HOUR, 24 * HOUR);
  // An adopted duplicate answers with the original command's status: a command outlives its key.
  const commandRetentionMs = int(env, 'SWITCHBOARD_COMMAND_RETENTION_MS', Math.max(30 * DAY, idempotencyRetentionMs));
  if (commandRetentionMs < idempotencyRetentionMs) {
    throw new ConfigError(`SWITCHBOARD_COMMAND_RETENTION_MS (${commandRetentionMs}) must be at least SWITCHBOARD_IDEMPOTENCY_RETENTION_MS (${idempotencyRetentionMs}): an adopted duplicate answers with its original command`);
  }
  return {
    host: env.SWITCHBOARD_HOST ?? '127.0.0.1',
    port: int(env, 'SWITCHBOARD_PORT', 7300, 0, 65_535),
    dataDir: env.SWITCHBOARD_DATA_DIR ?? join(process.cwd(), '.switchboard'),
    logLevel: env.SWITCHBOARD_LOG_LEVEL ?? 'info',
    rateLimit: int(env, 'SWITCHBOARD_RATE_LIMIT', 60),
    rateLimitWindowMs: int(env, 'SWITCHBOARD_RATE_LIMIT_WINDOW_MS', 60_000, 1),
    readRateLimit: int(env, 'SWITCHBOARD_READ_RATE_LIMIT', 600),
    maxStreamsPerCredential: int(env, 'SWITCHBOARD_MAX_STREAMS_PER_CREDENTIAL', 5),
    authFailureLimit: int(env, 'SWITCHBOARD_AUTH_FAILURE_LIMIT', 20),
    authFailureWindowMs: int(env, 'SWITCHBOARD_AUTH_FAILURE_WINDOW_MS', 60_000, 1),
    leaseTtlMs: int(env, 'SWITCHBOARD_LEASE_TTL_MS', 15_000, 100),
    idempotencyRetentionMs,
    eventRetentionMs: int(env, 'SWITCHBOARD_EVENT_RETENTION_MS', 7 * DAY, 1),
    commandRetentionMs,
    // As long as the message.received event that announces an attachment.
    attachmentRetentionMs: int(env, 'SWITCHBOARD_ATTACHMENT_RETENTION_MS', 7 * DAY, 1),
    // A third under the common 15 s proxy idle timeout.
    heartbeatMs: int(env, 'SWITCHBOARD_HEARTBEAT_MS', 10_000, 10),
    sqliteBusyTimeoutMs: int(env, 'SWITCHBOARD_SQLITE_BUSY_TIMEOUT_MS', 5_000),
    databaseUrl: env.SWITCHBOARD_DATABASE_URL || null,
    databasePoolMax: int(env, 'SWITCHBOARD_DATABASE_POOL_MAX', 10, 1),
    databaseStatementTimeoutMs: int(env, 'SWITCHBOARD_DATABASE_STATEMENT_TIMEOUT_MS', 5_000, 1),
    migrate: oneOf(env, 'SWITCHBOARD_MIGRATE', ['auto', 'off'] as const, 'auto'),
    memoryQuietMs: int(env, 'SWITCHBOARD_MEMORY_QUIET_MS', 30_000),
    webhooks: loadWebhookConfig(env, (name, fallback, min) => int(env, name, fallback, min)),
    transfers: oneOf(env, 'SWITCHBOARD_TRANSFERS', ['enabled', 'disabled'] as const, 'disabled'),
    // At most a year: a transfer is kept for a command's retries, not as storage.
    transferTtlMs: int(env, 'SWITCHBOARD_TRANSFER_TTL_HOURS', 24, 1, 8_760) * HOUR,
  };
}
