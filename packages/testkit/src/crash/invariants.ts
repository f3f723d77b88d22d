import { canonical, type Conflict, type SeenEvent } from './recorder.ts';

/** What one live reader of the stream was shown. */
export interface ReaderRecord {
  mode: string;
  seen: Map<string, SeenEvent>;
  conflicts: Conflict[];
}
import type { Attempt } from './workload.ts';

/** GET /v1/commands/{commandId}, the fields the checks read; null when the server answered 404. */
export interface CommandRecord {
  commandId: string;
  type: string;
  status: string;
  errorCode: string | null;
  conversationId: string | null;
}

export interface StreamEvent {
  id: string;
  type: string;
  data: Record<string, any>;
}

/** A logical action the simulated platform shows more than one outgoing message for. */
export interface PlatformDouble {
  logicalActionId: string;
  commandId: string | null;
  messages: number;
}

/** The states of a message's life the stream reports once each: message.delivered, message.read, message.failed. */
export const MESSAGE_STATES = ['delivered', 'read', 'failed'] as const;
export type MessageState = (typeof MESSAGE_STATES)[number];

/** A state the simulated platform applied to one of the account's messages (its messages table). */
export interface PlatformState {
  state: MessageState;
  messageExternalId: string;
  /** The command that sent the message, as the platform recorded it. */
  commandId: string | null;
  /** When the platform applied it (ms): the time the stream's deliveredAt / readAt / failedAt must show. */
  at: number;
}

/** A tapback someone added or removed on the simulated platform (its own row in the messages table). */
export interface PlatformReaction {
  reactionExternalId: string;
  messageExternalId: string;
  action: string;
}

/** A change still in the platform's `scheduled` table, due long enough ago that a live host would have applied and reported it. */
export interface OverdueChange {
  messageExternalId: string;
  change: string;
  dueAt: number;
}

export interface Evidence {
  accepted: Attempt[];
  /** Every accepted commandId, read back after the deadline. */
  commands: Map<string, CommandRecord | null>;
  /** The whole stream read from after=0 once everything had time to settle. */
  finalEvents: StreamEvent[];
  /** What each live reader (the SSE subscriber, the page poller) was shown, across every restart. */
  readers: ReaderRecord[];
  platformDoubles: PlatformDouble[];
  /** Every state the platform applied to the account's messages, read once every due state had time to be reported. */
  platformStates: PlatformState[];
  /** Every tapback the platform applied, read at the same time. */
  platformReactions: PlatformReaction[];
  /** Changes left unapplied past their due time plus the settle slack (a host stopped reading the platform). */
  overdueChanges: OverdueChange[];
  /** Life events (delivered/read/failed/reaction) the platform had applied and no host had reported yet, summed over the kill instants. */
  statesInFlightAtKills?: number;
}

/** The invariants, as counts; every one but `accepted` must be 0. */
export interface Counts {
  /** Distinct commands answered 202. */
  accepted: number;
  /** 202'd, and the server does not know the command. */
  lost: number;
  /** Still queued after the deadline. */
  stuck: number;
  /** Two command.settled events for one command, or a settled event disagreeing with the command. */
  duplicateSettlements: number;
  /** Settled according to GET, with no command.settled event on the stream. */
  settledWithoutEvent: number;
  /** Two message.sent / message.received for one conversationId + messageExternalId, or two message.reaction for one reactionExternalId. */
  duplicatePlatformEvents: number;
  /** Not an invariant: delivered, read and failed states the simulated platform applied (what the two counts below check). */
  messageStates: number;
  /** Not an invariant: life events the platform had applied but no host had reported, at the instants of the kills. */
  statesInFlightAtKills: number;
  /** Two message.delivered / message.read / message.failed for one conversationId + messageExternalId. */
  duplicateMessageStates: number;
  /** A state the platform applied (or left overdue) with no such event for the message on the final stream. */
  lostMessageStates: number;
  /** A delivered/read/failed event the platform does not back: no such state, another command, or another time. */
  wrongMessageStates: number;
  /** A tapback the platform applied (or left overdue) with no message.reaction for it on the final stream. */
  lostReactions: number;
  /** An id a live reader was shown that now names another event, or no event at all. */
  rewrittenIds: number;
  /** An event below a live reader's position that it was never shown (a gap in the resume). */
  missedOnResume: number;
  /** A recipient send that succeeded without a conversation.appeared for its conversation. */
  missingAppeared: number;
  /** A command whose message the simulated platform shows more than once. */
  platformDoubleSends: number;
  /** Not an invariant: accepted commands with a command.held on the final stream (quiet hours on, RoundOptions.holds). */
  held: number;
  /** Not an invariant: accepted commands with a command.released on the final stream. */
  released: number;
  /**
   * Commands acknowledged `queued` once quiet hours were off that settled before a command
   * acknowledged `held` (accepted before them) was released: the policy change releases what it
   * lets go in its own transaction, so nothing accepted after it may overtake a held command.
   */
  overtookHeld: number;
  /**
   * A command acknowledged `held` without exactly one command.held and one command.released (on
   * the final stream and on each live reader), released after it settled, or settled while held; a
   * command acknowledged `queued` with either; a command.released with no command.held before it.
   */
  holdViolations: number;
}

export const invariantNames = [
  'lost', 'stuck', 'duplicateSettlements', 'settledWithoutEvent', 'duplicatePlatformEvents', 'rewrittenIds', 'missedOnResume', 'missingAppeared', 'platformDoubleSends',
  'duplicateMessageStates', 'lostMessageStates', 'wrongMessageStates', 'lostReactions', 'holdViolations', 'overtookHeld',
] as const satisfies ReadonlyArray<keyof Counts>;

/** Counts that say how much a round exercised, not what broke; the summary shows them after `accepted`. */
export const coverageNames = ['accepted', 'messageStates', 'statesInFlightAtKills', 'held', 'released'] as const satisfies ReadonlyArray<keyof Counts>;

export function emptyCounts(): Counts {
  return {
    accepted: 0, lost: 0, stuck: 0, duplicateSettlements: 0, settledWithoutEvent: 0, duplicatePlatformEvents: 0, rewrittenIds: 0, missedOnResume: 0, missingAppeared: 0,
    platformDoubleSends: 0, messageStates: 0, statesInFlightAtKills: 0, duplicateMessageStates: 0, lostMessageStates: 0, wrongMessageStates: 0, lostReactions: 0,
    held: 0, released: 0, overtookHeld: 0, holdViolations: 0,
  };
}

export function addCounts(total: Counts, more: Counts): Counts {
  const sum = { ...total };
  for (const key of Object.keys(sum) as Array<keyof Counts>) sum[key] += more[key];
  return sum;
}

export function failures(counts: Counts): number {
  return invariantNames.reduce((n, key) => n + counts[key], 0);
}

/** Counts each invariant over one round's evidence; `details` names the offending ids. */
export function checkInvariants(evidence: Evidence): { counts: Counts; details: string[] } {
  const counts = emptyCounts();
  const details: string[] = [];
  const acceptedIds = new Map<string, Attempt>();
  for (const attempt of evidence.accepted) if (attempt.commandId) acceptedIds.set(attempt.commandId, attempt);
  counts.accepted = acceptedIds.size;

  const settledEvents = new Map<string, StreamEvent[]>();
  for (const event of evidence.finalEvents) {
    if (event.type !== 'command.settled') continue;
    const list = settledEvents.get(event.data.commandId) ?? [];
    list.push(event);
    settledEvents.set(event.data.commandId, list);
  }

  for (const [commandId, attempt] of acceptedIds) {
    const command = evidence.commands.get(commandId);
    if (!command) {
      counts.lost++;
      details.push(`lost: ${commandId} (${attempt.operation.kind}, client ${attempt.client} #${attempt.index})`);
      continue;
    }
    const events = settledEvents.get(commandId) ?? [];
    if (command.status === 'queued' || command.status === 'held') {
      counts.stuck++;
      details.push(`stuck: ${commandId} (${attempt.operation.kind}) still ${command.status}`);
    } else if (events.length === 0) {
      counts.settledWithoutEvent++;
      details.push(`settled without event: ${commandId} is ${command.status}`);
    }
    if (events.length > 1) {
      counts.duplicateSettlements += events.length - 1;
      details.push(`duplicate settlement: ${commandId} settled ${events.length} times (ids ${events.map((e) => e.id).join(', ')})`);
    }
    for (const event of events) {
      if (event.data.status !== command.status || (event.data.errorCode ?? null) !== command.errorCode) {
        counts.duplicateSettlements++;
        details.push(`settlement disagrees: ${commandId} is ${command.status}/${command.errorCode}, event ${event.id} says ${event.data.status}/${event.data.errorCode}`);
      }
    }
    if (attempt.operation.kind === 'recipient-send' && command.status === 'succeeded') {
      const conversationId = command.conversationId;
      const appeared = conversationId !== null && evidence.finalEvents.some((e) => e.type === 'conversation.appeared' && e.data.conversationId === conversationId);
      if (!appeared) {
        counts.missingAppeared++;
        details.push(`no conversation.appeared: ${commandId} to ${attempt.operation.recipientExternalId} (conversation ${conversationId})`);
      }
    }
  }

  const platformEvents = new Map<string, string[]>();
  for (const event of evidence.finalEvents) {
    let key: string;
    if (event.type === 'message.sent' || event.type === 'message.received') key = `${event.type} ${event.data.conversationId} ${event.data.messageExternalId}`;
    else if (event.type === 'message.reaction') key = `${event.type} ${event.data.conversationId} ${event.data.reactionExternalId}`;
    else continue;
    platformEvents.set(key, [...(platformEvents.get(key) ?? []), event.id]);
  }
  for (const [key, ids] of platformEvents) {
    if (ids.length < 2) continue;
    counts.duplicatePlatformEvents += ids.length - 1;
    details.push(`duplicate platform event: ${key} at ids ${ids.join(', ')}`);
  }

  const finalById = new Map(evidence.finalEvents.map((e) => [e.id, e]));
  for (const reader of evidence.readers) {
    for (const [id, seen] of reader.seen) {
      const now = finalById.get(id);
      if (!now) {
        counts.rewrittenIds++;
        details.push(`id ${id} (${seen.type}) was shown to the ${reader.mode} reader and no longer exists`);
      } else if (canonical(now.type, now.data) !== seen.json) {
        counts.rewrittenIds++;
        details.push(`id ${id} was shown to the ${reader.mode} reader as ${seen.type} ${JSON.stringify(seen.data)} and now names ${now.type} ${JSON.stringify(now.data)}`);
      }
    }
    for (const conflict of reader.conflicts) {
      counts.rewrittenIds++;
      details.push(`id ${conflict.id} was delivered to the ${reader.mode} reader as ${conflict.first.type} and later as ${conflict.later.type} ${JSON.stringify(conflict.later.data)}`);
    }
    const highest = [...reader.seen.keys()].reduce((max, id) => (BigInt(id) > max ? BigInt(id) : max), 0n);
    for (const event of evidence.finalEvents) {
      if (BigInt(event.id) < highest && !reader.seen.has(event.id)) {
        counts.missedOnResume++;
        details.push(`id ${event.id} (${event.type}) is below the ${reader.mode} reader's ${highest} and was never shown to it`);
      }
    }
  }

  for (const double of evidence.platformDoubles) {
    counts.platformDoubleSends++;
    details.push(`platform shows ${double.messages} messages for logical action ${double.logicalActionId} (command ${double.commandId})`);
  }

  checkMessageLives(evidence, counts, details);
  checkHolds(evidence, acceptedIds, counts, details);
  return { counts, details };
}

const HOLD_EVENTS = new Set(['command.held', 'command.released', 'command.settled']);

/** The ids of each command's command.held, command.released and command.settled events among `events`, in id order. */
function holdEventsByCommand(events: Iterable<{ id: string; type: string; data: Record<string, any> }>): Map<string, Array<{ id: bigint; type: string }>> {
  const byCommand = new Map<string, Array<{ id: bigint; type: string }>>();
  for (const event of events) {
    if (!HOLD_EVENTS.has(event.type)) continue;
    const list = byCommand.get(event.data.commandId) ?? [];
    list.push({ id: BigInt(event.id), type: event.type });
    byCommand.set(event.data.commandId, list);
  }
  for (const list of byCommand.values()) list.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return byCommand;
}

/**
 * Held commands (quiet hours on, then off during the burst): a command acknowledged `held` shows
 * one command.held and one command.released, on the final stream and to each live reader, and is
 * released before it settles; a command acknowledged `queued` by a fresh acceptance shows
 * neither. An adopted retry answers the status the command has now, so one acknowledged
 * `queued` (or settled) may have been held before its first answer was lost: it is held and
 * released once, or not at all. On the whole stream, no command is released without a
 * command.held before it, none twice, and none settles while held.
 */
function checkHolds(evidence: Evidence, acceptedIds: Map<string, Attempt>, counts: Counts, details: string[]): void {
  const violation = (line: string) => {
    counts.holdViolations++;
    details.push(`hold: ${line}`);
  };
  const final = holdEventsByCommand(evidence.finalEvents);
  const number = (list: Array<{ type: string }>, type: string) => list.filter((e) => e.type === type).length;

  for (const [commandId, list] of final) {
    let holding = false;
    let holds = 0;
    let releases = 0;
    let settled = false;
    for (const event of list) {
      if (event.type === 'command.held') {
        holds++;
        if (holding) violation(`${commandId} held again (event ${event.id}) while held`);
        if (settled) violation(`${commandId} held (event ${event.id}) after it settled`);
        holding = true;
      } else if (event.type === 'command.released') {
        releases++;
        if (!holding) violation(`${commandId} released (event ${event.id}) with no command.held before it`);
        else if (settled) violation(`${commandId} released (event ${event.id}) after it settled`);
        holding = false;
      } else {
        // A rejected hold settles without a release; the workload rejects none.
        if (holding) violation(`${commandId} settled (event ${event.id}) while held, with no command.released before it`);
        settled = true;
      }
    }
    if (holds > 1) violation(`${commandId} has ${holds} command.held events (ids ${list.filter((e) => e.type === 'command.held').map((e) => e.id).join(', ')})`);
    if (releases > 1) violation(`${commandId} has ${releases} command.released events (ids ${list.filter((e) => e.type === 'command.released').map((e) => e.id).join(', ')})`);
    if (holding && !settled && acceptedIds.has(commandId)) violation(`${commandId} held and never released`);
  }

  // Every command acknowledged held was accepted before any acknowledged queued afresh (the change
  // commits between them, under the store's one writer or the account's lock).
  let lastRelease = 0n;
  for (const [commandId, attempt] of acceptedIds) {
    if (attempt.ackStatus !== 'held') continue;
    for (const event of final.get(commandId) ?? []) if (event.type === 'command.released' && event.id > lastRelease) lastRelease = event.id;
  }

  for (const [commandId, attempt] of acceptedIds) {
    const list = final.get(commandId) ?? [];
    const settledAt = list.find((e) => e.type === 'command.settled')?.id;
    if (attempt.ackStatus === 'queued' && attempt.disposition !== 'adopted' && settledAt !== undefined && settledAt < lastRelease) {
      counts.overtookHeld++;
      details.push(`overtook a held command: ${commandId} settled (event ${settledAt}) before the last release (event ${lastRelease})`);
    }
    const holds = number(list, 'command.held');
    const releases = number(list, 'command.released');
    if (holds > 0) counts.held++;
    if (releases > 0) counts.released++;
    const what = `${commandId} (${attempt.operation.kind}, client ${attempt.client} #${attempt.index})`;
    if (attempt.ackStatus === 'held') {
      if (holds === 0) violation(`${what} was acknowledged held, and no command.held is on the stream`);
      if (releases === 0) violation(`${what} was acknowledged held, and no command.released is on the stream`);
      for (const reader of evidence.readers) {
        const shown = holdEventsByCommand([...reader.seen].map(([id, e]) => ({ id, type: e.type, data: e.data }))).get(commandId) ?? [];
        const shownHolds = number(shown, 'command.held');
        const shownReleases = number(shown, 'command.released');
        if (shownHolds !== 1 || shownReleases !== 1) violation(`${what} was shown to the ${reader.mode} reader held ${shownHolds} and released ${shownReleases} times`);
      }
    } else if (attempt.disposition !== 'adopted' && (holds > 0 || releases > 0)) {
      violation(`${what} was acknowledged ${attempt.ackStatus ?? '(no status)'}, and the stream shows ${holds} command.held and ${releases} command.released`);
    }
  }
}

const TIME_FIELD: Record<MessageState, string> = { delivered: 'deliveredAt', read: 'readAt', failed: 'failedAt' };

function isMessageState(value: string): value is MessageState {
  return (MESSAGE_STATES as readonly string[]).includes(value);
}

/**
 * A message's life: each delivered/read/failed once per message on the final stream, each state
 * the platform applied there with the platform's command and time, each tapback there once.
 */
function checkMessageLives(evidence: Evidence, counts: Counts, details: string[]): void {
  counts.messageStates = evidence.platformStates.length;
  counts.statesInFlightAtKills = evidence.statesInFlightAtKills ?? 0;

  // The state events on the final stream, by conversationId + messageExternalId + state.
  const stateEvents = new Map<string, StreamEvent[]>();
  // ... and by messageExternalId + state alone, which the platform's rows name (unique per account there).
  const byMessage = new Map<string, StreamEvent[]>();
  const reactions = new Set<string>();
  for (const event of evidence.finalEvents) {
    if (event.type === 'message.reaction') reactions.add(event.data.reactionExternalId);
    if (!event.type.startsWith('message.')) continue;
    const state = event.type.slice('message.'.length);
    if (!isMessageState(state)) continue;
    const key = `${event.type} ${event.data.conversationId} ${event.data.messageExternalId}`;
    stateEvents.set(key, [...(stateEvents.get(key) ?? []), event]);
    const mine = `${state} ${event.data.messageExternalId}`;
    byMessage.set(mine, [...(byMessage.get(mine) ?? []), event]);
  }
  for (const [key, events] of stateEvents) {
    if (events.length < 2) continue;
    counts.duplicateMessageStates += events.length - 1;
    details.push(`duplicate message state: ${key} at ids ${events.map((e) => e.id).join(', ')}`);
  }

  const applied = new Map(evidence.platformStates.map((s) => [`${s.state} ${s.messageExternalId}`, s]));
  for (const [key, state] of applied) {
    const events = byMessage.get(key);
    if (!events) {
      counts.lostMessageStates++;
      details.push(`lost message state: the platform ${state.state} ${state.messageExternalId} (command ${state.commandId}) at ${new Date(state.at).toISOString()}; no message.${state.state} on the stream`);
      continue;
    }
    const time = new Date(state.at).toISOString();
    for (const event of events) {
      const problems: string[] = [];
      if ((event.data.commandId ?? null) !== state.commandId) problems.push(`command ${event.data.commandId} (platform: ${state.commandId})`);
      if (event.data[TIME_FIELD[state.state]] !== time) problems.push(`${TIME_FIELD[state.state]} ${event.data[TIME_FIELD[state.state]]} (platform: ${time})`);
      if (problems.length) {
        counts.wrongMessageStates++;
        details.push(`wrong message state: event ${event.id} message.${state.state} ${state.messageExternalId} says ${problems.join(', ')}`);
      }
    }
  }
  for (const [key, events] of byMessage) {
    if (applied.has(key)) continue;
    for (const event of events) {
      counts.wrongMessageStates++;
      details.push(`wrong message state: event ${event.id} ${event.type} ${event.data.messageExternalId}, a state the platform never applied`);
    }
  }

  for (const reaction of evidence.platformReactions) {
    if (reactions.has(reaction.reactionExternalId)) continue;
    counts.lostReactions++;
    details.push(`lost reaction: the platform's tapback ${reaction.reactionExternalId} (${reaction.action}) on ${reaction.messageExternalId}; no message.reaction on the stream`);
  }

  for (const overdue of evidence.overdueChanges) {
    if (overdue.change === 'reaction') counts.lostReactions++;
    else counts.lostMessageStates++;
    details.push(`overdue: ${overdue.change} of ${overdue.messageExternalId} was due at ${new Date(overdue.dueAt).toISOString()} and never applied (no host read the platform)`);
  }
}
