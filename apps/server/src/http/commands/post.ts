import type { IncomingMessage, ServerResponse } from 'node:http';
import { isUtf8 } from 'node:buffer';
import { commandTypes, type CommandType } from '@switchboard/contracts';
import type { Services } from '../../services.ts';
import { ApiError } from '../../errors.ts';
import { checkCredential } from '../../auth/check.ts';
import { intake } from '../../commands/intake.ts';
import { MAX_BODY_BYTES } from '../../commands/envelope.ts';
import { countRequest } from '../../ratelimit/headers.ts';
import { readBody } from '../body.ts';
import { errorBody, errorHeaders } from '../errors.ts';
import { isJson, notPercentEncoding, pathOf } from '../protocol.ts';
import { recordRequest, writeJson, type RequestLine } from '../respond.ts';

const TYPES: ReadonlySet<string> = new Set(commandTypes);
const PREFIX = '/v1/commands/';
const ROUTE = '/v1/commands/:type';
/** The request's log line, filled in as the checks pass. */
type Line = RequestLine & { reqId: string };

/** The path segment decoded, or null when it is not valid percent-encoding. */
function decodedType(raw: string): string | null {
  // Without a '%' there is nothing to decode (and decodeURIComponent is a third of a µs).
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/** A Content-Encoding the server would have to decode: it decodes none. */
function isEncoded(coding: string | undefined): boolean {
  if (coding === undefined) return false;
  const value = coding.trim().toLowerCase();
  return value !== '' && value !== 'identity';
}

/**
 * POST /v1/commands/{type}: the hot path, served by node:http directly rather than through the
 * router (which costs a third of the ceiling on its own). Every method but GET on the path is
 * answered here too (405, any method node:http parses); GET, the command read, and every other
 * route go to the router. The order of checks is the spec's: authentication, method, type, rate
 * limit, content type and coding, then the envelope and everything after it in `intake`.
 */
export function commandEndpoint(services: Services): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { clock, limiter, metrics, log, ids } = services;

  return (req, res) => {
    if (req.method === 'GET' || req.url === undefined) return false;
    const url = pathOf(req.url);
    if (!url.startsWith(PREFIX)) return false;
    // Everything after the prefix is the type: `a/b` is an unknown type like any other.
    const path = url.slice(PREFIX.length).split('?', 1)[0]!;
    void handle(req, res, req.method ?? 'POST', path);
    return true;
  };

  /** Logged and counted when the answer is written; `x-request-id` goes with the head. */
  function answer(req: IncomingMessage, res: ServerResponse, line: Line, status: number, body: unknown, drain = false): void {
    writeJson(req, res, status, body, drain, line.reqId);
    line.status = status;
    recordRequest(log, metrics, ROUTE, line);
  }

  function fail(req: IncomingMessage, res: ServerResponse, line: Line, error: ApiError, drain = false): void {
    line.error = error.code;
    const headers = errorHeaders(error);
    for (const name in headers) res.setHeader(name, headers[name]!);
    answer(req, res, line, error.status, errorBody(error, line.reqId), drain);
  }

  async function handle(req: IncomingMessage, res: ServerResponse, method: string, rawType: string): Promise<void> {
    const line: Line = { reqId: ids.next(), method, url: req.url, status: 0 };

    try {
      // Before any route, as the router answers every other path (specs: "Before any route").
      const type = decodedType(rawType);
      if (type === null) return fail(req, res, line, notPercentEncoding());
      const check = await checkCredential(services, req.headers.authorization, 'account', req.socket);
      if (!check.ok) return fail(req, res, line, check.error);
      const credential = check.value;
      line.accountId = credential.accountId;
      if (method !== 'POST') {
        res.setHeader('allow', 'POST');
        return fail(req, res, line, new ApiError('method_not_allowed', 'the command endpoint accepts POST only'));
      }

      if (!TYPES.has(type)) return fail(req, res, line, new ApiError('unknown_command', `"${type}" is not a command type`, { command: type }));

      if (limiter) {
        const { headers, refused } = await countRequest('default', limiter, credential.id, clock.now(), 'requests');
        for (const name in headers) res.setHeader(name, headers[name]!);
        if (refused) return fail(req, res, line, refused);
      }

      if (!isJson(req.headers['content-type'])) return fail(req, res, line, new ApiError('unsupported_media_type', 'send the body as Content-Type: application/json'));
      if (isEncoded(req.headers['content-encoding'])) {
        res.setHeader('accept-encoding', 'identity');
        return fail(req, res, line, new ApiError('unsupported_media_type', 'send the body without a Content-Encoding; the server decodes none'));
      }
      const body = await readBody(req, MAX_BODY_BYTES);
      if (!body.ok) {
        if (body.error === 'aborted') return;
        // Answer first, then drop the rest of the upload and close (RFC 9112 §9.6).
        res.setHeader('connection', 'close');
        return fail(req, res, line, new ApiError('body_too_large', `the body is over ${MAX_BODY_BYTES} bytes`), true);
      }
      // Decoding would turn bad bytes into U+FFFD, and the text delivered would not be the text sent.
      if (!isUtf8(body.value)) return fail(req, res, line, new ApiError('body_not_object', 'the body is not valid UTF-8, so it is not JSON'));

      const header = req.headers['idempotency-key'];
      const result = await intake(services, credential.accountId, type as CommandType, body.value.toString('utf8'), Array.isArray(header) ? header.join(', ') : header);
      if (!result.ok) return fail(req, res, line, result.error);
      const { command, acknowledgement } = result.value;
      line.commandId = command.id;
      line.routingPath = command.routingPath;
      metrics.commands.inc({ type, routing_path: command.routingPath, disposition: acknowledgement.disposition });
      answer(req, res, line, 202, acknowledgement);
    } catch (error) {
      log.error({ err: error, reqId: line.reqId }, 'unhandled error');
      // Not a store failure (intake answers those itself): the command may have been stored.
      if (!res.headersSent) fail(req, res, line, new ApiError('internal', 'an unexpected error; the command may have been stored, so retry only with an Idempotency-Key'));
      else res.destroy();
    }
  }
}
