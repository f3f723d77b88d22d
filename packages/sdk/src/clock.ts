/**
 * Time and randomness come from here so tests can replace them: a test advances time by
 * resolving `sleep` itself instead of waiting for it to pass.
 */
export interface Clock {
  /** Milliseconds since the epoch (used to read an HTTP-date `Retry-After`). */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason if it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep(ms, signal) {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal!.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  },
};

/**
 * An AbortController that also aborts when any of `parents` does. AbortSignal.any would do,
 * but it arrived in Node 20.3 and some browsers later; this works everywhere. Abort the result
 * when done with it: that also detaches it from long-lived parents.
 */
export function linkedController(...parents: Array<AbortSignal | undefined>): AbortController {
  const controller = new AbortController();
  for (const parent of parents) {
    if (!parent) continue;
    if (parent.aborted) {
      controller.abort(parent.reason);
      break;
    }
    const onAbort = () => controller.abort(parent.reason);
    parent.addEventListener('abort', onAbort, { once: true });
    controller.signal.addEventListener('abort', () => parent.removeEventListener('abort', onAbort), { once: true });
  }
  return controller;
}

/**
 * A random UUID (v4). `crypto.randomUUID` exists only in secure contexts in browsers, so a page
 * served over plain http falls back to `getRandomValues`, which exists everywhere.
 */
export function randomId(): string {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === 'function') return c.randomUUID();
  const b = c.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
