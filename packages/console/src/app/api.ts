// The admin API, typed by the spec (AdminPaths, generated from specs/openapi/admin.yaml), through
// openapi-fetch as the SDK does. Every failure becomes an ApiFailure with the error body's code.
import createClient, { type Client } from 'openapi-fetch';
import type { AdminComponents, AdminPaths } from '@switchboard/contracts';

export type Schemas = AdminComponents['schemas'];
export type AdminClient = Client<AdminPaths>;

/** A request that did not succeed: `status` 0 when the server did not answer at all. */
export class ApiFailure extends Error {
  override readonly name = 'ApiFailure';
  readonly status: number;
  readonly code: string;
  readonly field: string | undefined;
  constructor(status: number, code: string, message: string, field?: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

/** A client that sends the key on every request and reports a 401 (a revoked or unknown key). */
export function adminClient(key: string, onUnauthenticated: () => void): AdminClient {
  const client = createClient<AdminPaths>({ baseUrl: location.origin, headers: { authorization: `Bearer ${key}` } });
  client.use({
    onResponse({ response }) {
      if (response.status === 401) onUnauthenticated();
      return undefined;
    },
  });
  return client;
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The answer's body, or an ApiFailure. */
export async function call<T>(request: Promise<Answer<T>>): Promise<NonNullable<T>> {
  let answer: Answer<T>;
  try {
    answer = await request;
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiFailure(0, 'network', 'The server did not answer. Is it running, and is this the address it serves?');
  }
  if (!answer.response.ok) throw failureOf(answer.response.status, answer.error);
  return answer.data as NonNullable<T>;
}

export function failureOf(status: number, body: unknown): ApiFailure {
  const { error, message, field } = (body ?? {}) as { error?: string; message?: string; field?: string };
  if (status === 403) return new ApiFailure(403, error ?? 'forbidden', 'This operator key is read-only: it can look, not change anything.');
  if (status === 401) return new ApiFailure(401, error ?? 'unauthenticated', 'The server did not accept this operator key (unknown or revoked).');
  return new ApiFailure(status, error ?? `http_${status}`, message ?? `The server answered ${status}.`, field);
}

/** What to show for any error a page caught. */
export function describe(error: unknown): string {
  if (error instanceof ApiFailure) return error.field ? `${error.message} (${error.field})` : error.message;
  return error instanceof Error ? error.message : String(error);
}
