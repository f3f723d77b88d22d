import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BaseLogger } from 'pino';
import type { Metrics } from '../metrics.ts';
import type { ApiError } from '../errors.ts';
import { logRequest } from '../log.ts';
import { endDraining } from './body.ts';
import { errorBody, errorHeaders } from './errors.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Writes a JSON answer on node:http's own response: the writer of the paths that run before or
 * beside the router. `drain`: the body may still be arriving, and the connection closes after
 * the answer (RFC 9112 §9.6). `requestId`: sent as `x-request-id`. The head is given as a flat
 * list, which node:http writes as it is when no header was set before (the accepted command's case).
 */
export function writeJson(req: IncomingMessage, res: ServerResponse, status: number, body: unknown, drain = false, requestId?: string): void {
  const text = JSON.stringify(body);
  const length = String(Buffer.byteLength(text));
  res.writeHead(status, requestId === undefined
    ? ['content-type', JSON_TYPE, 'content-length', length]
    : ['x-request-id', requestId, 'content-type', JSON_TYPE, 'content-length', length]);
  if (drain) endDraining(req, res, text);
  else res.end(text);
}

export interface RequestLine {
  method: string;
  url: string | undefined;
  status: number;
  /** The error code answered, if any. */
  error?: string | undefined;
  accountId?: string | undefined;
  commandId?: string | undefined;
  routingPath?: string | undefined;
  reqId?: string;
  ms?: number;
}

/** The one log line and the request counter of every answered request, whichever path answered it. */
export function recordRequest(log: Pick<BaseLogger, 'info'>, metrics: Metrics, route: string, line: RequestLine): void {
  metrics.requests.inc({ method: line.method, route, status: line.status, code: line.error ?? '' });
  logRequest(log, line);
}

/** A held request's log line, with its id. */
export type HeldLine = RequestLine & { reqId: string };

export interface HeldAnswers {
  /** Writes a JSON answer, then logs and counts it with its time since `started`; nothing when the client went away. */
  answer(req: IncomingMessage, res: ServerResponse, line: HeldLine, status: number, body: unknown, started: number, drain?: boolean): void;
  /** Answers `error` with its headers. */
  fail(req: IncomingMessage, res: ServerResponse, line: HeldLine, error: ApiError, started: number, drain?: boolean): void;
  /** Logs and counts an answer written otherwise (a stream that ended). */
  record(line: HeldLine, status: number, started: number): void;
}

/**
 * The answers of a request served beside the router and held open (a dispatch poll, an event
 * stream): each logged with its time under `route`, none to a client that went away, and none
 * keeping its connection alive once `closing()`.
 */
export function heldAnswers(log: Pick<BaseLogger, 'info'>, metrics: Metrics, route: string, closing: () => boolean): HeldAnswers {
  const record = (line: HeldLine, status: number, started: number): void => {
    line.status = status;
    line.ms = Math.round((performance.now() - started) * 100) / 100;
    recordRequest(log, metrics, route, line);
  };
  const answer = (req: IncomingMessage, res: ServerResponse, line: HeldLine, status: number, body: unknown, started: number, drain = false): void => {
    if (res.destroyed || req.socket.destroyed) return;
    if (closing()) res.shouldKeepAlive = false;
    writeJson(req, res, status, body, drain, line.reqId);
    record(line, status, started);
  };
  const fail = (req: IncomingMessage, res: ServerResponse, line: HeldLine, error: ApiError, started: number, drain = false): void => {
    line.error = error.code;
    const headers = errorHeaders(error);
    for (const name in headers) res.setHeader(name, headers[name]!);
    answer(req, res, line, error.status, errorBody(error, line.reqId), started, drain);
  };
  return { answer, fail, record };
}
