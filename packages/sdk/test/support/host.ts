import { TestHost as BaseTestHost } from '@switchboard/testkit';
import { connectorSchemas, schemas, type DispatchedCommand, type PlatformEvent, type SettlementCode } from '@switchboard/contracts';
import { randomUUID } from 'node:crypto';

export interface Account {
  accountId: string;
  apiKey: string;
  connectorKey: string;
}

/** The test's connector host; it finds what it announced on the account's stream. */
export class TestHost extends BaseTestHost {
  readonly account: Account;

  constructor(url: string, account: Account) {
    super(url, account.connectorKey, `sdk-test-host-${randomUUID()}`);
    this.account = account;
  }

  /** Settles, and fails unless the service recorded it. */
  override async settle(commandId: string, status: 'succeeded' | 'failed', errorCode: SettlementCode | null = null) {
    const answer = await super.settle(commandId, status, errorCode);
    if (answer.status !== 200) throw new Error(`settlement answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer;
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
