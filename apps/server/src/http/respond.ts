import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BaseLogger } from 'pino';
import type { Metrics } from '../metrics.ts';
import { logRequest } from '../log.ts';
import { endDraining } from './body.ts';

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
