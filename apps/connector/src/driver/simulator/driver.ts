import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import type {
  ActionRef,
  ConversationRef,
  Driver,
  ExecutionRecord,
  FeedEvent,
  FeedListener,
  FeedSubscription,
  Media,
  Outcome,
  OutgoingContent,
  Tapback,
} from '../types.ts';
import { planInbound, planOutbound, plansInbound } from './life.ts';
import { SimulatedPlatform, type OutboundPlanner, type SendFault, type UpdateFault } from './platform.ts';
import { Random, type Range } from './random.ts';
import { drawSendFault, type SimulatorSettings } from './settings.ts';

/** Who is driving the simulated platform. */
export interface SimulatorContext {
  /** The Switchboard account; the platform's state is kept per account. */
  account: string;
  hostId: string;
  osMajorVersion: number;
  log: Logger;
  /** The platform's clock (tests move it by hand); Date.now by default. */
  now?: () => number;
}

/** The OS major version whose Messages stalls on remove_participant and never confirms it. */
export const REMOVE_PARTICIPANT_BROKEN_OS = 26;
const FEED_BATCH = 200;

/**
 * The default driver: acts on the simulated platform with the latency and the faults of its
 * settings, drawn from one seeded source so a run can be replayed. The lives of messages
 * (delivered, read, failed; tapbacks, edits, unsends by others) are drawn from a second source of
 * the same seed, so turning them on or off changes no latency and no fault.
 */
export class SimulatorDriver implements Driver {
  readonly platform: SimulatedPlatform;
  private readonly settings: SimulatorSettings;
  private readonly context: SimulatorContext;
  private readonly random: Random;
  private readonly lives: Random;

  constructor(settings: SimulatorSettings, context: SimulatorContext) {
    this.settings = settings;
    this.context = context;
    this.random = new Random(settings.seed);
    this.lives = Random.stream(settings.seed, 'lives');
    this.platform = new SimulatedPlatform(settings.dbPath, context.account, context.now ? { now: context.now } : {});
  }

  private async wait(range: Range): Promise<void> {
    const ms = this.random.within(range);
    if (ms > 0) await delay(ms);
  }

  private sendFault(): SendFault {
    return drawSendFault(this.random, this.settings.faults);
  }

  private updateFault(): UpdateFault {
    return this.random.chance(this.settings.faults.groupUpdateUnverified) ? 'unverified' : 'none';
  }

  /**
   * The platform takes the call after the send latency; whatever reached it is echoed after the
   * echo latency, drawn before the call so that an echoed message's life starts after its echo.
   */
  private async call(act: (echoMs: number) => Outcome, conversation?: ConversationRef): Promise<Outcome> {
    if (conversation?.conversationId) this.platform.learnConversationId(conversation.conversationId, conversation.externalId);
    await this.wait(this.settings.sendLatency);
    const echoMs = this.random.within(this.settings.echoLatency);
    const outcome = act(echoMs);
    if (!outcome.replayed && (outcome.result === 'confirmed' || outcome.result === 'accepted_no_echo') && echoMs > 0) await delay(echoMs);
    return outcome;
  }

  /** What becomes of a message the platform echoes after `echoMs`: drawn inside the send's transaction, once it is known to be echoed. */
  private lifeOfSend(echoMs: number): OutboundPlanner | undefined {
    const { life } = this.settings;
    if (!life) return undefined;
    return (conversation) => planOutbound(this.lives, life, { conversationKind: conversation.kind, participants: conversation.participants }, echoMs);
  }

  async findExecuted(logicalActionId: string): Promise<ExecutionRecord | null> {
    return this.platform.execution(logicalActionId);
  }

  sendToConversation(action: ActionRef, conversation: ConversationRef, content: OutgoingContent): Promise<Outcome> {
    const fault = this.sendFault();
    return this.call((echoMs) => this.platform.send(action, this.context.hostId, conversation, content, fault, this.lifeOfSend(echoMs)), conversation);
  }

  sendToRecipient(action: ActionRef, recipientExternalId: string, text: string): Promise<Outcome> {
    const fault = this.sendFault();
    return this.call((echoMs) => this.platform.sendToRecipient(action, this.context.hostId, recipientExternalId, text, fault, this.lifeOfSend(echoMs)));
  }

  tapback(action: ActionRef, conversation: ConversationRef, messageExternalId: string, tapback: Tapback, remove: boolean): Promise<Outcome> {
    return this.call(() => this.platform.tapback(action, this.context.hostId, conversation, messageExternalId, tapback, remove), conversation);
  }

  reactToNewestIncoming(action: ActionRef, conversation: ConversationRef, tapback: Tapback): Promise<Outcome> {
    return this.call(() => this.platform.reactToNewestIncoming(action, this.context.hostId, conversation, tapback), conversation);
  }

  shareNamePhoto(action: ActionRef, conversation: ConversationRef): Promise<Outcome> {
    return this.call(() => this.platform.shareNamePhoto(action, this.context.hostId, conversation), conversation);
  }

  createGroup(action: ActionRef, participants: string[], text: string, name: string | null): Promise<Outcome> {
    const fault = this.sendFault();
    return this.call((echoMs) => this.platform.createGroup(action, this.context.hostId, participants, text, name, fault, this.lifeOfSend(echoMs)));
  }

  renameGroup(action: ActionRef, conversation: ConversationRef, name: string): Promise<Outcome> {
    const fault = this.updateFault();
    return this.call(() => this.platform.renameGroup(action, this.context.hostId, conversation, name, fault), conversation);
  }

  addParticipant(action: ActionRef, conversation: ConversationRef, participant: string): Promise<Outcome> {
    const fault = this.updateFault();
    return this.call(() => this.platform.addParticipant(action, this.context.hostId, conversation, participant, fault), conversation);
  }

  async removeParticipant(action: ActionRef, conversation: ConversationRef, participant: string): Promise<Outcome> {
    if (this.context.osMajorVersion === REMOVE_PARTICIPANT_BROKEN_OS) {
      // Messages on this OS takes the removal, then never shows it: nothing changes on the platform.
      await this.wait(this.settings.sendLatency);
      if (this.settings.removeStallMs > 0) await delay(this.settings.removeStallMs);
      return { result: 'group_update_unverified', detail: `remove_participant stalled ${this.settings.removeStallMs} ms on OS ${REMOVE_PARTICIPANT_BROKEN_OS} and was never confirmed`, events: [] };
    }
    const fault = this.updateFault();
    return this.call(() => this.platform.removeParticipant(action, this.context.hostId, conversation, participant, fault), conversation);
  }

  setGroupPhoto(action: ActionRef, conversation: ConversationRef, photo: Media): Promise<Outcome> {
    const fault = this.updateFault();
    return this.call(() => this.platform.setGroupPhoto(action, this.context.hostId, conversation, photo, fault), conversation);
  }

  leaveGroup(action: ActionRef, conversation: ConversationRef): Promise<Outcome> {
    return this.call(() => this.platform.leaveGroup(action, this.context.hostId, conversation), conversation);
  }

  subscribe(listener: FeedListener): FeedSubscription {
    let stopped = false;
    let timer: NodeJS.Timeout | null = null;
    let running: Promise<void> = Promise.resolve();
    const { log } = this.context;

    const poll = async () => {
      timer = null;
      let more = false;
      try {
        const batch = this.platform.readFeed(FEED_BATCH);
        this.planArrivals(batch.events);
        if (batch.events.length > 0 && !stopped) {
          await listener(batch.events);
          // Past the batch only once it was reported: a host that dies here leaves it to the next holder.
          this.platform.ackFeed(batch.through);
          more = true;
        }
      } catch (error) {
        log.warn({ err: error }, 'platform feed not delivered; will retry');
      }
      if (!stopped) timer = setTimeout(tick, more ? 0 : this.settings.feedPollMs);
    };
    const tick = () => {
      running = poll();
    };
    tick();

    return {
      async stop() {
        stopped = true;
        if (timer) clearTimeout(timer);
        await running;
      },
    };
  }

  /** Draws the lives of messages other people sent (edits, unsends), once per message, before they are reported. */
  private planArrivals(events: readonly FeedEvent[]): void {
    const { life } = this.settings;
    if (!life || !plansInbound(life)) return;
    const arrived = events.flatMap((e) => (e.type === 'message.received' ? [e.messageExternalId] : []));
    this.platform.planInbound(arrived, (m) => planInbound(this.lives, life, { kind: m.kind, text: typeof m.body.text === 'string' ? m.body.text : null }));
  }

  async close(): Promise<void> {
    this.platform.close();
  }
}
