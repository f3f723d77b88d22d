import { hash, randomBytes } from 'node:crypto';
import type { CredentialKind } from '../store/types.ts';

/** Every kind of key: an account's two credentials, and the operator's key to the admin API. */
export type KeyKind = CredentialKind | 'operator';

const PREFIX: Record<KeyKind, string> = { account: 'sb_', connector: 'sbc_', operator: 'sbo_' };

/** A new secret: its kind's prefix and 32 random bytes. Only its SHA-256 is stored. */
export function newSecret(kind: KeyKind): { secret: string; hash: Buffer; prefix: string } {
  const secret = PREFIX[kind] + randomBytes(32).toString('base64url');
  return { secret, hash: hashSecret(secret), prefix: secret.slice(0, PREFIX[kind].length + 6) };
}

export function hashSecret(secret: string): Buffer {
  return hash('sha256', secret, 'buffer');
}

/** Each connection's last Authorization header and the SHA-256 of its key (null: no key in it). */
const lastKey = new WeakMap<object, { header: string; hash: Buffer | null }>();

/**
 * The SHA-256 of the key in `Authorization: Bearer <key>`, or null when the header has none. A
 * keep-alive client sends the same header on every request, so the hash is kept with the
 * connection until its header changes or the connection is gone (hashing was about 5 % of a
 * command's CPU). The key is then held as long as the connection that sends it, and no longer.
 */
export function keyHash(header: string | undefined, connection: object): Buffer | null {
  if (header === undefined) return null;
  const last = lastKey.get(connection);
  if (last !== undefined && sameText(last.header, header)) return last.hash;
  const token = bearerToken(header);
  const digest = token === null ? null : hashSecret(token);
  lastKey.set(connection, { header, hash: digest });
  return digest;
}

/**
 * `a === b` in a time that depends on the length alone: a connection may carry several clients'
 * requests (a proxy's), and how far a guess matches the last key must not show in the answer's time.
 */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/** The key from `Authorization: Bearer <key>`, or null when the header is absent or malformed. */
export function bearerToken(header: string | undefined): string | null {
  // What /^Bearer[ ]+(\S+)[ ]*$/i matches, without the match array a request.
  if (!header || !isBearer(header)) return null;
  let start = BEARER.length;
  while (header.charCodeAt(start) === 32) start++;
  let end = header.length;
  while (end > start && header.charCodeAt(end - 1) === 32) end--;
  if (start === BEARER.length || end === start) return null;
  const token = header.slice(start, end);
  return /\s/.test(token) ? null : token;
}

const BEARER = 'bearer';

/** `header` starts with "Bearer" in any case. */
function isBearer(header: string): boolean {
  if (header.length < BEARER.length) return false;
  // The letters' lower case is their upper case with bit 0x20 set.
  for (let i = 0; i < BEARER.length; i++) if ((header.charCodeAt(i) | 0x20) !== BEARER.charCodeAt(i)) return false;
  return true;
}
