import { describe, expect, test } from 'vitest';
import { checkInvariants, type CommandRecord, type Evidence, type StreamEvent } from './invariants.ts';
import { Random } from './random.ts';
import { StreamRecorder } from './recorder.ts';
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

/** A round where everything held: two commands, each settled once, seen live as it is now. */
function healthy(): Evidence {
  const finalEvents = [
    { id: '1', type: 'message.sent', data: { conversationId: CONV, messageExternalId: 'm1', commandId: A } },
    settled('2', A),
    settled('3', B),
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
  };
}

describe('checkInvariants counts each broken promise', () => {
  test('a round where every command settled once counts nothing', () => {
    const { counts } = checkInvariants(healthy());
    expect(counts).toMatchObject({ accepted: 2, lost: 0, stuck: 0, duplicateSettlements: 0, settledWithoutEvent: 0, rewrittenIds: 0, missedOnResume: 0 });
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
    evidence.finalEvents = [{ id: '1', type: 'message.sent', data: { conversationId: CONV, messageExternalId: 'other', commandId: A } }, settled('3', B), settled('5', A)];
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
