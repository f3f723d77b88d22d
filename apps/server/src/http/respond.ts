import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BaseLogger } from 'pino';
import type { Metrics } from '../metrics.ts';
import { endDraining } from './body.ts';

/**
 * Writes a JSON answer on node:http's own response: the writer of the paths that run before or
 * beside the router. `drain`: the body may still be arriving, and the connection closes after
 * the answer (RFC 9112 §9.6).
 */
export function writeJson(req: IncomingMessage, res: ServerResponse, status: number, body: unknown, drain = false): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  if (drain) endDraining(req, res, text);
  else res.end(text);
}

export interface RequestLine {
  method: string;
  url: string | undefined;
  route: string;
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
export function recordRequest(log: Pick<BaseLogger, 'info'>, metrics: Metrics, line: RequestLine): void {
  metrics.requests.inc({ method: line.method, route: line.route, status: line.status, code: line.error ?? '' });
  const { route: _route, ...fields } = line;
  log.info(fields, 'request');
}
