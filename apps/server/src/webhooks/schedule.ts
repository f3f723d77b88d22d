/** The wait before retry number `attempt` (1 = the first retry): base doubling up to max, full jitter. */
export function backoffMs(attempt: number, baseMs: number, maxMs: number, random: () => number): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(attempt - 1, 40));
  // Full jitter (AWS): receivers coming back from an outage are not hit by every endpoint at once.
  return Math.max(1, Math.round(ceiling * random()));
}

/**
 * The wait a 429 or 503 asks for with `Retry-After` (seconds or an HTTP date), capped at `maxMs`;
 * null when the header is absent or unreadable, and backoff applies.
 */
export function retryAfterMs(header: string | null, now: number, maxMs: number): number | null {
  if (header === null) return null;
  const value = header.trim();
  let ms: number;
  if (/^\d+$/.test(value)) ms = Number(value) * 1000;
  else {
    const date = Date.parse(value);
    if (Number.isNaN(date)) return null;
    ms = date - now;
  }
  return Math.min(maxMs, Math.max(0, ms));
}
