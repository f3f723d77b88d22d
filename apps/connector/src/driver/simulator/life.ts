import { schemas } from '@switchboard/contracts';
import type { ConversationKind, MessageFailed, Tapback } from '../types.ts';
import type { Random } from './random.ts';
import type { LifeSettings } from './settings.ts';

export const TAPBACKS: readonly Tapback[] = schemas.zTapback.options;

/** What iMessage shows under a message that never left the device. */
export const NOT_DELIVERED = 'Not Delivered';

export type FailureReason = MessageFailed['reason'];

/**
 * Something that happens to a message on the platform without the account's commands: what
 * becomes of one of the account's messages after its echo, or what someone else does to a
 * message. The platform applies it when it is due (or at once, from the CLI) and puts what it
 * did on the feed.
 */
export type MessageChange =
  | { change: 'delivered' }
  | { change: 'read' }
  | { change: 'failed'; reason: FailureReason; platformMessage: string | null }
  | { change: 'reaction'; from: string; tapback: Tapback; action: 'added' | 'removed' }
  | { change: 'edited'; text: string }
  | { change: 'unsent' };

/** A change due `afterMs` after the time the plan counts from (a message's echo, or its arrival). */
export interface PlannedChange {
  afterMs: number;
  change: MessageChange;
}

/** What the platform tells a planner about one of the account's messages it just echoed. */
export interface EchoedMessage {
  conversationKind: ConversationKind;
  /** The other people in the conversation. */
  participants: string[];
}

/** What the platform tells a planner about a message someone else sent. */
export interface ArrivedMessage {
  /** `text` for a message; other kinds (votes, tapbacks) get no plan. */
  kind: string;
  text: string | null;
}

/**
 * The life of one of the account's messages, counted from the platform taking it: after the echo
 * (`echoAfterMs`) it fails, or is delivered; a delivered message of a direct conversation may be
 * read, and someone in the conversation may react to it and maybe remove the tapback later.
 * Every draw comes from `random`, so a seed replays the same lives.
 */
export function planOutbound(random: Random, life: LifeSettings, message: EchoedMessage, echoAfterMs = 0): PlannedChange[] {
  if (random.chance(life.failed)) {
    return [{ afterMs: echoAfterMs + random.within(life.failLatency), change: { change: 'failed', reason: 'not_delivered', platformMessage: NOT_DELIVERED } }];
  }
  if (!random.chance(life.delivered)) return [];
  const deliveredAfter = echoAfterMs + random.within(life.deliveryLatency);
  const plan: PlannedChange[] = [{ afterMs: deliveredAfter, change: { change: 'delivered' } }];
  // iMessage keeps no read receipts in groups.
  if (message.conversationKind === 'direct' && random.chance(life.read)) {
    plan.push({ afterMs: deliveredAfter + random.within(life.readLatency), change: { change: 'read' } });
  }
  if (message.participants.length > 0 && random.chance(life.reaction)) {
    const from = random.pick(message.participants);
    const tapback = random.pick(TAPBACKS);
    const reactedAfter = deliveredAfter + random.within(life.reactionLatency);
    plan.push({ afterMs: reactedAfter, change: { change: 'reaction', from, tapback, action: 'added' } });
    if (random.chance(life.reactionRemoved)) {
      plan.push({ afterMs: reactedAfter + random.within(life.reactionRemovedLatency), change: { change: 'reaction', from, tapback, action: 'removed' } });
    }
  }
  return plan;
}

/** The life of a message someone else sent, counted from its arrival: they may unsend it, or else edit it. */
export function planInbound(random: Random, life: LifeSettings, message: ArrivedMessage): PlannedChange[] {
  if (message.kind !== 'text') return [];
  if (random.chance(life.unsent)) return [{ afterMs: random.within(life.unsendLatency), change: { change: 'unsent' } }];
  if (message.text !== null && random.chance(life.edited)) {
    return [{ afterMs: random.within(life.editLatency), change: { change: 'edited', text: editedText(message.text) } }];
  }
  return [];
}

/** What an automatic edit makes of a text. */
export function editedText(text: string): string {
  return `${text} (edited)`;
}

/** Whether a draw can plan anything for inbound messages: with nothing to draw, the driver does not write a plan. */
export function plansInbound(life: LifeSettings): boolean {
  return life.unsent > 0 || life.edited > 0;
}
