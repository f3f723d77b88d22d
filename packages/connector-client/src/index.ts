/**
 * The host side of specs/openapi/connector.yaml, one method per operation, over the generated
 * `ConnectorPaths`. It only speaks HTTP: deciding what an answer means (retry, lease lost, give
 * up) is the caller's concern.
 */
import createClient, { type Client } from 'openapi-fetch';
import { connectorErrorCatalog, type ConnectorErrorCode } from '@switchboard/contracts/catalog';
import { fileNameOf, mimeTypeOf, type Transfer } from './transfer.ts';
import { keptAlive, type Transport } from './transport.ts';
import type { BatchedSettlement, ConnectorComponents, ConnectorPaths, DispatchedCommand, Lease, LeaseRequest, PlatformEvent, Settlement, SettlementResult } from '@switchboard/contracts';

export type ConnectorApi = Client<ConnectorPaths>;
export type { Transfer } from './transfer.ts';

/**
 * What `GET /v1/connector/transfers/{transferId}` answered: the media; no usable transfer (404:
 * transfers off, or the id unknown, another account's, still uploading or expired; a server older
 * than transfers answers 404 too); or any other answer as it is (lease lost, 5xx...).
 */
export type TransferAnswer =
  | { result: 'found'; transfer: Transfer }
  | { result: 'not_found'; error: ErrorBody }
  | { result: 'other'; answer: Answer };

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

  /** The media a dispatched command names; a failure to talk is a NetworkError, as for every call. */
  async fetchTransfer(transferId: string, command: { commandId: string; epoch: number }, signal?: AbortSignal): Promise<TransferAnswer> {
    let response: Response | undefined;
    const answer = await this.answer<ArrayBuffer>('GET /v1/connector/transfers/{transferId}', signal, async () => {
      const result = await this.api.GET('/v1/connector/transfers/{transferId}', {
        params: { path: { transferId }, query: { commandId: command.commandId, epoch: command.epoch } },
        parseAs: 'arrayBuffer',
        ...(signal ? { signal } : {}),
      });
      response = result.response;
      return result;
    });
    if (answer.status === 404) return { result: 'not_found', error: errorOf(answer) };
    if (answer.status !== 200 || !response) return { result: 'other', answer };
    const { headers } = response;
    return {
      result: 'found',
      transfer: {
        fileName: fileNameOf(headers.get('content-disposition')) ?? transferId,
        mimeType: mimeTypeOf(headers.get('content-type')),
        sha256: (headers.get('x-switchboard-sha256') ?? '').trim().toLowerCase(),
        // An empty body has no data (openapi-fetch reads none for Content-Length 0).
        bytes: answer.body ? new Uint8Array(answer.body) : new Uint8Array(0),
      },
    };
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
