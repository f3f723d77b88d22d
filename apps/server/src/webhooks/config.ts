const HOUR = 3_600_000;

export interface WebhookConfig {
  /** Hosts deliveries may reach over http and at any address (SWITCHBOARD_WEBHOOK_ALLOW_HOSTS, comma-separated). */
  allowHosts: string[];
  /** An attempt that has no 2xx by then failed. */
  timeoutMs: number;
  /** The first retry's delay; each next one doubles, up to `retryMaxMs`, with full jitter. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** Failing this long at one event disables the endpoint. */
  disableAfterMs: number;
  /** How long a worker holds an endpoint per attempt; past it, another worker (or replica) may take it. */
  claimTtlMs: number;
  /** How often due deliveries are looked for besides the wake-up on each commit (other replicas' events, retries). */
  pollMs: number;
  /** Endpoints delivered to at the same time by this server (an endpoint waiting for its next event does not count). */
  concurrency: number;
  /** How long a worker keeps an endpoint whose backlog emptied, so that its next event goes out without a new claim. */
  lingerMs: number;
  /** Previous secret's life after a rotation. */
  rotationOverlapMs: number;
}

type Int = (name: string, fallback: number, min?: number) => number;

/** The webhook part of the server's config; `int` is the config's own validating reader. */
export function loadWebhookConfig(env: NodeJS.ProcessEnv, int: Int): WebhookConfig {
  const timeoutMs = int('SWITCHBOARD_WEBHOOK_TIMEOUT_MS', 10_000, 1);
  return {
    allowHosts: (env.SWITCHBOARD_WEBHOOK_ALLOW_HOSTS ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean),
    timeoutMs,
    retryBaseMs: int('SWITCHBOARD_WEBHOOK_RETRY_BASE_MS', 1_000, 1),
    retryMaxMs: int('SWITCHBOARD_WEBHOOK_RETRY_MAX_MS', HOUR, 1),
    disableAfterMs: int('SWITCHBOARD_WEBHOOK_DISABLE_AFTER_MS', 24 * HOUR, 1),
    // Longer than an attempt can last, so a live worker never loses its claim mid-attempt.
    claimTtlMs: int('SWITCHBOARD_WEBHOOK_CLAIM_TTL_MS', timeoutMs + 5_000, timeoutMs + 100),
    pollMs: int('SWITCHBOARD_WEBHOOK_POLL_MS', 1_000, 10),
    concurrency: int('SWITCHBOARD_WEBHOOK_CONCURRENCY', 32, 1),
    lingerMs: int('SWITCHBOARD_WEBHOOK_LINGER_MS', 1_000, 0),
    rotationOverlapMs: 24 * HOUR,
  };
}
