// The operator key lives in sessionStorage: per tab, gone when the tab closes, and sent only by
// this page's own requests (an Authorization header, never a cookie, so no CSRF). The page's
// strict Content-Security-Policy (only its own scripts) is what keeps other script from reading it.
import { adminClient, call, type AdminClient, type Schemas } from './api.ts';

const STORAGE_KEY = 'switchboard.console.operatorKey';

export type Role = Schemas['OperatorRole'];

export interface Session {
  key: string;
  client: AdminClient;
  role: Role;
  /** The operator key's own record (never its secret). */
  self: Schemas['OperatorKey'];
}

export const storedKey = (): string | null => sessionStorage.getItem(STORAGE_KEY);
export const forgetKey = (): void => sessionStorage.removeItem(STORAGE_KEY);

/** Checks the key by reading its own record (`GET /v1/admin/session`), which says its role. Throws the ApiFailure of a refused key. */
export async function openSession(key: string, onUnauthenticated: () => void): Promise<Session> {
  const client = adminClient(key, onUnauthenticated);
  const self = await call(client.GET('/v1/admin/session'));
  sessionStorage.setItem(STORAGE_KEY, key);
  return { key, client, role: self.role, self };
}
