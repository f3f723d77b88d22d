import { randomUUID } from 'node:crypto';
import { ConnectorClient, type Answer, type ConnectorPost } from '@switchboard/connector-client';
import type { DispatchedCommand, PlatformEvent, SettlementCode } from '@switchboard/contracts';

/** The answer, or an error naming what was asked and what came back. */
function expectStatus<T>(answer: Answer<T>, status: number, what: string): T {
  if (answer.status !== status) throw new Error(`${what} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/**
 * A connector host played by a test over the connector protocol, through the same client the
 * connector app uses: takes the lease, reports platform events, receives and settles commands.
 * It stands in for apps/connector, which tests of other packages must not import.
 */
export class TestHost {
  epoch = 0;
  /** Commands dispatched to this epoch and not yet settled: every poll lists them. */
  readonly holding = new Set<string>();
  readonly key: string;
  readonly hostId: string;
  client: ConnectorClient;
  #url: string;

  constructor(url: string, connectorKey: string, hostId = `test-host-${randomUUID()}`) {
    this.#url = url;
    this.key = connectorKey;
    this.hostId = hostId;
    this.client = new ConnectorClient(url, connectorKey);
  }

  get url(): string {
    return this.#url;
  }

  /** After a server restart the same host (same hostId) talks to the new process. */
  set url(url: string) {
    this.#url = url;
    this.client = new ConnectorClient(url, this.key);
  }

  /** POSTs `body` unchecked to `/v1/connector/<path>`, and answers whatever the server did. */
  call<T = any>(path: ConnectorPost extends `/v1/connector/${infer P}` ? P : never, body: unknown, signal?: AbortSignal): Promise<Answer<T>> {
    return this.client.post<T>(`/v1/connector/${path}` as ConnectorPost, body, signal);
  }

  async lease(capabilities: unknown[] = [], osMajorVersion = 15): Promise<this> {
    const lease = expectStatus(await this.call('lease', { hostId: this.hostId, osMajorVersion, capabilities }), 200, 'lease');
    this.epoch = lease.epoch;
    this.holding.clear();
    return this;
  }

  async renew(): Promise<void> {
    expectStatus(await this.client.renewLease(this.epoch), 200, 'lease renewal');
  }

  async release(): Promise<void> {
    expectStatus(await this.client.releaseLease(this.epoch), 204, 'lease release');
  }

  async report(events: PlatformEvent[]): Promise<{ recorded: number }> {
    return expectStatus(await this.client.reportPlatformEvents(this.epoch, events), 200, 'platform events');
  }

  async dispatch(waitMs = 0, signal?: AbortSignal): Promise<DispatchedCommand[]> {
    const { commands } = expectStatus(await this.client.dispatch(this.epoch, undefined, [...this.holding], waitMs, signal), 200, 'dispatch');
    for (const command of commands) this.holding.add(command.commandId);
    return commands;
  }

  /** Settles under the current epoch (saying why, when `why` does) and answers what the server did (a 409 too). */
  async settle(commandId: string, status: 'succeeded' | 'failed', errorCode: SettlementCode | null = null, why: { errorMessage?: string; errorPath?: string; detail?: string } = {}): Promise<Answer> {
    const answer = await this.client.settle({ epoch: this.epoch, commandId, status, errorCode, ...why });
    if (answer.status === 200 || answer.status === 409) this.holding.delete(commandId);
    return answer;
  }

  async upload(attachmentId: string, fileName: string, mimeType: string, bytes: Uint8Array): Promise<void> {
    expectStatus(await this.client.uploadAttachment(this.epoch, attachmentId, fileName, mimeType, bytes), 201, 'attachment upload');
  }
}
