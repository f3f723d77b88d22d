import { errorCatalog, type ErrorCode, type SettlementCode } from '@switchboard/contracts/catalog';
import type { AddressErrorBody, CursorExpiredErrorBody, RateLimitedErrorBody, UnknownCommandErrorBody } from './types.ts';

type DetailedCode = AddressErrorBody['error'] | 'rate_limited' | 'unknown_command' | 'cursor_expired';

/**
 * Every error body the service sends, as it sent it. Narrow on `error` to reach the extra
 * fields: `field` and `reason` of a 422, `retryAfterSeconds` of a 429, `command` of an unknown
 * command, `oldestId` of an expired cursor.
 */
export type ErrorBody =
  | AddressErrorBody
  | RateLimitedErrorBody
  | UnknownCommandErrorBody
  | CursorExpiredErrorBody
  | { error: Exclude<ErrorCode, DetailedCode>; message: string; requestId?: string };

export type RetryGuidance = (typeof errorCatalog)[ErrorCode]['retry'];

/** True when `value` is an error body of the service (its `error` is a catalog code). */
export function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const { error, message } = value as Record<string, unknown>;
  return typeof error === 'string' && Object.hasOwn(errorCatalog, error) && typeof message === 'string';
}

/** The body the service sends with `code`: `ErrorBody` narrowed to that code. */
export type ErrorBodyOf<C extends ErrorCode> = ErrorBody extends infer B ? (B extends { error: infer E } ? (C extends E ? B & { error: C } : never) : never) : never;

class SwitchboardErrorClass extends Error {
  override readonly name = 'SwitchboardError';
  /** The HTTP status. */
  readonly status: number;
  readonly code: ErrorCode;
  /** The request's id, for support and the service's logs (body `requestId`, else `X-Request-Id`). */
  readonly requestId: string | undefined;
  /** The error body exactly as received. */
  readonly body: ErrorBody;
  /** From `Retry-After`, when the service sent one. */
  readonly retryAfterMs: number | undefined;

  constructor(status: number, body: ErrorBody, requestId: string | undefined, retryAfterMs?: number) {
    super(`${body.error}: ${body.message}`);
    this.status = status;
    this.code = body.error;
    this.requestId = body.requestId ?? requestId;
    this.body = body;
    this.retryAfterMs = retryAfterMs;
  }

  /** The catalog's guidance: `never` (change the request), `after` (Retry-After), `backoff`. */
  get retry(): RetryGuidance {
    return errorCatalog[this.code].retry;
  }
}

/**
 * The service answered with an error from its catalog. Branch on `code`: it narrows `body` too,
 * so `if (error.code === 'rate_limited') error.body.retryAfterSeconds` is typed. One member per
 * error code, so the union is what `instanceof SwitchboardError` narrows to.
 */
export type SwitchboardError = { [C in ErrorCode]: SwitchboardErrorClass & { readonly code: C; readonly body: ErrorBodyOf<C> } }[ErrorCode];

// A class whose instances are the union above: TypeScript narrows `instanceof` to the type of
// `prototype`, and a class cannot declare a union as its instance type.
export const SwitchboardError = SwitchboardErrorClass as unknown as {
  new (status: number, body: ErrorBody, requestId: string | undefined, retryAfterMs?: number): SwitchboardError;
  readonly prototype: SwitchboardError;
};

/**
 * No response arrived. `mayHaveReachedServer` is false only when the connection was refused
 * before the request went out; otherwise the service may have acted on it.
 */
export class SwitchboardNetworkError extends Error {
  override readonly name = 'SwitchboardNetworkError';
  readonly reason: 'refused' | 'failed' | 'timeout';
  readonly mayHaveReachedServer: boolean;

  constructor(reason: 'refused' | 'failed' | 'timeout', cause: unknown) {
    super(reason === 'timeout' ? 'the request timed out' : `the request failed: ${String((cause as Error | undefined)?.message ?? cause)}`, { cause });
    this.reason = reason;
    this.mayHaveReachedServer = reason !== 'refused';
  }
}

/** A response that is not the service's (a proxy's error page), or a body that is not what the spec says. */
export class UnexpectedResponseError extends Error {
  override readonly name = 'UnexpectedResponseError';
  readonly status: number;
  readonly body: unknown;

  constructor(status: number, body: unknown) {
    super(`unexpected ${status} response: ${typeof body === 'string' ? body.slice(0, 200) : JSON.stringify(body)}`);
    this.status = status;
    this.body = body;
  }
}

export interface PayloadIssue {
  /** JSON Pointer into the request body, e.g. `/payload/kind`. */
  path: string;
  message: string;
}

/** `validate: true` found what the endpoint would accept with 202 and the host would settle `payload_invalid`. */
export class PayloadValidationError extends Error {
  override readonly name = 'PayloadValidationError';
  readonly commandType: string;
  readonly issues: PayloadIssue[];

  constructor(commandType: string, issues: PayloadIssue[]) {
    super(`${commandType}: ${issues.map((i) => `${i.path || '/'} ${i.message}`).join('; ')}`);
    this.commandType = commandType;
    this.issues = issues;
  }
}

/** Nothing the SDK was waiting for arrived in time. The command may still settle later. */
export class SettlementTimeoutError extends Error {
  override readonly name = 'SettlementTimeoutError';
  readonly commandId: string;
  readonly waitingFor: 'command.settled' | 'conversation.appeared';
  readonly timeoutMs: number;

  constructor(commandId: string, waitingFor: 'command.settled' | 'conversation.appeared', timeoutMs: number) {
    super(`no ${waitingFor} for command ${commandId} within ${timeoutMs} ms`);
    this.commandId = commandId;
    this.waitingFor = waitingFor;
    this.timeoutMs = timeoutMs;
  }
}

/** A command the SDK depended on settled `failed`: sendRichToNewContact's recipient send, or the send `delivered()` waits on. */
export class CommandFailedError extends Error {
  override readonly name = 'CommandFailedError';
  readonly commandId: string;
  readonly errorCode: SettlementCode;
  /** Why, for people (the command's `errorMessage`); branch on `errorCode`. */
  readonly errorMessage: string | null;
  /** Where in the request body, as a JSON Pointer (the command's `errorPath`), when the failure is about one place. */
  readonly errorPath: string | null;

  constructor(commandId: string, errorCode: SettlementCode, errorMessage: string | null = null, errorPath: string | null = null) {
    super(`command ${commandId} settled failed: ${errorCode}${errorMessage ? ` (${errorMessage})` : ''}`);
    this.commandId = commandId;
    this.errorCode = errorCode;
    this.errorMessage = errorMessage;
    this.errorPath = errorPath;
  }
}
