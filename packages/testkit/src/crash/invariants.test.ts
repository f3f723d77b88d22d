import { describe, expect, test } from 'vitest';
import { summarise } from './campaign.ts';
import { checkInvariants, emptyCounts, invariantNames, type CommandRecord, type Evidence, type PlatformState, type StreamEvent } from './invariants.ts';
import { Random } from './random.ts';
import { StreamRecorder } from './recorder.ts';
import { quietWindowAround, type RoundResult } from './round.ts';
import type { Attempt } from './workload.ts';

const A = '00000000-0000-7000-8000-00000000000a';
const B = '00000000-0000-7000-8000-00000000000b';
const CONV = '00000000-0000-7000-8000-0000000000c1';

function send(commandId: string): Attempt {
  return { client: 0, index: 0, operation: { kind: 'conversation-send', conversationId: CONV, idempotencyKey: `k-${commandId}`, text: 'x' }, outcome: 'accepted', commandId, tries: 1 };
}

function recipientSend(commandId: string): Attempt {
  return { client: 0, index: 1, operation: { kind: 'recipient-send', recipientExternalId: 'a@example.com', text: 'x' }, outcome: 'accepted', commandId, tries: 1 };
}

function record(commandId: string, status = 'succeeded', conversationId: string | null = CONV): CommandRecord {
  return { commandId, type: 'message.send', status, errorCode: null, conversationId };
}

function settled(id: string, commandId: string, status = 'succeeded'): StreamEvent {
  return { id, type: 'command.settled', data: { commandId, status, errorCode: null } };
}

const DELIVERED_AT = Date.parse('2026-01-01T00:00:01.000Z');
const READ_AT = Date.parse('2026-01-01T00:00:02.000Z');
const FAILED_AT = Date.parse('2026-01-01T00:00:03.000Z');

function delivered(id: string, messageExternalId = 'm1', commandId: string | null = A, at = DELIVERED_AT): StreamEvent {
  return { id, type: 'message.delivered', data: { conversationId: CONV, messageExternalId, commandId, deliveredAt: new Date(at).toISOString() } };
}

function read(id: string, messageExternalId = 'm1', commandId: string | null = A, at = READ_AT): StreamEvent {
  return { id, type: 'message.read', data: { conversationId: CONV, messageExternalId, commandId, readAt: new Date(at).toISOString() } };
}

function failed(id: string, messageExternalId = 'm2', commandId: string | null = B, at = FAILED_AT): StreamEvent {
  return {
    id, type: 'message.failed',
    data: { conversationId: CONV, messageExternalId, commandId, reason: 'not_delivered', platformMessage: 'Not Delivered', failedAt: new Date(at).toISOString() },
  };
}

function reaction(id: string, reactionExternalId = 'r1', action = 'added'): StreamEvent {
  return {
    id, type: 'message.reaction',
    data: { conversationId: CONV, messageExternalId: 'm1', reactionExternalId, senderExternalId: '+14155550100', reaction: 'love', action, reactedAt: '2026-01-01T00:00:04.000Z' },
  };
}

/**
 * A round where everything held: two commands, each settled once; A's message m1 delivered, read
 * and loved, B's message m2 failed, each once on the stream as on the platform; seen live as it is now.
 */
function healthy(): Evidence {
  const finalEvents = [
    { id: '1', type: 'message.sent', data: { conversationId: CONV, messageExternalId: 'm1', commandId: A } },
    settled('2', A),
    settled('3', B),
    { id: '4', type: 'message.sent', data: { conversationId: CONV, messageExternalId: 'm2', commandId: B } },
    delivered('5'),
    read('6'),
    failed('7'),
    reaction('8'),
  ];
  const recorder = new StreamRecorder(() => 'http://unused', 'unused');
  for (const e of finalEvents) recorder.record(e.id, e.type, e.data);
  return {
    accepted: [send(A), send(B)],
    commands: new Map([
      [A, record(A)],
      [B, record(B)],
    ]),
    finalEvents,
    readers: [recorder],
    platformDoubles: [],
    platformStates: [
      { state: 'delivered', messageExternalId: 'm1', commandId: A, at: DELIVERED_AT },
      { state: 'read', messageExternalId: 'm1', commandId: A, at: READ_AT },
      { state: 'failed', messageExternalId: 'm2', commandId: B, at: FAILED_AT },
    ],
    platformReactions: [{ reactionExternalId: 'r1', messageExternalId: 'm1', action: 'added' }],
    overdueChanges: [],
  };
}

describe('checkInvariants counts each broken promise', () => {
  test('a round where every command settled once and every state was reported once counts nothing', () => {
    const { counts, details } = checkInvariants(healthy());
    expect(details).toEqual([]);
    expect(counts).toMatchObject({ accepted: 2, messageStates: 3 });
    for (const key of invariantNames) expect(counts[key], key).toBe(0);
  });

  test('a 202 the server no longer knows is lost; one still queued is stuck', () => {
    const evidence = healthy();
    evidence.commands.set(A, null);
    evidence.commands.set(B, record(B, 'queued'));
    evidence.finalEvents = evidence.finalEvents.filter((e) => e.data.commandId !== B);
    const { counts } = checkInvariants(evidence);
    expect(counts.lost).toBe(1);
    expect(counts.stuck).toBe(1);
  });

  test('a second command.settled, or one disagreeing with the command, is a duplicate settlement', () => {
    const evidence = healthy();
    evidence.finalEvents.push(settled('4', A, 'failed'));
    const { counts } = checkInvariants(evidence);
    // one extra event, and that event disagrees with the command's status
    expect(counts.duplicateSettlements).toBe(2);
  });

  test('a settled command with no command.settled event', () => {
    const evidence = healthy();
    evidence.finalEvents = evidence.finalEvents.filter((e) => e.id !== '3');
    evidence.readers[0]!.seen.delete('3');
    expect(checkInvariants(evidence).counts.settledWithoutEvent).toBe(1);
  });

  test('two message.sent for one conversation and message id', () => {
    const evidence = healthy();
    evidence.finalEvents.push({ id: '4', type: 'message.sent', data: { conversationId: CONV, messageExternalId: 'm1', commandId: A } });
    expect(checkInvariants(evidence).counts.duplicatePlatformEvents).toBe(1);
  });

  test('an id shown live that now names another event, or nothing, is rewritten', () => {
    const evidence = healthy();
    evidence.finalEvents = [
      { id: '1', type: 'message.sent', data: { conversationId: CONV, messageExternalId: 'other', commandId: A } },
      ...evidence.finalEvents.filter((e) => e.id !== '1' && e.id !== '2'),
      settled('9', A),
    ];
    const { counts } = checkInvariants(evidence);
    expect(counts.rewrittenIds).toBe(2); // id 1 changed, id 2 vanished
  });

  test('an id delivered twice with different content is rewritten, whatever the final read says', () => {
    const evidence = healthy();
    const recorder = new StreamRecorder(() => 'http://unused', 'unused');
    for (const e of evidence.finalEvents) recorder.record(e.id, e.type, e.data);
    recorder.record('2', 'command.settled', { commandId: B, status: 'succeeded', errorCode: null });
    expect(recorder.outOfOrder).toBe(1);
    evidence.readers = [recorder];
    expect(checkInvariants(evidence).counts.rewrittenIds).toBe(1);
  });

  test('an event below the subscriber resume point that it never saw was missed on resume', () => {
    const evidence = healthy();
    evidence.readers[0]!.seen.delete('2');
    expect(checkInvariants(evidence).counts.missedOnResume).toBe(1);
  });

  test('a recipient send that succeeded needs a conversation.appeared for its conversation', () => {
    const evidence = healthy();
    const R = '00000000-0000-7000-8000-00000000000d';
    const NEW = '00000000-0000-7000-8000-0000000000c2';
    evidence.accepted.push(recipientSend(R));
    evidence.commands.set(R, record(R, 'succeeded', NEW));
    evidence.finalEvents.push(settled('4', R));
    expect(checkInvariants(evidence).counts.missingAppeared).toBe(1);
    evidence.finalEvents.push({ id: '5', type: 'conversation.appeared', data: { conversationId: NEW, kind: 'direct' } });
    expect(checkInvariants(evidence).counts.missingAppeared).toBe(0);
  });

  test('the platform showing one command twice', () => {
    const evidence = healthy();
    evidence.platformDoubles = [{ logicalActionId: 'k-a', commandId: A, messages: 2 }];
    expect(checkInvariants(evidence).counts.platformDoubleSends).toBe(1);
  });
});

describe('a message life: each state once on the stream, none lost', () => {
  test.each([
    ['delivered', delivered('10')],
    ['read', read('10')],
    ['failed', failed('10')],
  ])('a second message.%s for one message is a duplicate state', (_state, again) => {
    const evidence = healthy();
    evidence.finalEvents.push(again);
    const { counts, details } = checkInvariants(evidence);
    expect(counts.duplicateMessageStates).toBe(1);
    expect(counts.lostMessageStates).toBe(0);
    expect(counts.wrongMessageStates).toBe(0);
    expect(details.join('\n')).toContain('duplicate message state');
  });

  test('three reports of one state are two duplicates; the same state of another message is none', () => {
    const evidence = healthy();
    evidence.finalEvents.push(delivered('10'), delivered('11'));
    expect(checkInvariants(evidence).counts.duplicateMessageStates).toBe(2);

    const other = healthy();
    other.finalEvents.push({ id: '9', type: 'message.sent', data: { conversationId: CONV, messageExternalId: 'm3', commandId: A } }, delivered('10', 'm3'));
    other.platformStates.push({ state: 'delivered', messageExternalId: 'm3', commandId: A, at: DELIVERED_AT });
    const { counts } = checkInvariants(other);
    expect(counts.duplicateMessageStates).toBe(0);
    expect(counts.messageStates).toBe(4);
  });

  test.each([
    ['delivered', '5'],
    ['read', '6'],
    ['failed', '7'],
  ])('a state the platform applied with no message.%s on the final stream is lost', (_state, id) => {
    const evidence = healthy();
    evidence.finalEvents = evidence.finalEvents.filter((e) => e.id !== id);
    evidence.readers = [];
    const { counts, details } = checkInvariants(evidence);
    expect(counts.lostMessageStates).toBe(1);
    expect(details.join('\n')).toContain('lost message state');
  });

  test('a state reported for another message of the conversation does not stand in for the lost one', () => {
    const evidence = healthy();
    evidence.finalEvents = evidence.finalEvents.filter((e) => e.id !== '6');
    evidence.finalEvents.push(read('10', 'm2', B));
    evidence.readers = [];
    const { counts } = checkInvariants(evidence);
    expect(counts.lostMessageStates).toBe(1);
    // ... and that read is one the platform never applied
    expect(counts.wrongMessageStates).toBe(1);
  });

  test('a change still scheduled long past its due time is lost: a state nobody applied', () => {
    const evidence = healthy();
    evidence.overdueChanges = [
      { messageExternalId: 'm9', change: 'delivered', dueAt: DELIVERED_AT },
      { messageExternalId: 'm1', change: 'reaction', dueAt: DELIVERED_AT },
    ];
    const { counts } = checkInvariants(evidence);
    expect(counts.lostMessageStates).toBe(1);
    expect(counts.lostReactions).toBe(1);
  });

  test('a state event with another command, another time, or no state on the platform is wrong', () => {
    const wrongCommand = healthy();
    wrongCommand.finalEvents = wrongCommand.finalEvents.map((e) => (e.id === '5' ? delivered('5', 'm1', null) : e));
    wrongCommand.readers = [];
    expect(checkInvariants(wrongCommand).counts.wrongMessageStates).toBe(1);

    const wrongTime = healthy();
    wrongTime.finalEvents = wrongTime.finalEvents.map((e) => (e.id === '6' ? read('6', 'm1', A, READ_AT + 1) : e));
    wrongTime.readers = [];
    expect(checkInvariants(wrongTime).counts.wrongMessageStates).toBe(1);

    const phantom = healthy();
    phantom.platformStates = phantom.platformStates.filter((s: PlatformState) => s.state !== 'read');
    const { counts } = checkInvariants(phantom);
    expect(counts.wrongMessageStates).toBe(1);
    expect(counts.lostMessageStates).toBe(0);
  });

  test('a tapback twice on the stream is a duplicate platform event; one missing is a lost reaction', () => {
    const twice = healthy();
    twice.finalEvents.push(reaction('10'));
    expect(checkInvariants(twice).counts.duplicatePlatformEvents).toBe(1);
    // its removal is another reaction, not a duplicate
    const removed = healthy();
    removed.finalEvents.push(reaction('10', 'r2', 'removed'));
    removed.platformReactions.push({ reactionExternalId: 'r2', messageExternalId: 'm1', action: 'removed' });
    expect(checkInvariants(removed).counts.duplicatePlatformEvents).toBe(0);

    const lost = healthy();
    lost.platformReactions.push({ reactionExternalId: 'r2', messageExternalId: 'm1', action: 'removed' });
    expect(checkInvariants(lost).counts.lostReactions).toBe(1);
  });

  test('the summary has a column per count, the life states included, and names the failing seeds', () => {
    const round = (seed: number, counts: Partial<ReturnType<typeof emptyCounts>>): RoundResult => ({
      campaign: 'host-kill', seed, counts: { ...emptyCounts(), ...counts }, details: [], serverKills: 0, hostKills: 1, downtimes: [], inFlightAtKills: [2],
      unknown: 0, rejected: [], burstMs: 500, holdsOffMs: null, durationMs: 1_000, dataDir: '/tmp/unused',
    });
    const table = summarise([round(1, { accepted: 5, messageStates: 7, statesInFlightAtKills: 2 }), round(2, { accepted: 4, messageStates: 3, duplicateMessageStates: 1, lostMessageStates: 2 })]);
    const [header, row] = table.split('\n');
    const cells = (line: string) => line.trim().split(/\s{2,}/);
    const columns = cells(header!).slice(1);
    for (const key of ['messageStates', 'statesInFlightAtKills', 'duplicateMessageStates', 'lostMessageStates', 'wrongMessageStates', 'lostReactions']) expect(columns).toContain(key);
    const values = Object.fromEntries(columns.map((c, i) => [c, cells(row!)[i + 1]]));
    expect(values).toMatchObject({ accepted: '9', messageStates: '10', statesInFlightAtKills: '2', duplicateMessageStates: '1', lostMessageStates: '2', lostReactions: '0' });
    expect(table).toContain('duplicateMessageStates: h2');
    expect(table).toContain('lostMessageStates: h2');
  });
});

function heldEvent(id: string, commandId: string): StreamEvent {
  return { id, type: 'command.held', data: { commandId, commandType: 'message.send', policy: 'quietHours', conversationId: CONV, releasesAt: '2026-01-01T02:00:00.000Z', reason: null } };
}

function releasedEvent(id: string, commandId: string, by = 'policy_change'): StreamEvent {
  return { id, type: 'command.released', data: { commandId, commandType: 'message.send', policy: 'quietHours', by } };
}

function readerOf(events: StreamEvent[], mode: 'sse' | 'poll' = 'sse'): StreamRecorder {
  const recorder = new StreamRecorder(() => 'http://unused', 'unused', mode);
  for (const e of events) recorder.record(e.id, e.type, e.data);
  return recorder;
}

/**
 * The healthy round with quiet hours: A acknowledged `held`, held (id 1) and released (id 5)
 * before its message went out (10) and it settled (20); B accepted after quiet hours went off,
 * acknowledged `queued`; both readers saw everything.
 */
function withHolds(): Evidence {
  const evidence = healthy();
  evidence.accepted = [{ ...send(A), disposition: 'queued', ackStatus: 'held' }, { ...send(B), disposition: 'queued', ackStatus: 'queued' }];
  evidence.finalEvents = [heldEvent('1', A), releasedEvent('5', A), ...evidence.finalEvents.map((e) => ({ ...e, id: String(Number(e.id) * 10) }))];
  evidence.readers = [readerOf(evidence.finalEvents), readerOf(evidence.finalEvents, 'poll')];
  return evidence;
}

describe('held commands: held once, released once, before they settle', () => {
  test('a command acknowledged held, held and released once before it settled, counts nothing', () => {
    const { counts, details } = checkInvariants(withHolds());
    expect(details).toEqual([]);
    expect(counts).toMatchObject({ accepted: 2, held: 1, released: 1, holdViolations: 0 });
    for (const key of invariantNames) expect(counts[key], key).toBe(0);
  });

  test('acknowledged held with no command.held, or no command.released, on the final stream', () => {
    const noHeld = withHolds();
    noHeld.finalEvents = noHeld.finalEvents.filter((e) => e.id !== '1');
    noHeld.readers = [];
    const { counts, details } = checkInvariants(noHeld);
    // and its release has no command.held before it
    expect(counts.holdViolations).toBe(2);
    expect(details.join('\n')).toContain('no command.held is on the stream');

    const noReleased = withHolds();
    noReleased.finalEvents = noReleased.finalEvents.filter((e) => e.id !== '5');
    noReleased.readers = [];
    // no release on the stream, and it settled while held
    expect(checkInvariants(noReleased).counts.holdViolations).toBe(2);
  });

  test('a second command.held or command.released for one command', () => {
    const twiceReleased = withHolds();
    twiceReleased.finalEvents.splice(2, 0, releasedEvent('6', A));
    twiceReleased.readers = [];
    const released = checkInvariants(twiceReleased);
    // the second has no hold before it, and there are two
    expect(released.counts.holdViolations).toBe(2);
    expect(released.details.join('\n')).toContain('2 command.released events');

    const twiceHeld = withHolds();
    twiceHeld.finalEvents.splice(1, 0, heldEvent('2', A));
    twiceHeld.readers = [];
    // held again while held, and two of them
    expect(checkInvariants(twiceHeld).counts.holdViolations).toBe(2);
  });

  test('released after it settled, or settled while still held', () => {
    const late = withHolds();
    late.finalEvents = [...late.finalEvents.filter((e) => e.id !== '5'), releasedEvent('90', A)];
    late.readers = [];
    const { counts, details } = checkInvariants(late);
    // settled while held, then released after it settled
    expect(counts.holdViolations).toBe(2);
    expect(details.join('\n')).toContain('after it settled');
  });

  test('a command acknowledged queued by a fresh acceptance shows no hold; an adopted retry may have been held', () => {
    const fresh = withHolds();
    fresh.finalEvents.push(heldEvent('91', B), releasedEvent('92', B));
    fresh.readers = [];
    const { counts, details } = checkInvariants(fresh);
    // acknowledged queued with a hold, held after it settled, and released after it settled
    expect(counts.holdViolations).toBe(3);
    expect(details.join('\n')).toContain('acknowledged queued');

    const adopted = withHolds();
    adopted.accepted[1] = { ...adopted.accepted[1]!, disposition: 'adopted', ackStatus: 'succeeded' };
    adopted.finalEvents = [heldEvent('2', B), releasedEvent('3', B), ...adopted.finalEvents];
    adopted.readers = [];
    expect(checkInvariants(adopted).counts).toMatchObject({ held: 2, released: 2, holdViolations: 0 });
  });

  test('a command.released with no command.held, for a command the clients never learnt was accepted', () => {
    const evidence = withHolds();
    evidence.finalEvents.push(releasedEvent('93', '00000000-0000-7000-8000-0000000000ee'));
    evidence.readers = [];
    const { counts, details } = checkInvariants(evidence);
    expect(counts.holdViolations).toBe(1);
    expect(details.join('\n')).toContain('no command.held before it');
  });

  test('a live reader not shown the hold or the release of a command acknowledged held', () => {
    const evidence = withHolds();
    evidence.readers[1]!.seen.delete('5');
    const { counts, details } = checkInvariants(evidence);
    expect(counts.holdViolations).toBe(1);
    expect(details.join('\n')).toContain('poll reader held 1 and released 0 times');
  });

  test('a command acknowledged queued that settled before an earlier held one was released overtook it', () => {
    const evidence = withHolds();
    expect(checkInvariants(evidence).counts.overtookHeld).toBe(0);
    // B settled (30) after A's release (5); move A's release after it
    evidence.finalEvents = [...evidence.finalEvents.filter((e) => e.id !== '5' && e.id !== '20'), releasedEvent('31', A), settled('32', A)];
    evidence.readers = [readerOf(evidence.finalEvents), readerOf(evidence.finalEvents, 'poll')];
    const { counts } = checkInvariants(evidence);
    expect(counts.overtookHeld).toBe(1);
    expect(counts.holdViolations).toBe(0);
  });

  test('a command still held at the end is stuck', () => {
    const evidence = withHolds();
    evidence.commands.set(A, record(A, 'held'));
    evidence.finalEvents = evidence.finalEvents.filter((e) => e.id !== '5' && e.id !== '20' && e.id !== '10' && e.id !== '50' && e.id !== '60' && e.id !== '80');
    evidence.platformStates = evidence.platformStates.filter((st) => st.commandId !== A);
    evidence.platformReactions = [];
    evidence.readers = [];
    const { counts, details } = checkInvariants(evidence);
    expect(counts.stuck).toBe(1);
    expect(details.join('\n')).toContain('still held');
    expect(counts.holdViolations).toBe(2); // never released, and no command.released
  });

  test('the summary shows held and released, and names the seed of a hold violation', () => {
    const round = (seed: number, counts: Partial<ReturnType<typeof emptyCounts>>): RoundResult => ({
      campaign: 'server-kill', seed, counts: { ...emptyCounts(), ...counts }, details: [], serverKills: 3, hostKills: 0, downtimes: [], inFlightAtKills: [],
      unknown: 0, rejected: [], burstMs: 500, holdsOffMs: null, durationMs: 1_000, dataDir: '/tmp/unused',
    });
    const table = summarise([round(5, { accepted: 80, held: 40, released: 40 }), round(6, { accepted: 80, held: 30, released: 29, holdViolations: 1 })]);
    const [header, row] = table.split('\n');
    const cells = (line: string) => line.trim().split(/\s{2,}/);
    const columns = cells(header!).slice(1);
    const values = Object.fromEntries(columns.map((c, i) => [c, cells(row!)[i + 1]]));
    expect(values).toMatchObject({ accepted: '160', held: '70', released: '69', holdViolations: '1' });
    expect(table).toContain('holdViolations: s6');
  });

  test('the quiet window is quiet now, across midnight too', () => {
    expect(quietWindowAround(Date.parse('2026-01-01T12:34:56Z'))).toBe('12:29-14:34');
    expect(quietWindowAround(Date.parse('2026-01-01T00:02:00Z'))).toBe('23:57-02:02');
    expect(quietWindowAround(Date.parse('2026-01-01T22:30:00Z'))).toBe('22:25-00:30');
    expect(quietWindowAround(Date.parse('2026-01-01T23:59:59Z'))).toBe('23:54-01:59');
  });
});

describe('Random', () => {
  test('the same seed gives the same choices; another seed other choices', () => {
    const draw = (seed: number) => {
      const r = new Random(seed);
      return Array.from({ length: 8 }, () => r.int(0, 1_000_000));
    };
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
  });

  test('int stays within its bounds', () => {
    const r = new Random(7);
    const values = Array.from({ length: 2_000 }, () => r.int(15, 120));
    expect(Math.min(...values)).toBe(15);
    expect(Math.max(...values)).toBe(120);
  });
});
