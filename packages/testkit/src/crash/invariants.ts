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

export interface Evidence {
  accepted: Attempt[];
  /** Every accepted commandId, read back after the deadline. */
  commands: Map<string, CommandRecord | null>;
  /** The whole stream read from after=0 once everything had time to settle. */
  finalEvents: StreamEvent[];
  /** What each live reader (the SSE subscriber, the page poller) was shown, across every restart. */
  readers: ReaderRecord[];
  platformDoubles: PlatformDouble[];
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
  /** Two message.sent / message.received for one conversationId + messageExternalId. */
  duplicatePlatformEvents: number;
  /** An id a live reader was shown that now names another event, or no event at all. */
  rewrittenIds: number;
  /** An event below a live reader's position that it was never shown (a gap in the resume). */
  missedOnResume: number;
  /** A recipient send that succeeded without a conversation.appeared for its conversation. */
  missingAppeared: number;
  /** A command whose message the simulated platform shows more than once. */
  platformDoubleSends: number;
}

export const invariantNames = ['lost', 'stuck', 'duplicateSettlements', 'settledWithoutEvent', 'duplicatePlatformEvents', 'rewrittenIds', 'missedOnResume', 'missingAppeared', 'platformDoubleSends'] as const satisfies ReadonlyArray<keyof Counts>;

export function emptyCounts(): Counts {
  return { accepted: 0, lost: 0, stuck: 0, duplicateSettlements: 0, settledWithoutEvent: 0, duplicatePlatformEvents: 0, rewrittenIds: 0, missedOnResume: 0, missingAppeared: 0, platformDoubleSends: 0 };
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
    if (command.status === 'queued') {
      counts.stuck++;
      details.push(`stuck: ${commandId} (${attempt.operation.kind}) still queued`);
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
    if (event.type !== 'message.sent' && event.type !== 'message.received') continue;
    const key = `${event.type} ${event.data.conversationId} ${event.data.messageExternalId}`;
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
  return { counts, details };
}
