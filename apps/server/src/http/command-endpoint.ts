import type { IncomingMessage, ServerResponse } from 'node:http';
import { isUtf8 } from 'node:buffer';
import { commandTypes, type CommandType, type ErrorCode } from '@switchboard/contracts';
import type { Services } from '../services.ts';
import { newId } from '../clock.ts';
import { intake } from '../commands/intake.ts';
import { MAX_BODY_BYTES } from '../commands/envelope.ts';
import { checkCredential } from './auth.ts';
import { rateLimitHeaders, retryAfterSeconds } from '../ratelimit/headers.ts';
import { endDraining, readBody } from './body.ts';
import { pathOf } from './protocol.ts';

const TYPES: ReadonlySet<string> = new Set(commandTypes);
const PREFIX = '/v1/commands/';

function isJson(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const semicolon = contentType.indexOf(';');
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase() === 'application/json';
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
  const { clock, limiter, metrics, log } = services;

  return (req, res) => {
    if (req.method === 'GET' || req.url === undefined) return false;
    const url = pathOf(req.url);
    if (!url.startsWith(PREFIX)) return false;
    // Everything after the prefix is the type: `a/b` is an unknown type like any other.
    const path = url.slice(PREFIX.length).split('?', 1)[0]!;
    void handle(req, res, req.method ?? 'POST', path);
    return true;
  };

  async function handle(req: IncomingMessage, res: ServerResponse, method: string, rawType: string): Promise<void> {
    const requestId = newId();
    const logged: { accountId?: string; commandId?: string; routingPath?: string; error?: string } = {};
    res.setHeader('x-request-id', requestId);
    // Logged and counted when the answer is written.
    // `drain`: the body is still arriving and the connection closes after the answer.
    const json = (status: number, body: unknown, drain = false) => {
      const text = JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
      if (drain) endDraining(req, res, text);
      else res.end(text);
      metrics.requests.inc({ method, route: '/v1/commands/:type', status, code: logged.error ?? '' });
      log.info({ reqId: requestId, method, url: req.url, status, ...logged }, 'request');
    };
    const fail = (status: number, error: ErrorCode, message: string, extra: Record<string, unknown> = {}, drain = false) => {
      logged.error = error;
      json(status, { error, message, ...extra, requestId }, drain);
    };

    try {
      const check = await checkCredential(services, req.headers.authorization, 'account', req.socket.remoteAddress);
      if (!check.ok) {
        if (check.status === 429) {
          res.setHeader('retry-after', String(check.retryAfter));
          res.setHeader('ratelimit-policy', check.headers[0]);
          res.setHeader('ratelimit', check.headers[1]);
          return fail(429, 'rate_limited', 'too many failed authentications from this address', { retryAfterSeconds: check.retryAfter });
        }
        res.setHeader('www-authenticate', 'Bearer');
        return fail(401, 'unauthenticated', check.message);
      }
      const { credential } = check;
      logged.accountId = credential.accountId;
      if (method !== 'POST') {
        res.setHeader('allow', 'POST');
        return fail(405, 'method_not_allowed', 'the command endpoint accepts POST only');
      }

      let type: string;
      try {
        type = decodeURIComponent(rawType);
      } catch {
        type = rawType;
      }
      if (!TYPES.has(type)) return fail(404, 'unknown_command', `"${type}" is not a command type`, { command: type });

      if (limiter) {
        const decision = await limiter.take(credential.id, clock.now());
        const [policy, remaining] = rateLimitHeaders('default', limiter, decision);
        res.setHeader('ratelimit-policy', policy);
        res.setHeader('ratelimit', remaining);
        if (!decision.allowed) {
          const retryAfter = retryAfterSeconds(decision.resetMs);
          res.setHeader('retry-after', String(retryAfter));
          return fail(429, 'rate_limited', `more than ${decision.limit} requests in ${limiter.windowMs / 1000} seconds on this credential`, {
            retryAfterSeconds: retryAfter,
          });
        }
      }

      if (!isJson(req.headers['content-type'])) return fail(415, 'unsupported_media_type', 'send the body as Content-Type: application/json');
      if (isEncoded(req.headers['content-encoding'])) {
        res.setHeader('accept-encoding', 'identity');
        return fail(415, 'unsupported_media_type', 'send the body without a Content-Encoding; the server decodes none');
      }
      const body = await readBody(req, MAX_BODY_BYTES);
      if (!body.ok) {
        if (body.reason === 'aborted') return;
        // Answer first, then drop the rest of the upload and close (RFC 9112 §9.6).
        res.setHeader('connection', 'close');
        return fail(400, 'body_too_large', `the body is over ${MAX_BODY_BYTES} bytes`, {}, true);
      }
      // Decoding would turn bad bytes into U+FFFD, and the text delivered would not be the text sent.
      if (!isUtf8(body.bytes)) return fail(400, 'body_not_object', 'the body is not valid UTF-8, so it is not JSON');

      const header = req.headers['idempotency-key'];
      const result = await intake(services, credential.accountId, type as CommandType, body.bytes.toString('utf8'), Array.isArray(header) ? header.join(', ') : header);
      if (!result.ok) {
        const { status, error, message, ...extra } = result.rejection;
        const { retryAfter, ...bodyExtra } = extra as { retryAfter?: number };
        if (retryAfter !== undefined) res.setHeader('retry-after', String(retryAfter));
        return fail(status, error, message, bodyExtra);
      }
      logged.commandId = result.command.id;
      logged.routingPath = result.command.routingPath;
      metrics.commands.inc({ type, routing_path: result.command.routingPath, disposition: result.acknowledgement.disposition });
      json(202, result.acknowledgement);
    } catch (error) {
      log.error({ err: error, reqId: requestId }, 'unhandled error');
      // Not a store failure (intake answers those itself): the command may have been stored.
      if (!res.headersSent) fail(500, 'internal', 'an unexpected error; the command may have been stored, so retry only with an Idempotency-Key');
      else res.destroy();
    }
  }
}
