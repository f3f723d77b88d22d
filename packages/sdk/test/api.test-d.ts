/**
 * The SDK's typed surface, checked by the compiler: a misspelled field, a bad enum or a payload on
 * the wrong routing path is a compile error. A copy of this file as released lives under
 * test/compat/<version>/ and must keep compiling against later SDKs (see test/compat/README.md).
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { paths } from '@switchboard/contracts';
import {
  SwitchboardClient,
  SwitchboardError,
  parseCommand,
  routingPathOf,
  routingPathOfTarget,
  type Acknowledgement,
  type CommandHeldEvent,
  type CommandOutcome,
  type CommandReleasedEvent,
  type Delivery,
  type Message,
  type MessageDeliveredEvent,
  type MessageEditedEvent,
  type MessageFailedEvent,
  type MessageFailure,
  type MessagePage,
  type MessageReactionEvent,
  type MessageReadEvent,
  type MessageUnsentEvent,
  type OptInEventType,
  type ErrorCode,
  type Poll,
  type PollVotedEvent,
  type RoutingPath,
  type SettlementCode,
  type StreamItem,
  type SendToConversation,
  type SendToRecipient,
  type Transfer,
} from '@switchboard/sdk';
import { verifyWebhook, type MessageFailedEvent as WebhookMessageFailedEvent, type WebhookEvent } from '@switchboard/sdk/webhooks';

declare const client: SwitchboardClient;
const conversation = { kind: 'conversation', conversationId: '0190b7a4-0000-7000-8000-0000000000c1' } as const;

type SpecBody<P extends keyof paths> = paths[P] extends { post: { requestBody: { content: { 'application/json': infer B } } } } ? B : never;

describe('commands', () => {
  it('return the acknowledgement', () => {
    expectTypeOf(client.sendMessage({ target: conversation, payload: { text: 'hi' } })).resolves.toEqualTypeOf<Acknowledgement>();
    expectTypeOf<Acknowledgement['disposition']>().toEqualTypeOf<'queued' | 'adopted'>();
  });

  it('accept every payload kind the spec defines', () => {
    void client.sendMessage({ target: conversation, payload: { text: 'hi' } });
    void client.sendMessage({ target: conversation, payload: { kind: 'rich_text', text: 'hi', subject: 'S', effect: 'confetti', replyToMessageExternalId: 'm1' } });
    void client.sendMessage({ target: conversation, payload: { kind: 'rich_link', url: 'https://example.com' } });
    void client.sendMessage({ target: conversation, payload: { kind: 'poll', question: 'Lunch?', options: ['yes', 'no'] } });
    void client.sendMessage({ target: { kind: 'recipient', recipientExternalId: '+14155550123' }, payload: { text: 'hi' } });
    void client.applyTapback({ target: conversation, payload: { messageExternalId: 'm1', tapback: 'love', remove: false } });
    void client.applyReaction({ target: conversation, payload: { tapback: 'question' } });
    void client.shareNamePhoto({ target: conversation, payload: {} });
    void client.createGroup({ target: { kind: 'participants', participantExternalIds: ['+14155550123'] }, payload: { text: 'hi', name: 'Team' } });
    void client.updateGroup({ target: conversation, payload: { action: 'rename', name: 'Team' } });
    void client.updateGroup({ target: conversation, payload: { action: 'add_participant', participantExternalId: 'dana@example.com' } });
    void client.leaveGroup({ target: conversation, payload: {} });
  });

  it('reject a misspelled field', () => {
    // @ts-expect-error `txt` is not a field of any message payload
    void client.sendMessage({ target: conversation, payload: { txt: 'hi' } });
    // @ts-expect-error `efect` is not a field of rich_text
    void client.sendMessage({ target: conversation, payload: { kind: 'rich_text', text: 'hi', efect: 'confetti' } });
    // @ts-expect-error `conversationID` is not the target's field
    void client.applyReaction({ target: { kind: 'conversation', conversationID: 'x' }, payload: { tapback: 'love' } });
  });

  it('reject a bad enum value', () => {
    // @ts-expect-error `sparkles` is not a screen effect
    void client.sendMessage({ target: conversation, payload: { kind: 'rich_text', text: 'hi', effect: 'sparkles' } });
    // @ts-expect-error `wow` is not a tapback
    void client.applyTapback({ target: conversation, payload: { messageExternalId: 'm1', tapback: 'wow' } });
    // @ts-expect-error `archive` is not a group.update action
    void client.updateGroup({ target: conversation, payload: { action: 'archive' } });
  });

  it('reject rich fields without their kind', () => {
    // @ts-expect-error an effect needs `kind: 'rich_text'`; as plain text it would be dropped
    void client.sendMessage({ target: conversation, payload: { text: 'hi', effect: 'confetti' } });
  });

  it('reject rich content to a recipient: a recipient send carries plain text only', () => {
    // @ts-expect-error use sendRichToNewContact
    void client.sendMessage({ target: { kind: 'recipient', recipientExternalId: '+14155550123' }, payload: { kind: 'rich_text', text: 'hi', effect: 'confetti' } });
  });

  it('reject a target kind the command does not take', () => {
    // @ts-expect-error group.create is addressed by participants
    void client.createGroup({ target: conversation, payload: { text: 'hi' } });
    // @ts-expect-error a tapback needs an existing conversation
    void client.applyTapback({ target: { kind: 'recipient', recipientExternalId: '+14155550123' }, payload: { messageExternalId: 'm1', tapback: 'love' } });
  });

  it('offer Idempotency-Key only where the service honours it (agent-turn)', () => {
    void client.sendMessage({ target: conversation, payload: { text: 'hi' } }, { idempotencyKey: 'k' });
    void client.applyTapback({ target: conversation, payload: { messageExternalId: 'm1', tapback: 'love' } }, { idempotencyKey: 'k' });
    // @ts-expect-error the admin path ignores the key
    void client.sendMessage({ target: { kind: 'recipient', recipientExternalId: '+14155550123' }, payload: { text: 'hi' } }, { idempotencyKey: 'k' });
    // @ts-expect-error the admin path ignores the key
    void client.createGroup({ target: { kind: 'participants', participantExternalIds: ['a@example.com'] }, payload: { text: 'hi' } }, { idempotencyKey: 'k' });
  });

  it('take request bodies the spec accepts', () => {
    expectTypeOf<Parameters<SwitchboardClient['applyTapback']>[0]>().toExtend<SpecBody<'/v1/commands/reaction.tapback'>>();
    expectTypeOf<Parameters<SwitchboardClient['updateGroup']>[0]>().toExtend<SpecBody<'/v1/commands/group.update'>>();
    expectTypeOf<Parameters<SwitchboardClient['createGroup']>[0]>().toExtend<SpecBody<'/v1/commands/group.create'>>();
    expectTypeOf<Parameters<SwitchboardClient['sendRichToNewContact']>[1]>().toExtend<SpecBody<'/v1/commands/message.send'>['payload']>();
  });
});

describe('the stream', () => {
  it('narrows events on `type`', () => {
    const handle = (item: StreamItem) => {
      switch (item.type) {
        case 'message.received':
          expectTypeOf(item.data.text).toEqualTypeOf<string | null>();
          expectTypeOf(item.data.messageExternalId).toBeString();
          break;
        case 'command.settled':
          expectTypeOf(item.data.errorCode).toEqualTypeOf<SettlementCode | null>();
          expectTypeOf(item.data.errorMessage).toEqualTypeOf<string | null>();
          expectTypeOf(item.data.errorPath).toEqualTypeOf<string | null>();
          break;
        case 'conversation.appeared':
          expectTypeOf(item.data.commandId).toEqualTypeOf<string | null | undefined>();
          break;
        case 'reset':
          expectTypeOf(item.data.oldestId).toBeString();
          break;
        case 'message.sent':
        case 'group.renamed':
        case 'group.participants_changed':
          expectTypeOf(item.id).toBeString();
          break;
        default:
          expectTypeOf(item).toBeNever();
      }
    };
    void handle;
    expectTypeOf(client.events()).toExtend<AsyncIterable<StreamItem>>();
  });
});

describe('polls', () => {
  it('read a poll back with its tallies and voters', () => {
    expectTypeOf(client.getPoll('0190b7a4-0000-7000-8000-0000000000c2')).resolves.toEqualTypeOf<Poll>();
    expectTypeOf<Poll['options'][number]>().toEqualTypeOf<{ index: number; text: string; votes: number }>();
    expectTypeOf<Poll['voters'][number]['optionIndex']>().toBeNumber();
  });

  it('yield poll.voted only when asked: the default stream type stays as 0.1 knew it', () => {
    expectTypeOf(client.events()).toEqualTypeOf<AsyncGenerator<StreamItem, void, undefined>>();
    expectTypeOf(client.events({ after: '0' })).toEqualTypeOf<AsyncGenerator<StreamItem, void, undefined>>();
    expectTypeOf(client.events({ include: ['poll.voted'] })).toEqualTypeOf<AsyncGenerator<StreamItem | PollVotedEvent, void, undefined>>();
    // @ts-expect-error: only event types newer than 0.1 are opted into
    void client.events({ include: ['message.received'] });
    const handle = (item: StreamItem | PollVotedEvent) => {
      switch (item.type) {
        case 'poll.voted':
          expectTypeOf(item.data.change).toEqualTypeOf<'cast' | 'changed' | 'withdrawn'>();
          expectTypeOf(item.data.optionIndex).toEqualTypeOf<number | null>();
          expectTypeOf(item.data.pollId).toBeString();
          break;
        case 'reset':
        case 'command.settled':
        case 'conversation.appeared':
        case 'message.received':
        case 'message.sent':
        case 'group.renamed':
        case 'group.participants_changed':
          break;
        default:
          expectTypeOf(item).toBeNever();
      }
    };
    void handle;
  });
});

describe("a message's life", () => {
  it('yields the message events only when asked, each typed, and the default stream type stays as 0.1 knew it', () => {
    expectTypeOf(client.events({ after: 'now' })).toEqualTypeOf<AsyncGenerator<StreamItem, void, undefined>>();
    expectTypeOf(client.events({ include: ['message.delivered', 'message.read', 'message.failed'] })).toEqualTypeOf<
      AsyncGenerator<StreamItem | MessageDeliveredEvent | MessageReadEvent | MessageFailedEvent, void, undefined>
    >();
    expectTypeOf(client.events({ include: ['message.reaction', 'message.edited', 'message.unsent', 'poll.voted'] })).toEqualTypeOf<
      AsyncGenerator<StreamItem | MessageReactionEvent | MessageEditedEvent | MessageUnsentEvent | PollVotedEvent, void, undefined>
    >();
    expectTypeOf<OptInEventType>().toEqualTypeOf<'poll.voted' | 'message.delivered' | 'message.read' | 'message.failed' | 'message.reaction' | 'message.edited' | 'message.unsent' | 'command.held' | 'command.released'>();
    // @ts-expect-error: not an event type
    void client.events({ include: ['message.deleted'] });
    const handle = (item: StreamItem | MessageDeliveredEvent | MessageReadEvent | MessageFailedEvent | MessageReactionEvent | MessageEditedEvent | MessageUnsentEvent) => {
      switch (item.type) {
        case 'message.delivered':
          expectTypeOf(item.data.deliveredAt).toBeString();
          expectTypeOf(item.data.commandId).toEqualTypeOf<string | null>();
          break;
        case 'message.read':
          expectTypeOf(item.data.readAt).toBeString();
          break;
        case 'message.failed':
          expectTypeOf(item.data.reason).toEqualTypeOf<'not_delivered' | 'recipient_unreachable'>();
          expectTypeOf(item.data.platformMessage).toEqualTypeOf<string | null>();
          expectTypeOf(item.data.commandId).toEqualTypeOf<string | null>();
          break;
        case 'message.reaction':
          expectTypeOf(item.data.action).toEqualTypeOf<'added' | 'removed'>();
          expectTypeOf(item.data.reaction).toEqualTypeOf<'love' | 'like' | 'dislike' | 'laugh' | 'emphasize' | 'question'>();
          break;
        case 'message.edited':
          expectTypeOf(item.data.text).toBeString();
          break;
        case 'message.unsent':
          expectTypeOf(item.data.unsentAt).toBeString();
          break;
        case 'reset':
        case 'command.settled':
        case 'conversation.appeared':
        case 'message.received':
        case 'message.sent':
        case 'group.renamed':
        case 'group.participants_changed':
          break;
        default:
          expectTypeOf(item).toBeNever();
      }
    };
    void handle;
  });

  it("awaits a message's state and answers the state reached, the message narrowed on it", () => {
    expectTypeOf(client.delivered('c', { until: 'read', timeoutMs: 30_000, after: 'now', signal: AbortSignal.timeout(1) })).resolves.toEqualTypeOf<Delivery>();
    // @ts-expect-error: a message is delivered or read, nothing else is waited for
    void client.delivered('c', { until: 'sent' });
    const check = (delivery: Delivery) => {
      expectTypeOf(delivery.state).toEqualTypeOf<'queued' | 'sent' | 'delivered' | 'read' | 'failed'>();
      expectTypeOf(delivery.reached).toBeBoolean();
      expectTypeOf(delivery.timedOut).toBeBoolean();
      if (delivery.state === 'queued') expectTypeOf(delivery.message).toBeNull();
      if (delivery.state === 'sent') expectTypeOf(delivery.message).toEqualTypeOf<Message | null>();
      if (delivery.state === 'delivered' || delivery.state === 'read') expectTypeOf(delivery.message.deliveredAt).toEqualTypeOf<string | null>();
      if (delivery.state === 'failed') {
        expectTypeOf(delivery.message.failure).toEqualTypeOf<MessageFailure>();
        expectTypeOf(delivery.message.failedAt).toBeString();
      }
    };
    void check;
  });

  it("reads a conversation's messages, and the message a command sent", () => {
    expectTypeOf(client.listMessages('c', { limit: 50, cursor: undefined })).resolves.toEqualTypeOf<MessagePage>();
    expectTypeOf<MessagePage>().toEqualTypeOf<{ messages: Message[]; nextCursor: string | null }>();
    const check = async () => {
      const command = await client.getCommand('c');
      expectTypeOf(command.message).toEqualTypeOf<Message | null | undefined>();
      const message = (await client.listMessages('c')).messages[0]!;
      expectTypeOf(message.direction).toEqualTypeOf<'outbound' | 'inbound'>();
      expectTypeOf(message.failure).toEqualTypeOf<MessageFailure | null>();
      expectTypeOf(message.readAt).toEqualTypeOf<string | null>();
    };
    void check;
  });
});

describe('webhooks', () => {
  it('type every event a delivery can carry, the message events included', () => {
    expectTypeOf(verifyWebhook('whsec_x', '{}', {})).resolves.toEqualTypeOf<WebhookEvent>();
    expectTypeOf<WebhookMessageFailedEvent>().toEqualTypeOf<MessageFailedEvent>();
    const handle = (event: WebhookEvent) => {
      if (event.type === 'message.failed') expectTypeOf(event.data.reason).toEqualTypeOf<'not_delivered' | 'recipient_unreachable'>();
      if (event.type === 'message.read') expectTypeOf(event.data.readAt).toBeString();
      if (event.type === 'message.reaction') expectTypeOf(event.data.messageExternalId).toBeString();
      expectTypeOf<Extract<WebhookEvent, { type: 'message.delivered' }>>().toEqualTypeOf<MessageDeliveredEvent>();
    };
    void handle;
  });
});

describe('command bodies built at run time', () => {
  it('take unknown and narrow it to the command type\'s request', () => {
    const input: unknown = JSON.parse('{}');
    expectTypeOf(client.sendCommand('message.send', input)).resolves.toEqualTypeOf<Acknowledgement>();
    expectTypeOf(client.sendCommand('group.update', input, { idempotencyKey: undefined })).resolves.toEqualTypeOf<Acknowledgement>();
    const check = async () => {
      const update = await parseCommand('group.update', input);
      expectTypeOf(update.payload.action).toEqualTypeOf<'rename' | 'add_participant' | 'remove_participant' | 'set_photo'>();
      expectTypeOf(await parseCommand('message.send', input)).toEqualTypeOf<SendToConversation | SendToRecipient>();
      void client.applyTapback(await parseCommand('reaction.tapback', input));
    };
    void check;
  });
});

describe('routing paths', () => {
  it('name the path of a command type for a target; routingPathOf stays as its deprecated alias', () => {
    expectTypeOf(routingPathOfTarget('message.send', conversation)).toEqualTypeOf<RoutingPath>();
    expectTypeOf(routingPathOf).toEqualTypeOf(routingPathOfTarget);
  });
});

describe('outcomes and errors', () => {
  it('narrows a settlement on its status', () => {
    const check = (outcome: CommandOutcome) => {
      if (outcome.status === 'failed') expectTypeOf(outcome.errorCode).toEqualTypeOf<SettlementCode>();
      else expectTypeOf(outcome.errorCode).toBeNull();
    };
    void check;
  });

  it('says why a command failed, for people, on the outcome and the command resource', () => {
    const check = async (outcome: CommandOutcome) => {
      if (outcome.status === 'failed') {
        expectTypeOf(outcome.errorMessage).toEqualTypeOf<string | null>();
        expectTypeOf(outcome.errorPath).toEqualTypeOf<string | null>();
      } else {
        expectTypeOf(outcome.errorMessage).toBeNull();
        expectTypeOf(outcome.errorPath).toBeNull();
      }
      const command = await client.getCommand(outcome.commandId);
      expectTypeOf(command.errorMessage).toEqualTypeOf<string | null>();
      expectTypeOf(command.errorPath).toEqualTypeOf<string | null>();
    };
    void check;
  });

  it('types the error code and narrows the body on it', () => {
    const check = (error: SwitchboardError) => {
      expectTypeOf(error.code).toEqualTypeOf<ErrorCode>();
      expectTypeOf(error.status).toBeNumber();
      expectTypeOf(error.requestId).toEqualTypeOf<string | undefined>();
      if (error.body.error === 'invalid_recipient_address') {
        expectTypeOf(error.body.field).toBeString();
        expectTypeOf(error.body.reason).toEqualTypeOf<'not_a_string' | 'not_a_phone_number_or_email' | 'invalid_phone_number' | 'invalid_email'>();
      }
      if (error.body.error === 'rate_limited') expectTypeOf(error.body.retryAfterSeconds).toBeNumber();
    };
    void check;
  });

  it('narrows the body on the code, after instanceof', () => {
    const check = (error: unknown) => {
      if (!(error instanceof SwitchboardError)) return;
      if (error.code === 'rate_limited') expectTypeOf(error.body.retryAfterSeconds).toBeNumber();
      if (error.code === 'cursor_expired') expectTypeOf(error.body.oldestId).toBeString();
      if (error.code === 'unknown_command') expectTypeOf(error.body.command).toBeString();
      if (error.code === 'invalid_participant_address') {
        expectTypeOf(error.body.field).toBeString();
        expectTypeOf(error.body.error).toEqualTypeOf<'invalid_participant_address'>();
      }
      if (error.code === 'no_live_connector') {
        // @ts-expect-error: only a 429 carries retryAfterSeconds
        void error.body.retryAfterSeconds;
        expectTypeOf(error.body.message).toBeString();
      }
      expectTypeOf(error.retry).toEqualTypeOf<'never' | 'after' | 'backoff'>();
    };
    void check;
  });
});

describe('held commands', () => {
  it('yields command.held and command.released only when asked, typed; an acknowledgement may say held', () => {
    expectTypeOf(client.events({ include: ['command.held', 'command.released'] })).toEqualTypeOf<
      AsyncGenerator<StreamItem | CommandHeldEvent | CommandReleasedEvent, void, undefined>
    >();
    expectTypeOf<CommandHeldEvent['data']['policy']>().toEqualTypeOf<'quietHours' | 'firstContactApproval'>();
    expectTypeOf<CommandReleasedEvent['data']['by']>().toEqualTypeOf<'window' | 'policy_change' | 'operator'>();
    expectTypeOf<Acknowledgement['status']>().toEqualTypeOf<'queued' | 'succeeded' | 'failed' | 'held'>();
  });
});

describe('transfers', () => {
  it("upload answers the Transfer; contentType may be left out for a Blob only, whose own type it takes", () => {
    expectTypeOf(client.transfers.upload(new Blob(['hi'], { type: 'text/plain' }), { fileName: 'hi.txt' })).resolves.toEqualTypeOf<Transfer>();
    expectTypeOf<Transfer>().toHaveProperty('sha256').toBeString();
    void client.transfers.upload(new Uint8Array([1]), { fileName: 'a.png', contentType: 'image/png' });
    void client.transfers.upload(new ReadableStream<Uint8Array>(), { fileName: 'a.png', contentType: 'image/png' });
    // @ts-expect-error: bytes carry no media type of their own
    void client.transfers.upload(new Uint8Array([1]), { fileName: 'a.png' });
    // @ts-expect-error: the name the recipient sees is required
    void client.transfers.upload(new Blob(['hi'], { type: 'text/plain' }), {});
  });

  it('attachment and sticker payloads take the transferId', () => {
    const check = async () => {
      const { transferId } = await client.transfers.upload(new Blob(['hi'], { type: 'image/png' }), { fileName: 'a.png' });
      void client.sendMessage({ target: conversation, payload: { kind: 'attachment', transferId } });
      void client.sendMessage({ target: conversation, payload: { kind: 'sticker', transferId } });
    };
    void check;
  });
});
