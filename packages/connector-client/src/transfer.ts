/** Media a command names by transferId, as `GET /v1/connector/transfers/{transferId}` serves it. */
export interface Transfer {
  fileName: string;
  /** The `Content-Type`, lower-cased, without parameters. */
  mimeType: string;
  /** `X-Switchboard-Sha256`: lower-case hex, as the server stored it; '' when the answer had none. */
  sha256: string;
  bytes: Uint8Array;
}

/**
 * The file name of a `Content-Disposition` header: `filename*` (RFC 6266 and 5987, UTF-8) when
 * present, since it carries any name, else the plain or quoted `filename`; null when neither.
 */
export function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const extended = /filename\*\s*=\s*([^;]+)/i.exec(disposition);
  if (extended) {
    const value = extended[1]!.trim();
    const quote = value.indexOf("''");
    if (quote >= 0) {
      try {
        return decodeURIComponent(value.slice(quote + 2));
      } catch {
        // A malformed escape: fall back to the plain filename.
      }
    }
  }
  const plain = /filename\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]+)/i.exec(disposition);
  if (!plain) return null;
  return plain[2] !== undefined ? plain[2].replace(/\\(.)/g, '$1') : plain[1]!.trim();
}

/** `image/png; charset=x` → `image/png`. */
export function mimeTypeOf(contentType: string | null): string {
  return (contentType ?? 'application/octet-stream').split(';')[0]!.trim().toLowerCase() || 'application/octet-stream';
}
