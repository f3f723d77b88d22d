import type { Envelope } from './wire.ts';
import type { Multipart } from './multipart.ts';

/** BlueBubbles could not be reached, or gave no answer in time; what a send did is unknown. */
export class BlueBubblesUnreachable extends Error {
  override readonly name = 'BlueBubblesUnreachable';
  /** True when the request went out and no answer came back within the bound. */
  readonly timedOut: boolean;
  constructor(message: string, timedOut: boolean, options?: ErrorOptions) {
    super(message, options);
    this.timedOut = timedOut;
  }
}

/** An answer of the BlueBubbles HTTP API: its status and `{status, message, data, error}` envelope. */
export interface BbAnswer<T> {
  status: number;
  body: Envelope<T>;
}

/** What the answer's envelope says went wrong, for a settlement's detail. */
export function describe(answer: BbAnswer<unknown>): string {
  const { message, error } = answer.body;
  return `BlueBubbles answered ${answer.status}: ${message}${error ? ` (${error.message})` : ''}`;
}

interface CallOptions {
  query?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as multipart/form-data instead, streamed (its file's bytes are not copied). */
  form?: Multipart;
  /** How long to wait for the answer; BlueBubbles itself waits up to 60 s for a send to show. */
  timeoutMs?: number;
}

/** The BlueBubbles Server HTTP API (`/api/v1/...`), authenticated with `?password=`. */
export class BlueBubblesApi {
  private readonly base: string;
  private readonly password: string;
  private readonly timeoutMs: number;

  constructor(base: string, password: string, timeoutMs = 15_000) {
    this.base = base.replace(/\/+$/, '');
    this.password = password;
    this.timeoutMs = timeoutMs;
  }

  private url(path: string, query: Record<string, string> = {}): string {
    const url = new URL(`${this.base}/api/v1${path}`);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    url.searchParams.set('password', this.password);
    return url.toString();
  }

  async call<T>(method: string, path: string, options: CallOptions = {}): Promise<BbAnswer<T>> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    let response: Response;
    try {
      response = await fetch(this.url(path, options.query), {
        method,
        ...(options.form
          ? { headers: { 'content-type': options.form.contentType }, body: options.form.body, duplex: 'half' }
          : { headers: options.body === undefined ? {} : { 'content-type': 'application/json' }, body: options.body === undefined ? null : JSON.stringify(options.body) }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
      throw new BlueBubblesUnreachable(timedOut ? `${method} ${path}: no answer within ${timeoutMs} ms` : `${method} ${path}: ${String(error)}`, timedOut, { cause: error });
    }
    const text = await response.text().catch(() => '');
    let body: Envelope<T>;
    try {
      body = JSON.parse(text) as Envelope<T>;
    } catch {
      body = { status: response.status, message: text.slice(0, 200) };
    }
    if (response.status === 401) throw new Error(`BlueBubbles refused the password (401 ${body.error?.message ?? body.message})`);
    return { status: response.status, body };
  }

  /** GET, expecting 200 or 404; anything else is an error. */
  async find<T>(path: string, query?: Record<string, string>): Promise<T | null> {
    const answer = await this.call<T>('GET', path, query ? { query } : {});
    if (answer.status === 404) return null;
    if (answer.status !== 200) throw new Error(describe(answer));
    return answer.body.data as T;
  }

  async download(guid: string): Promise<{ bytes: Uint8Array; mimeType: string }> {
    const response = await fetch(this.url(`/attachment/${encodeURIComponent(guid)}/download`), { signal: AbortSignal.timeout(this.timeoutMs * 4) });
    if (response.status !== 200) throw new Error(`attachment ${guid}: BlueBubbles answered ${response.status}`);
    return { bytes: new Uint8Array(await response.arrayBuffer()), mimeType: response.headers.get('content-type') ?? 'application/octet-stream' };
  }
}
