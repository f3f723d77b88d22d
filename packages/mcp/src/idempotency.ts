import { createHash } from 'node:crypto';

/**
 * Idempotency-Keys for agent-turn tool calls, derived from the call itself: the tool's name and
 * its command (target and payload, keys sorted), plus the window the call first arrived in.
 *
 * A repeated call (a client retrying, a model calling the same tool twice with the same
 * arguments) within `windowMs` of the first gets the first call's key, so the service answers
 * `adopted` with the first command instead of sending again. The process remembers when each
 * call was first seen, so a repeat is adopted whatever the clock says within the window; after
 * a restart the key still matches when the repeat falls in the same fixed window of `windowMs`
 * as the first call. After the window the same call is new work: the agent meant it.
 */
export class TurnKeys {
  readonly #firstSeen = new Map<string, number>();
  readonly #windowMs: number;
  readonly #now: () => number;

  constructor(windowMs: number, now: () => number = Date.now) {
    this.#windowMs = windowMs;
    this.#now = now;
  }

  /** The Idempotency-Key of a call of `tool` with `command`. */
  keyOf(tool: string, command: unknown): string {
    const now = this.#now();
    for (const [digest, at] of this.#firstSeen) if (now - at >= this.#windowMs) this.#firstSeen.delete(digest);
    const digest = sha256(`${tool}\n${canonicalJson(command)}`);
    const firstSeen = this.#firstSeen.get(digest) ?? now;
    this.#firstSeen.set(digest, firstSeen);
    // 1-255 printable ASCII characters, as the service requires: `mcp-` and 43 base64url characters.
    return `mcp-${createHash('sha256').update(`${digest}:${Math.floor(firstSeen / this.#windowMs)}`).digest('base64url')}`;
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** JSON with object keys sorted at every depth: equal values, equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
