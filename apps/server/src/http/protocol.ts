import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import type { ErrorCode } from '@switchboard/contracts';
import { newId } from '../clock.ts';
import { endDraining } from './body.ts';

/**
 * HTTP below the routes: what a request gets when it is not well-formed enough to reach one.
 * Every answer here has the one error body, `{ error, message, requestId }`.
 */

export function errorBody(error: ErrorCode, message: string, requestId: string): string {
  return JSON.stringify({ error, message, requestId });
}

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

// RFC 9110 §8.3.1: type "/" subtype *( OWS ";" OWS parameter ).
const TOKEN = "[\\w!#$%&'*+.^`|~-]+";
const MEDIA_TYPE = new RegExp(`^[ \\t]*${TOKEN}/${TOKEN}(?:[ \\t]*;[ \\t]*${TOKEN}=(?:${TOKEN}|"(?:[^"\\\\]|\\\\.)*"))*[ \\t]*$`);

/** A well-formed Content-Type value. */
export function isMediaType(value: string): boolean {
  return MEDIA_TYPE.test(value);
}

function sendRaw(req: IncomingMessage, res: ServerResponse, status: number, error: ErrorCode, message: string): void {
  const requestId = newId();
  const text = errorBody(error, message, requestId);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'x-request-id': requestId, connection: 'close' });
  endDraining(req, res, text);
}

/**
 * What node:http parsed but no route should see: a transfer coding other than `chunked` (501,
 * RFC 9112 §6.1) and an HTTP/1.1 request without Host (400, RFC 9112 §3.2). Answered here, then
 * the connection closes; true when it did.
 */
export function rejectedBeforeRouting(req: IncomingMessage, res: ServerResponse): boolean {
  const te = req.headers['transfer-encoding'];
  if (te !== undefined && te.trim().toLowerCase() !== 'chunked') {
    sendRaw(req, res, 501, 'not_implemented', 'the transfer coding is not one the server implements; send chunked or Content-Length');
    return true;
  }
  if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor === 1) {
    sendRaw(req, res, 400, 'bad_request', 'an HTTP/1.1 request needs a Host header');
    return true;
  }
  return false;
}

function rawAnswer(status: number, error: ErrorCode, message: string): { text: string; requestId: string } {
  const requestId = newId();
  const body = errorBody(error, message, requestId);
  const text =
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`;
  return { text, requestId };
}

/** CONNECT: this is an origin server, not a proxy (node:http would drop the connection unanswered). */
export function connectHandler(log: Logger): (req: IncomingMessage, socket: Duplex) => void {
  return (_req, socket) => {
    const { text, requestId } = rawAnswer(501, 'not_implemented', 'CONNECT is not implemented; this is not a proxy');
    log.info({ reqId: requestId, method: 'CONNECT', status: 501, error: 'not_implemented' }, 'request');
    socket.end(text);
  };
}

/** node:http's parse errors, as the catalog's codes. */
function classify(code: string | undefined): { status: number; error: ErrorCode; message: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, error: 'headers_too_large', message: 'the request line and headers are over 16 KiB' };
    case 'HPE_INVALID_METHOD':
      return { status: 501, error: 'not_implemented', message: 'the method is not one the server implements' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, error: 'request_timeout', message: 'the request was not received in time' };
    default:
      return { status: 400, error: 'bad_request', message: 'the request is not well-formed HTTP/1.1' };
  }
}

/**
 * node:http's `clientError`: the request could not be parsed, so the connection cannot go on.
 * Answer with the documented body and `Connection: close`, then close it.
 */
export function clientErrorHandler(log: Logger): (error: Error & { code?: string }, socket: Duplex) => void {
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    // A response already under way (one answered before its body failed to parse) goes out as it is.
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (!socket.writable || (inFlight && inFlight.headersSent)) {
      socket.end();
      return;
    }
    const { status, error: code, message } = classify(error.code);
    const { text, requestId } = rawAnswer(status, code, message);
    log.info({ reqId: requestId, status, error: code, parseError: error.code }, 'request');
    socket.end(text);
  };
}
