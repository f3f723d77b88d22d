import { createHash } from 'node:crypto';
import type { Capability, DispatchedCommand, SettlementCode } from '@switchboard/contracts';
import type { Answer, TransferAnswer } from '@switchboard/connector-client';
import { replay } from '../driver/replay.ts';
import type { ActionRef, Driver, Media, Outcome, OutcomeResult, OutgoingContent, ReportableEvent } from '../driver/types.ts';
import { checkCapabilities } from './capabilities.ts';
import { Slots } from './slots.ts';
import { validate, type MessageSendPayload, type Plan } from './validate.ts';

/** How many commands may hold fetched media at once (each up to 100 MB). */
export const MEDIA_SLOTS = 4;

/** How a command ended on this host: its settlement, and the platform events to report before it. */
export interface Execution {
  status: 'succeeded' | 'failed';
  errorCode: SettlementCode | null;
  /** Why: on a failure, the client's errorMessage; on a success, a note for the logs. */
  detail?: string;
  /** Where in the request body a failure is (a JSON Pointer), when it is about one place. */
  errorPath?: string;
  events: ReportableEvent[];
  /** The platform already showed the command's logical action; nothing was done again. */
  replayed: boolean;
}

const SETTLEMENT_CODE: Record<Exclude<OutcomeResult, 'confirmed'>, SettlementCode> = {
  gateway_rejected: 'gateway_rejected',
  send_not_ok: 'send_returned_not_ok',
  accepted_no_echo: 'accepted_echo_unconfirmed',
  invalid_target: 'invalid_target',
  stale_target: 'stale_target',
  group_update_unverified: 'group_update_unverified',
  no_message_to_react_to: 'no_message_to_react_to',
};

/** The execution (settlement and events) a driver outcome stands for: only a confirmed (echoed) action succeeds. */
export function executionOf(outcome: Outcome): Execution {
  const replayed = outcome.replayed === true;
  const detail = outcome.detail === undefined ? {} : { detail: outcome.detail };
  if (outcome.result === 'confirmed') return { status: 'succeeded', errorCode: null, ...detail, events: outcome.events, replayed };
  return { status: 'failed', errorCode: SETTLEMENT_CODE[outcome.result], ...detail, events: outcome.events, replayed };
}

function failed(errorCode: SettlementCode, detail: string, errorPath?: string): Execution {
  return { status: 'failed', errorCode, detail, ...(errorPath === undefined ? {} : { errorPath }), events: [], replayed: false };
}

/**
 * Fetches the media a command names (ConnectorClient.fetchTransfer, bound to the host's client);
 * `signal` is the lease's end, so a stalled fetch stops with the lease.
 */
export type TransferSource = (transferId: string, command: DispatchedCommand, signal?: AbortSignal) => Promise<TransferAnswer>;

/** With no source (transfers never fetched), every transferId names nothing: the service specification's behaviour. */
const NO_TRANSFERS: TransferSource = async () => ({ result: 'not_found', error: { error: 'transfer_not_found', message: '' } });

/**
 * The server answered a transfer fetch with something other than the media or 404 (lease lost,
 * 5xx, 429...). Thrown like any other failure to execute, so the host tries again while its
 * lease lives (the fetch is a read; trying again does nothing twice).
 */
export class TransferFetchRefused extends Error {
  override readonly name = 'TransferFetchRefused';
  readonly answer: Answer;
  constructor(transferId: string, answer: Answer) {
    super(`fetching transferId "${transferId}": the server answered ${answer.status}`);
    this.answer = answer;
  }
}

/** Payloads that name media by transferId (uploaded with POST /v1/transfers, when the server has transfers on). */
function transferIdOf(plan: Plan): string | null {
  if (plan.type === 'message.send' && plan.target === 'conversation' && 'transferId' in plan.payload) return plan.payload.transferId;
  if (plan.type === 'group.update' && plan.payload.action === 'set_photo') return plan.payload.transferId;
  return null;
}

/** Stickers and group photos are images: other media settles transfer_unavailable, as the spec's "Transfers" says. */
function imageRule(plan: Plan, transferId: string, media: Media): Execution | null {
  const needsImage = (plan.type === 'message.send' && plan.target === 'conversation' && 'kind' in plan.payload && plan.payload.kind === 'sticker') || (plan.type === 'group.update' && plan.payload.action === 'set_photo');
  if (!needsImage || media.mimeType.startsWith('image/')) return null;
  const what = plan.type === 'group.update' ? 'a group photo' : 'a sticker';
  return failed('transfer_unavailable', `transferId "${transferId}" is ${media.mimeType}, not an image: ${what} needs an image (image/*); nothing was sent`, '/payload/transferId');
}

/** A rule of the command type about the kind of conversation it acts on, or null when it holds. */
function conversationKindRule(plan: Plan): Execution | null {
  if ((plan.type === 'reaction.apply' || plan.type === 'name_photo.share') && plan.conversation.kind !== 'direct') {
    return failed('direct_conversation_required', `${plan.type} acts on a direct conversation; this one is a group`, '/target/conversationId');
  }
  if ((plan.type === 'group.update' || plan.type === 'group.leave') && plan.conversation.kind !== 'group') {
    return failed('invalid_target', `${plan.type} acts on a group; this conversation is direct`, '/target/conversationId');
  }
  return null;
}

function contentOf(payload: MessageSendPayload, media: Media | null): OutgoingContent {
  if (!('kind' in payload)) return { kind: 'text', text: payload.text };
  if (payload.kind === 'attachment' || payload.kind === 'sticker') {
    if (!media) throw new Error('a media kind reaches the driver only with its fetched media');
    return { kind: payload.kind, media };
  }
  return payload;
}

const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * The media a transferId names, or the transfer_unavailable failure when there is none to use:
 * 404 (transfers off, the id unknown, another account's, expired or still uploading), or bytes
 * that do not match the checksum the server stored (never sent as they are). Any other answer
 * throws, and the host tries the command again.
 */
async function fetchMedia(source: TransferSource, transferId: string, command: DispatchedCommand, signal?: AbortSignal): Promise<Media | Execution> {
  const answer = await source(transferId, command, signal);
  if (answer.result === 'not_found') {
    return failed('transfer_unavailable', `transferId "${transferId}" names no usable transfer: transfers are turned off on the server, or it is unknown, expired, still uploading or another account's`, '/payload/transferId');
  }
  if (answer.result === 'other') throw new TransferFetchRefused(transferId, answer.answer);
  const { fileName, mimeType, sha256, bytes } = answer.transfer;
  const actual = sha256Of(bytes);
  if (actual !== sha256) {
    return failed('transfer_unavailable', `transferId "${transferId}": the ${bytes.byteLength} bytes fetched have SHA-256 ${actual}, not the transfer's ${sha256 || '(none given)'}; nothing was sent`, '/payload/transferId');
  }
  return { fileName, mimeType, bytes };
}

/**
 * Decides and carries out one dispatched command: payload, capabilities and conversation-kind
 * rules first (they need no platform), then the platform's own record of the logical action,
 * then the media a transferId names (fetched from the server), and only then the driver.
 */
export class Executor {
  private readonly driver: Driver;
  private readonly capabilities: readonly Capability[];
  private readonly transfers: TransferSource;
  /** Commands holding fetched media at once: 4 files of 100 MB, not one per lane in flight. */
  private readonly media: Slots;

  constructor(driver: Driver, capabilities: readonly Capability[], transfers: TransferSource = NO_TRANSFERS, mediaSlots = MEDIA_SLOTS) {
    this.driver = driver;
    this.capabilities = capabilities;
    this.transfers = transfers;
    this.media = new Slots(mediaSlots);
  }

  /** `signal`: the lease's end, which stops a media fetch still under way. */
  async execute(command: DispatchedCommand, signal?: AbortSignal): Promise<Execution> {
    const validation = validate(command);
    if (!validation.ok) return failed(validation.code, validation.detail, validation.path);
    const { plan } = validation;

    const capability = checkCapabilities(plan, this.capabilities);
    if (!capability.ok) return failed('capability_constraint_violation', capability.detail);

    const kindRule = conversationKindRule(plan);
    if (kindRule) return kindRule;

    const action: ActionRef = { commandId: command.commandId, logicalActionId: command.logicalActionId, acceptedAt: command.acceptedAt };
    // A command dispatched again after a failover may already be done on the platform.
    const done = await this.driver.findExecuted(command.logicalActionId);
    if (done) return executionOf(replay(done, action));

    // Fetched last, once nothing else can refuse the command: the bytes are the largest thing a command needs.
    const transferId = transferIdOf(plan);
    if (transferId === null) return executionOf(await this.drive(plan, action, null));
    // The bytes are held from the fetch until the driver is done with them.
    const release = await this.media.take();
    try {
      const fetched = await fetchMedia(this.transfers, transferId, command, signal);
      if ('status' in fetched) return fetched;
      return imageRule(plan, transferId, fetched) ?? executionOf(await this.drive(plan, action, fetched));
    } finally {
      release();
    }
  }

  private drive(plan: Plan, action: ActionRef, media: Media | null): Promise<Outcome> {
    const { driver } = this;
    switch (plan.type) {
      case 'message.send':
        return plan.target === 'recipient'
          ? driver.sendToRecipient(action, plan.recipientExternalId, plan.text)
          : driver.sendToConversation(action, plan.conversation, contentOf(plan.payload, media));
      case 'reaction.tapback':
        return driver.tapback(action, plan.conversation, plan.payload.messageExternalId, plan.payload.tapback, plan.payload.remove ?? false);
      case 'reaction.apply':
        return driver.reactToNewestIncoming(action, plan.conversation, plan.payload.tapback);
      case 'name_photo.share':
        return driver.shareNamePhoto(action, plan.conversation);
      case 'group.create':
        return driver.createGroup(action, plan.participants, plan.payload.text, plan.payload.name ?? null);
      case 'group.leave':
        return driver.leaveGroup(action, plan.conversation);
      case 'group.update': {
        const { payload } = plan;
        switch (payload.action) {
          case 'rename':
            return driver.renameGroup(action, plan.conversation, payload.name);
          case 'add_participant':
            return driver.addParticipant(action, plan.conversation, payload.participantExternalId);
          case 'remove_participant':
            return driver.removeParticipant(action, plan.conversation, payload.participantExternalId);
          case 'set_photo':
            if (!media) throw new Error('set_photo reaches the driver only with its fetched media');
            return driver.setGroupPhoto(action, plan.conversation, media);
        }
      }
    }
  }
}
