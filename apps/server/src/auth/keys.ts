import { hash, randomBytes } from 'node:crypto';
import type { CredentialKind } from '../store/types.ts';

const PREFIX: Record<CredentialKind, string> = { account: 'sb_', connector: 'sbc_' };

/** A new secret: its kind's prefix and 32 random bytes. Only its SHA-256 is stored. */
export function newSecret(kind: CredentialKind): { secret: string; hash: Buffer; prefix: string } {
  const secret = PREFIX[kind] + randomBytes(32).toString('base64url');
  return { secret, hash: hashSecret(secret), prefix: secret.slice(0, PREFIX[kind].length + 6) };
}

export function hashSecret(secret: string): Buffer {
  // Hex, then a pooled Buffer: a digest returned as a Buffer gets an allocation of its own, which
  // costs several times the hashing on a path every request takes.
  return Buffer.from(hash('sha256', secret, 'hex'), 'hex');
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
