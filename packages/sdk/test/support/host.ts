/**
 * A connector host played by the tests over the connector protocol (specs/openapi/connector.yaml):
 * takes the account's lease, announces conversations, receives commands and settles them. It
 * stands in for apps/connector, which tests must not import.
 */
import { connectorSchemas, schemas, type DispatchedCommand, type PlatformEvent, type SettlementCode } from '@switchboard/contracts';
import { randomUUID } from 'node:crypto';

export interface Account {
  accountId: string;
  apiKey: string;
  connectorKey: string;
}

export class TestHost {
  epoch = 0;
  /** Commands dispatched to this epoch and not yet settled: every poll lists them. */
  readonly holding = new Set<string>();
  readonly hostId = `sdk-test-host-${randomUUID()}`;

  /** Mutable: after a server restart the same host (same hostId) talks to the new process. */
  url: string;
  readonly account: Account;

  constructor(url: string, account: Account) {
    this.url = url;
    this.account = account;
  }

  async call<T = unknown>(path: string, body: unknown, signal?: AbortSignal): Promise<T> {
    const response = await fetch(`${this.url}/v1/connector/${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.account.connectorKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      ...(signal ? { signal } : {}),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`connector ${path} answered ${response.status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  async lease(capabilities: unknown[] = [], osMajorVersion = 15): Promise<this> {
    const lease = await this.call<{ epoch: number }>('lease', { hostId: this.hostId, osMajorVersion, capabilities });
    this.epoch = lease.epoch;
    this.holding.clear();
    return this;
  }

  async renew(): Promise<void> {
    await this.call('lease/renew', { epoch: this.epoch });
  }

  async release(): Promise<void> {
    await this.call('lease/release', { epoch: this.epoch });
  }

  report(events: PlatformEvent[]): Promise<unknown> {
    return this.call('platform-events', { epoch: this.epoch, events });
  }

  /** Announces a conversation and returns the conversationId the service gave it. */
  async conversation(kind: 'direct' | 'group', participants: string[], name: string | null = null): Promise<{ conversationId: string; externalId: string }> {
    const externalId = `chat-${randomUUID()}`;
    const after = await this.head();
    await this.report([{ type: 'conversation.appeared', externalId, conversationKind: kind, name, participants }]);
    const page = await this.read(`/v1/events?after=${after}&limit=1000`);
    const appeared = page.events.find((e) => e.type === 'conversation.appeared');
    if (!appeared) throw new Error('the announced conversation did not appear on the stream');
    return { conversationId: appeared.data.conversationId as string, externalId };
  }

  /** Someone writes to the account. */
  received(conversationExternalId: string, text: string, messageExternalId = `msg-${randomUUID()}`, attachments: Array<{ attachmentId: string; fileName: string; mimeType: string; byteSize: number }> = []) {
    return this.report([{ type: 'message.received', conversationExternalId, messageExternalId, senderExternalId: '+14155550123', text, attachments, receivedAt: new Date().toISOString() }]);
  }

  async upload(attachmentId: string, fileName: string, mimeType: string, bytes: Uint8Array<ArrayBuffer>): Promise<void> {
    const response = await fetch(`${this.url}/v1/connector/attachments/${attachmentId}?fileName=${encodeURIComponent(fileName)}&epoch=${this.epoch}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${this.account.connectorKey}`, 'content-type': mimeType },
      body: bytes,
    });
    if (response.status !== 201) throw new Error(`upload answered ${response.status}: ${await response.text()}`);
  }

  async dispatch(waitMs = 0, signal?: AbortSignal): Promise<DispatchedCommand[]> {
    const body = await this.call<{ commands: DispatchedCommand[] }>('dispatch', { epoch: this.epoch, holding: [...this.holding], waitMs }, signal);
    for (const command of body.commands) this.holding.add(command.commandId);
    return body.commands;
  }

  async settle(commandId: string, status: 'succeeded' | 'failed', errorCode: SettlementCode | null = null) {
    const answer = await this.call('settlements', { epoch: this.epoch, commandId, status, errorCode });
    this.holding.delete(commandId);
    return answer;
  }

  /** The id of the newest event on the account's stream (the JSON form, read with the API key). */
  async head(): Promise<string> {
    let after = '0';
    for (;;) {
      const page = await this.read(`/v1/events?after=${after}&limit=1000`);
      if (page.nextAfter === after) return after;
      after = page.nextAfter;
    }
  }

  async read(path: string): Promise<{ events: Array<{ id: string; type: string; data: Record<string, unknown> }>; nextAfter: string }> {
    const response = await fetch(`${this.url}${path}`, { headers: { authorization: `Bearer ${this.account.apiKey}`, accept: 'application/json' } });
    if (!response.ok) throw new Error(`GET ${path} answered ${response.status}: ${await response.text()}`);
    return response.json() as never;
  }
}

export type Execution = { status: 'succeeded'; events?: PlatformEvent[] } | { status: 'failed'; errorCode: SettlementCode };

const payloadSchemas: Record<string, { safeParse(v: unknown): { success: boolean } }> = {
  'reaction.tapback': schemas.zReactionTapbackPayload,
  'reaction.apply': schemas.zReactionApplyPayload,
  'name_photo.share': schemas.zNamePhotoSharePayload,
  'group.create': schemas.zGroupCreatePayload,
  'group.update': schemas.zGroupUpdatePayload,
  'group.leave': schemas.zGroupLeavePayload,
};

/**
 * What a platform would do with a command, roughly: validate the payload as a real host does
 * (`payload_invalid`), then report what happened (a new conversation for a recipient send or a
 * group.create, the sent message, the rename) and succeed.
 */
export function simulate(command: DispatchedCommand): Execution {
  const { target, payload, type, commandId } = command;
  const schema = type === 'message.send' ? (target.kind === 'recipient' ? schemas.zRecipientSendPayload : schemas.zMessageSendPayload) : payloadSchemas[type]!;
  if (!schema.safeParse(payload).success) return { status: 'failed', errorCode: 'payload_invalid' };
  if ('transferId' in payload) return { status: 'failed', errorCode: 'transfer_unavailable' };
  if (target.kind === 'recipient') {
    const externalId = `chat-${randomUUID()}`;
    return {
      status: 'succeeded',
      events: [
        { type: 'conversation.appeared', externalId, conversationKind: 'direct', name: null, participants: [target.recipientExternalId], commandId },
        { type: 'message.sent', conversationExternalId: externalId, messageExternalId: `sent-${commandId}`, commandId },
      ],
    };
  }
  if (target.kind === 'participants') {
    const name = (payload as { name?: string }).name ?? null;
    return { status: 'succeeded', events: [{ type: 'conversation.appeared', externalId: `group-${randomUUID()}`, conversationKind: 'group', name, participants: target.participantExternalIds, commandId }] };
  }
  if (type === 'message.send') {
    return { status: 'succeeded', events: [{ type: 'message.sent', conversationExternalId: target.externalId, messageExternalId: `sent-${commandId}`, commandId }] };
  }
  if (type === 'group.update' && (payload as { action?: string }).action === 'rename') {
    return { status: 'succeeded', events: [{ type: 'group.renamed', conversationExternalId: target.externalId, name: (payload as { name: string }).name, commandId }] };
  }
  return { status: 'succeeded' };
}

/**
 * The host's work loop: long-polls dispatch (the service answers as soon as a command is
 * queued) and executes each command with `execute`; renews the lease every 5 s, as a real host
 * does well within the 15 s TTL. `executed` lists every command handled.
 */
export class HostLoop {
  readonly executed: DispatchedCommand[] = [];
  private readonly controller = new AbortController();
  private readonly done: Promise<void>;
  private waiters: Array<{ count: number; resolve: () => void }> = [];

  readonly host: TestHost;
  private readonly execute: (command: DispatchedCommand) => Execution | Promise<Execution>;

  constructor(host: TestHost, execute: (command: DispatchedCommand) => Execution | Promise<Execution> = simulate) {
    this.host = host;
    this.execute = execute;
    this.done = this.run();
    this.renewal = setInterval(() => void this.host.renew().catch(() => undefined), 5_000);
  }

  private readonly renewal: ReturnType<typeof setInterval>;

  private async run(): Promise<void> {
    const { signal } = this.controller;
    while (!signal.aborted) {
      let commands: DispatchedCommand[];
      try {
        commands = await this.host.dispatch(20_000, signal);
      } catch (error) {
        if (signal.aborted) return;
        throw error;
      }
      for (const command of commands) {
        connectorSchemas.zDispatchedCommand.parse(command);
        const result = await this.execute(command);
        // Recorded before it is reported: a test that saw the command event must find it here.
        this.executed.push(command);
        if (result.status === 'succeeded' && result.events?.length) await this.host.report(result.events);
        await this.host.settle(command.commandId, result.status, result.status === 'failed' ? result.errorCode : null);
        this.settled++;
        this.waiters = this.waiters.filter((w) => (this.settled >= w.count ? (w.resolve(), false) : true));
      }
    }
  }

  private settled = 0;

  /** Resolves once `count` commands in all have been executed and settled. */
  handled(count: number): Promise<void> {
    if (this.settled >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  async stop(): Promise<void> {
    clearInterval(this.renewal);
    this.controller.abort();
    await this.done;
  }
}
