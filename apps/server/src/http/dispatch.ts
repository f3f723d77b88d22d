import type { IncomingMessage, ServerResponse } from 'node:http';
import { connectorSchemas } from '@switchboard/contracts';
import type { Services } from '../services.ts';
import { ApiError } from '../errors.ts';
import { checkCredential } from '../auth/check.ts';
import { dispatch } from '../leases/dispatch.ts';
import { leaseLost } from '../leases/leases.ts';
import { readBody } from './body.ts';
import { caughtError } from './errors.ts';
import { parseJson } from './json-body.ts';
import { routedPath } from './protocol.ts';
import { heldAnswers, type HeldLine } from './respond.ts';

const PATH = '/v1/connector/dispatch';
const MAX_JSON_BYTES = 1 << 20;
/** Why a poll's signal aborts: given, so that no DOMException is made for each of them. */
const POLL_ENDED = new Error('the dispatch poll ended');

export interface DispatchEndpoint {
  /** Takes POST /v1/connector/dispatch and answers it; false for every other request. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /**
   * Answers open polls at once, empty, and every later one too (after one read of the queue, with
   * `Connection: close`); resolves once those answers are sent.
   */
  close(): Promise<void>;
}

/**
 * POST /v1/connector/dispatch, served by node:http directly rather than through the router: at
 * many accounts an idle server's work is mostly these polls, one open per host, and the router's
 * request and reply objects, hooks and child logger, kept for each poll's whole wait, were a
 * fifth of its idle CPU above a bare server (docs/benchmarks.md, "Ten thousand accounts"). Same
 * answers, in the same order of checks: authentication, the body, then the poll (connector.yaml,
 * `/v1/connector/dispatch`).
 */
export function dispatchEndpoint(services: Services): DispatchEndpoint {
  const { store, clock, ids, log, metrics } = services;
  // A set, not listeners on one signal: adding one of thousands of listeners to an EventTarget walks them all.
  const polls = new Map<AbortController, Promise<unknown>>();
  let closing = false;

  const { answer, fail } = heldAnswers(log, metrics, PATH, () => closing);

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const line: HeldLine = { reqId: ids.next(), method: 'POST', url: req.url, status: 0 };
    try {
      const check = await checkCredential(services, req.headers.authorization, 'connector', req.socket);
      if (!check.ok) return fail(req, res, line, check.error, started);
      const accountId = check.value.accountId;
      line.accountId = accountId;
      const body = await readBody(req, MAX_JSON_BYTES);
      if (!body.ok) {
        if (body.error === 'aborted') return;
        // Answer first, then drop the rest of the upload and close (RFC 9112 §9.6).
        res.setHeader('connection', 'close');
        return fail(req, res, line, new ApiError('invalid_request', 'the body is over 1 MiB'), started, true);
      }
      const parsed = parseJson(body.value, connectorSchemas.zDispatchRequest);
      if (!parsed.ok) return fail(req, res, line, new ApiError('invalid_request', parsed.error), started);
      const { epoch, holding, max = 20, waitMs = 20_000 } = parsed.value;

      // The poll ends, empty, when its connection closes or the server shuts down. The socket's
      // close too: the answer to a poll pipelined behind another never gets the socket, so it
      // would not see it close.
      const abort = new AbortController();
      if (closing) abort.abort(POLL_ENDED);
      const socket = req.socket;
      const sent = new Promise<void>((resolve) => {
        const end = () => {
          res.off('close', end);
          socket.off('close', end);
          abort.abort(POLL_ENDED);
          resolve();
        };
        res.once('close', end);
        socket.once('close', end);
        if (socket.destroyed) end();
      });
      // While a poll of a host holding nothing waits, the server keeps its lease live (open-polls.ts);
      // a host holding commands counts and renews its lease itself, so a hung one loses it in a TTL.
      const ended = holding.length === 0 ? services.polls.add(accountId, epoch) : null;
      polls.set(abort, sent);
      void sent.then(() => {
        polls.delete(abort);
        ended?.();
      });
      const result = await dispatch(services, accountId, { epoch, holding, max, waitMs }, abort.signal);
      if (result !== null) return answer(req, res, line, 200, result, started);
      // Who holds the lease now tells a host whether a process with its own id took it over.
      const live = await store.liveLease(accountId, clock.now());
      return fail(req, res, line, leaseLost(live?.hostId), started);
    } catch (error) {
      const answered = caughtError(error);
      if (answered.status >= 500) log.error({ err: error, reqId: line.reqId }, 'unhandled error');
      // Thrown after the answer was written (the log line): the answer stands.
      if (res.writableEnded) return;
      if (!res.headersSent) fail(req, res, line, answered, started);
      else res.destroy();
    }
  }

  return {
    handle(req, res) {
      if (req.method !== 'POST' || req.url === undefined || routedPath(req.url) !== PATH) return false;
      serve(req, res).catch((error: unknown) => {
        log.error({ err: error }, 'unhandled error');
        res.destroy();
      });
      return true;
    },
    async close() {
      closing = true;
      for (const abort of polls.keys()) abort.abort(POLL_ENDED);
      await Promise.allSettled(polls.values());
    },
  };
}
