/**
 * The host side of specs/openapi/connector.yaml, one method per operation, over the generated
 * `ConnectorPaths`. It only speaks HTTP: deciding what an answer means (retry, lease lost, give
 * up) is the caller's concern.
 */
import createClient, { type Client } from 'openapi-fetch';
import { connectorErrorCatalog, type ConnectorErrorCode } from '@switchboard/contracts/catalog';
import { keptAlive, type Transport } from './transport.ts';
import type { BatchedSettlement, ConnectorComponents, ConnectorPaths, DispatchedCommand, Lease, LeaseRequest, PlatformEvent, Settlement, SettlementResult } from '@switchboard/contracts';

export type ConnectorApi = Client<ConnectorPaths>;

/** The server could not be reached or answered nothing usable; the request may or may not have taken effect. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
}

/** Any answer the server gave, with its JSON body (null when it had none). */
export interface Answer<T = unknown> {
  status: number;
  body: T;
}

type Schemas = ConnectorComponents['schemas'];

/** An error body of the protocol; `error` is `http_<status>` when the server sent none. */
export type ErrorBody = { error: ConnectorErrorCode | (string & {}); message: string } & Partial<Omit<Schemas['LeaseHeldError'], 'error' | 'message'>>;

export function errorOf(answer: Answer): ErrorBody {
  const body = answer.body as Partial<ErrorBody> | null;
  return { error: body?.error ?? `http_${answer.status}`, message: body?.message ?? '', ...body };
}

export const isLeaseLost = (answer: Answer) => answer.status === connectorErrorCatalog.lease_lost.status && errorOf(answer).error === 'lease_lost';

/** A POST operation of the protocol, by its path. */
export type ConnectorPost = { [P in keyof ConnectorPaths]: ConnectorPaths[P] extends { post: object } ? P : never }[keyof ConnectorPaths];

type Result = { data?: unknown; error?: unknown; response: Response };

export class ConnectorClient {
  /** The typed openapi-fetch client, authenticated with the connector key. */
  readonly api: ConnectorApi;
  private readonly transport: Transport;

  constructor(url: string, connectorKey: string) {
    this.transport = keptAlive(url);
    this.api = createClient<ConnectorPaths>({ baseUrl: url, headers: { authorization: `Bearer ${connectorKey}` }, fetch: this.transport.fetch, Request: this.transport.Request });
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.transport.close();
  }

  /** Turns what openapi-fetch returned (or threw) into an Answer; a failure to talk is a NetworkError. */
  private async answer<T>(what: string, signal: AbortSignal | undefined, run: () => Promise<Result>): Promise<Answer<T>> {
    let result: Result;
    try {
      result = await run();
    } catch (error) {
      if (signal?.aborted) throw error;
      const cause = (error as Error).cause as Error | undefined;
      throw new NetworkError(`${what}: ${(error as Error).message}${cause?.message ? ` (${cause.message})` : ''}`, { cause: error });
    }
    const { data, error, response } = result;
    // openapi-fetch hands back an error body that is not JSON as its text.
    if (typeof error === 'string' && error !== '') throw new NetworkError(`${what}: answered ${response.status} with a body that is not JSON`);
    return { status: response.status, body: ((response.ok ? data : error) || null) as T };
  }

  /** POSTs `body` as it is, unchecked: for tests that send what a host must not. */
  post<T = unknown>(path: ConnectorPost, body: unknown, signal?: AbortSignal): Promise<Answer<T>> {
    return this.answer(`POST ${path}`, signal, () => this.api.POST(path, { body: body as never, ...(signal ? { signal } : {}) }));
  }

  acquireLease(request: LeaseRequest, signal?: AbortSignal): Promise<Answer<Lease>> {
    return this.post('/v1/connector/lease', request, signal);
  }

  renewLease(epoch: number, signal?: AbortSignal): Promise<Answer<Lease>> {
    return this.post('/v1/connector/lease/renew', { epoch }, signal);
  }

  releaseLease(epoch: number): Promise<Answer<null>> {
    return this.post('/v1/connector/lease/release', { epoch });
  }

  /** A poll's answer; `renewedAfterMs` is missing from a server older than poll renewals. */
  dispatch(epoch: number, max: number | undefined, holding: string[], waitMs: number, signal?: AbortSignal): Promise<Answer<{ commands: DispatchedCommand[]; renewedAfterMs?: number }>> {
    return this.post('/v1/connector/dispatch', { epoch, ...(max === undefined ? {} : { max }), holding, waitMs }, signal);
  }

  settle(settlement: Settlement): Promise<Answer> {
    return this.post('/v1/connector/settlements', settlement);
  }

  /** Several settlements, each with its platform events, in one request (a server older than it answers 404). */
  settleBatch(epoch: number, settlements: BatchedSettlement[]): Promise<Answer<{ results: SettlementResult[] }>> {
    return this.post('/v1/connector/settlements/batch', { epoch, settlements });
  }

  reportPlatformEvents(epoch: number, events: PlatformEvent[]): Promise<Answer<{ recorded: number }>> {
    return this.post('/v1/connector/platform-events', { epoch, events });
  }

  uploadAttachment(epoch: number, attachmentId: string, fileName: string, mimeType: string, bytes: Uint8Array): Promise<Answer> {
    return this.answer(`PUT /v1/connector/attachments/{attachmentId}`, undefined, () =>
      this.api.PUT('/v1/connector/attachments/{attachmentId}', {
        params: { path: { attachmentId }, query: { fileName, epoch } },
        body: bytes as never,
        bodySerializer: (raw: unknown) => raw,
        headers: { 'content-type': mimeType },
      }),
    );
  }
}
