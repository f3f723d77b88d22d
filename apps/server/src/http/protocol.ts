import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { ApiError } from '../errors.ts';
import type { IdSource } from '../ids.ts';
import { errorBody } from './errors.ts';
import { writeJson } from './respond.ts';

/**
 * HTTP below the routes: what a request gets when it is not well-formed enough to reach one.
 * Every answer here has the one error body, `{ error, message, requestId }`, and closes the
 * connection.
 */

/**
 * The path of a request target: origin-form as it is, absolute-form (`http://host/path`, which
 * RFC 9112 §3.2.2 says a server must accept) without its scheme and authority.
 */
export function pathOf(url: string): string {
  if (url.charCodeAt(0) === 47 /* / */) return url;
  const match = /^https?:\/\/[^/?#]*/i.exec(url);
  if (!match) return url;
  const rest = url.slice(match[0].length);
  return rest === '' || rest[0] === '?' ? `/${rest}` : rest;
}

/** The path of `url` without its query, decoded as the router decodes it (a `%2F` stays a `%2F`), or null. */
export function routedPath(url: string): string | null {
  const path = pathOf(url).split('?', 1)[0]!;
  if (!path.includes('%')) return path;
  try {
    return decodeURIComponent(path.replace(/%2f/gi, '%252F'));
  } catch {
    return null;
  }
}

/** A Content-Type of `application/json`, whatever its parameters. */
export function isJson(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const semicolon = contentType.indexOf(';');
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase() === 'application/json';
}

/** The 400 of a path that is not valid percent-encoding; `detail`: what found it. */
export function notPercentEncoding(detail?: string): ApiError {
  return new ApiError('bad_request', `the path is not valid percent-encoding${detail === undefined ? '' : ` (${detail})`}`);
}

// RFC 9112 §3.2 and RFC 3986 §3.2.2: uri-host [ ":" port ], the host an IP literal or a reg-name
// (an IPv4 address is one), which may be empty.
const HOST = /^(?:\[[\w:.~!$&'()*+,;=-]+\]|[\w.~%!$&'()*+,;=-]*)(?::\d*)?$/;

/**
 * Why the request's header lines are not one valid Host and at most one Authorization, or null
 * when they are (an HTTP/1.0 request may send no Host). node:http keeps only the first line of
 * either, where a proxy in front may have read the last.
 */
function headerLinesProblem(req: IncomingMessage): string | null {
  const raw = req.rawHeaders;
  let hosts = 0;
  let authorizations = 0;
  let host = '';
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host') {
      hosts++;
      host = raw[i + 1]!;
    } else if (name.length === 13 && name.toLowerCase() === 'authorization') authorizations++;
  }
  if (authorizations > 1) return 'a request carries one Authorization header, not several';
  if (hosts === 0) return req.httpVersionMajor === 1 && req.httpVersionMinor === 1 ? 'an HTTP/1.1 request needs a Host header' : null;
  if (hosts > 1) return 'a request carries one Host header, not several';
  return HOST.test(host) ? null : 'the Host header is not a host with an optional port';
}

function sendRaw(req: IncomingMessage, res: ServerResponse, requestId: string, error: ApiError): void {
  res.setHeader('x-request-id', requestId);
  res.setHeader('connection', 'close');
  writeJson(req, res, error.status, errorBody(error, requestId), true);
}

/**
 * What node:http parsed but no route should see: a transfer coding other than `chunked` (501,
 * RFC 9112 §6.1), an HTTP/1.1 request without Host, several Host lines or an invalid one,
 * several Authorization lines, and a target with a `#` (400, RFC 9112 §3.2).
 * Answered here, then the connection closes; true when it did.
 */
export function rejectedBeforeRouting(ids: IdSource): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const te = req.headers['transfer-encoding'];
    if (te !== undefined && te.trim().toLowerCase() !== 'chunked') {
      sendRaw(req, res, ids.next(), new ApiError('not_implemented', 'the transfer coding is not one the server implements; send chunked or Content-Length'));
      return true;
    }
    const lines = headerLinesProblem(req);
    if (lines !== null) {
      sendRaw(req, res, ids.next(), new ApiError('bad_request', lines));
      return true;
    }
    // The router would cut the path at the `#` and answer a shorter route.
    if (req.url !== undefined && req.url.includes('#')) {
      sendRaw(req, res, ids.next(), new ApiError('bad_request', 'the request target has a "#", which a request never carries; send it percent-encoded as %23'));
      return true;
    }
    return false;
  };
}

/** A whole HTTP/1.1 error response as bytes, for a socket that node:http no longer answers on. */
function rawAnswer(requestId: string, error: ApiError): string {
  const body = JSON.stringify(errorBody(error, requestId));
  return (
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`
  );
}

/** CONNECT: this is an origin server, not a proxy (node:http would drop the connection unanswered). */
export function connectHandler(log: Logger, ids: IdSource): (req: IncomingMessage, socket: Duplex) => void {
  return (_req, socket) => {
    const requestId = ids.next();
    const error = new ApiError('not_implemented', 'CONNECT is not implemented; this is not a proxy');
    log.info({ reqId: requestId, method: 'CONNECT', status: error.status, error: error.code }, 'request');
    socket.end(rawAnswer(requestId, error));
  };
}

/** node:http's parse errors, as the catalog's codes. */
function classify(code: string | undefined): ApiError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError('headers_too_large', 'the request line and headers are over 16 KiB');
    case 'HPE_INVALID_METHOD':
      return new ApiError('not_implemented', 'the method is not one the server implements');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError('request_timeout', 'the request was not received in time');
    default:
      return new ApiError('bad_request', 'the request is not well-formed HTTP/1.1');
  }
}

/**
 * node:http's `clientError`: the request could not be parsed, so the connection cannot go on.
 * Answer with the documented body and `Connection: close`, then close it.
 */
export function clientErrorHandler(log: Logger, ids: IdSource): (error: Error & { code?: string }, socket: Duplex) => void {
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    // A response already under way (one answered before its body failed to parse) goes out as it is.
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (!socket.writable || (inFlight && inFlight.headersSent)) {
      socket.end();
      return;
    }
    const answer = classify(error.code);
    const requestId = ids.next();
    const send = () => {
      log.info({ reqId: requestId, status: answer.status, error: answer.code, parseError: error.code }, 'request');
      if (socket.writable) socket.end(rawAnswer(requestId, answer));
    };
    // A request read whole before the bad one is still being answered (a command awaiting its
    // COMMIT): its answer goes first (RFC 9112 §9.3.2), or its client would take this one for it.
    // A request still being read is the bad one (its body did not parse): answered now.
    if (inFlight && !inFlight.writableFinished && inFlight.req.complete) inFlight.once('finish', send);
    else send();
  };
}
