import createClient from 'openapi-fetch';
import type { AdminPaths, StreamEvent } from '@switchboard/contracts';
import { SseParser } from '@switchboard/sdk';
import { setTimeout as sleep } from 'node:timers/promises';
import { OperatorError, type Operator } from './operator.ts';

type Answer<T> = { data?: T; error?: unknown; response: Response };

/** The answer's body, or an OperatorError with the admin API's code (or `unreachable`). */
async function body<T>(call: Promise<Answer<T>>): Promise<T> {
  let answer: Answer<T>;
  try {
    answer = await call;
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new OperatorError('unreachable', `could not reach the server (${cause?.code ?? cause?.message ?? (error as Error).message})`);
  }
  if (answer.response.ok) return answer.data as T;
  const failure = answer.error as { error?: string; message?: string } | undefined;
  throw new OperatorError(failure?.error ?? 'internal', failure?.message ?? `the server answered ${answer.response.status}`);
}

/** The CLI over HTTP: the admin API at `url`, with an operator key. */
export function remoteOperator(url: string, operatorKey: string): Operator {
  const api = createClient<AdminPaths>({ baseUrl: url.replace(/\/+$/, ''), headers: { authorization: `Bearer ${operatorKey}` } });
  const account = (accountId: string) => ({ params: { path: { accountId } } });
  const endpoint = (accountId: string, endpointId: string) => ({ params: { path: { accountId, endpointId } } });
  return {
    createAccount: (name) => body(api.POST('/v1/admin/accounts', { body: { name } })),
    listAccounts: async () => (await body(api.GET('/v1/admin/accounts'))).accounts,
    createKey: (accountId, kind, label) => body(api.POST('/v1/admin/accounts/{accountId}/keys', { ...account(accountId), body: { kind, label } })),
    listKeys: async (accountId) => (await body(api.GET('/v1/admin/accounts/{accountId}/keys', account(accountId)))).keys,
    revokeKey: (keyId) => body(api.POST('/v1/admin/keys/{keyId}/revoke', { params: { path: { keyId } } })),
    createOperatorKey: (label, role) => body(api.POST('/v1/admin/operator-keys', { body: { label, role } })),
    listOperatorKeys: async () => (await body(api.GET('/v1/admin/operator-keys'))).keys,
    revokeOperatorKey: (keyId) => body(api.POST('/v1/admin/operator-keys/{keyId}/revoke', { params: { path: { keyId } } })),
    async setPaused(accountId, paused) {
      if (accountId === null) await body(api.POST(paused ? '/v1/admin/outbound/pause' : '/v1/admin/outbound/resume'));
      else await body(api.POST(paused ? '/v1/admin/accounts/{accountId}/pause' : '/v1/admin/accounts/{accountId}/resume', account(accountId)));
    },
    listHosts: async () => (await body(api.GET('/v1/admin/hosts'))).hosts,
    getPolicies: (accountId) => body(api.GET('/v1/admin/accounts/{accountId}/policies', account(accountId))),
    setPolicies: (accountId, policies) => body(api.PUT('/v1/admin/accounts/{accountId}/policies', { ...account(accountId), body: policies })),
    getTransferLimits: (accountId) => body(api.GET('/v1/admin/accounts/{accountId}/transfer-limits', account(accountId))),
    setTransferLimits: (accountId, limits) => body(api.PUT('/v1/admin/accounts/{accountId}/transfer-limits', { ...account(accountId), body: limits })),
    policyUsage: (accountId, conversationId) =>
      body(api.GET('/v1/admin/accounts/{accountId}/policies/usage', { params: { path: { accountId }, query: conversationId === null ? {} : { conversationId } } })),
    listCommands: (accountId, status, cursor) =>
      body(api.GET('/v1/admin/commands', { params: { query: { accountId, status, limit: 200, ...(cursor === null ? {} : { cursor }) } } })),
    releaseCommand: (commandId) => body(api.POST('/v1/admin/commands/{commandId}/release', { params: { path: { commandId } } })),
    rejectCommand: (commandId, reason) =>
      body(api.POST('/v1/admin/commands/{commandId}/reject', { params: { path: { commandId } }, body: reason === null ? {} : { reason } })),
    listEndpoints: async (accountId) => (await body(api.GET('/v1/admin/accounts/{accountId}/webhook-endpoints', account(accountId)))).endpoints,
    setEndpointEnabled: (accountId, endpointId, enabled) =>
      body(api.PATCH('/v1/admin/accounts/{accountId}/webhook-endpoints/{endpointId}', { ...endpoint(accountId, endpointId), body: { enabled } })),
    async newestEventId(accountId) {
      const page = await body(api.GET('/v1/admin/accounts/{accountId}/events', { params: { path: { accountId }, query: { after: 'now' } }, headers: { accept: 'application/json' } }));
      return (page as Exclude<typeof page, string>).nextAfter;
    },
    async *events(accountId, after, signal) {
      let cursor = after;
      while (!signal.aborted) {
        try {
          const { data: stream, error, response } = await api.GET('/v1/admin/accounts/{accountId}/events', {
            params: { path: { accountId }, header: { 'Last-Event-ID': cursor } },
            headers: { accept: 'text/event-stream' },
            parseAs: 'stream',
            signal,
          });
          if (!response.ok || !stream) {
            const failure = error as { error?: string; message?: string } | undefined;
            throw new OperatorError(failure?.error ?? 'internal', failure?.message ?? `the server answered ${response.status}`);
          }
          const parser = new SseParser();
          const decoder = new TextDecoder();
          for await (const chunk of stream) {
            for (const message of parser.feed(decoder.decode(chunk, { stream: true }))) {
              if (message.event === 'reset') continue;
              const event = JSON.parse(message.data) as StreamEvent;
              cursor = event.id;
              yield event;
            }
          }
        } catch (error) {
          if (signal.aborted || error instanceof OperatorError) {
            if (signal.aborted) return;
            throw error;
          }
        }
        // The stream dropped: come back from the last event seen.
        await sleep(1000, undefined, { signal }).catch(() => undefined);
      }
    },
    async close() {},
  };
}
