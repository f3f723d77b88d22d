import { adminErrorCatalog, connectorErrorCatalog, errorCatalog, type AdminErrorCode, type ConnectorErrorCode, type ErrorCode } from '@switchboard/contracts';

/** A code of the public API's catalog, the connector protocol's or the admin API's. */
export type Code = ErrorCode | ConnectorErrorCode | AdminErrorCode;

/** The HTTP status the catalogs give `code` (they agree on the codes they share). */
export function statusOf(code: Code): number {
  if (code in errorCatalog) return errorCatalog[code as ErrorCode].status;
  if (code in connectorErrorCatalog) return connectorErrorCatalog[code as ConnectorErrorCode].status;
  return adminErrorCatalog[code as AdminErrorCode].status;
}

/**
 * The one error type: a catalog code, its message, the fields its body adds (`retryAfterSeconds`,
 * `field`, ...) and the headers that go with it (`Retry-After`, `RateLimit`). Its status is the
 * catalog's. Domain modules return or throw it; the HTTP layer writes it.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: Code;
  readonly status: number;
  readonly details: Readonly<Record<string, unknown>>;
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: Code, message: string, details: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    super(message);
    this.code = code;
    this.status = statusOf(code);
    this.details = details;
    this.headers = headers;
  }
}
