import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { ActionRef, ConversationRef, FeedEvent } from '../types.ts';
import { editedText, NOT_DELIVERED, planInbound, planOutbound, TAPBACKS, type PlannedChange } from './life.ts';
import { directExternalId, SimulatedPlatform, type OutboundPlanner } from './platform.ts';
import { Random } from './random.ts';
import { defaultLife, LIFE_SWITCH, LIFE_VARIABLES, noLife, readLifeSettings, type LifeSettings } from './settings.ts';

const HOST = 'host-a';
const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
let dir: string;
let path: string;
let clock: number;
const open: SimulatedPlatform[] = [];
let platform: SimulatedPlatform;

/** Another process on the same file, on the same clock (a second host, the CLI). */
function another(): SimulatedPlatform {
  const p = new SimulatedPlatform(path, 'account-1', { now: () => clock });
  open.push(p);
  return p;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sim-life-'));
  path = join(dir, 'simulator.db');
  clock = T0;
  platform = another();
});

afterEach(() => {
  for (const p of open.splice(0)) p.close();
  rmSync(dir, { recursive: true, force: true });
});

const action = (): ActionRef => {
  const commandId = randomUUID();
  return { commandId, logicalActionId: commandId };
};

function ref(externalId: string): ConversationRef {
  const state = platform.conversation(externalId)!;
  return { externalId, kind: state.kind, participants: state.participants, membershipVersion: state.membershipVersion };
}

/** A fixed plan, whatever the conversation. */
const fixed = (...plan: PlannedChange[]): OutboundPlanner => () => plan;

/** A direct conversation with someone, its feed reported; the account's message in it, echoed, with `plan`. */
function sendInDm(plan: OutboundPlanner, address = '+14155550101'): { conversation: string; messageExternalId: string; commandId: string } {
  platform.receive({ from: address, text: 'hi' });
  platform.ackFeed(platform.readFeed(100).through);
  const a = action();
  const outcome = platform.send(a, HOST, ref(directExternalId(address)), { kind: 'text', text: 'hello' }, 'none', plan);
  const echo = outcome.events.find((e) => e.type === 'message.sent')!;
  if (echo.type !== 'message.sent') throw new Error('no echo');
  return { conversation: echo.conversationExternalId, messageExternalId: echo.messageExternalId, commandId: a.commandId };
}

function group(plan?: OutboundPlanner): { conversation: string; messageExternalId: string } {
  const outcome = platform.createGroup(action(), HOST, ['+14155550101', '+14155550102'], 'hello all', 'Team', 'none', plan);
  const echo = outcome.events.find((e) => e.type === 'message.sent')!;
  if (echo.type !== 'message.sent') throw new Error('no echo');
  return { conversation: echo.conversationExternalId, messageExternalId: echo.messageExternalId };
}

/** Reads and acknowledges the feed, as a host does once its report was recorded. */
function report(p = platform): FeedEvent[] {
  const batch = p.readFeed(100);
  if (batch.events.length > 0) p.ackFeed(batch.through);
  return batch.events;
}

const types = (events: FeedEvent[]) => events.map((e) => e.type);

describe('drawing a message\'s life', () => {
  const all: LifeSettings = { ...noLife, delivered: 1, read: 1, reaction: 1, reactionRemoved: 1 };
  const dm = { conversationKind: 'direct' as const, participants: ['+14155550101'] };
  const chat = { conversationKind: 'group' as const, participants: ['+14155550101', '+14155550102'] };

  test('an echoed message is delivered after the echo and the delivery latency, read after that, and reacted to by the other person', () => {
    const plan = planOutbound(new Random(1), all, dm, 500);
    expect(plan.map((p) => p.change.change)).toEqual(['delivered', 'read', 'reaction', 'reaction']);
    const [delivered, read, added, removed] = plan.map((p) => p.afterMs) as [number, number, number, number];
    expect(delivered).toBeGreaterThanOrEqual(500 + all.deliveryLatency.min);
    expect(delivered).toBeLessThanOrEqual(500 + all.deliveryLatency.max);
    expect(read - delivered).toBeGreaterThanOrEqual(all.readLatency.min);
    expect(read - delivered).toBeLessThanOrEqual(all.readLatency.max);
    expect(added).toBeGreaterThan(delivered);
    expect(removed).toBeGreaterThan(added);
    const [a, r] = [plan[2]!.change, plan[3]!.change];
    expect(a).toMatchObject({ change: 'reaction', from: '+14155550101', action: 'added' });
    expect(r).toEqual({ ...a, action: 'removed' });
    expect(TAPBACKS).toContain((a as { tapback: string }).tapback);
  });

  test('a group message is never read; the reaction comes from one of its members', () => {
    for (let seed = 0; seed < 50; seed++) {
      const plan = planOutbound(new Random(seed), all, chat);
      expect(plan.map((p) => p.change.change)).toEqual(['delivered', 'reaction', 'reaction']);
      expect(chat.participants).toContain((plan[1]!.change as { from: string }).from);
    }
  });

  test('a failed message is neither delivered, read nor reacted to', () => {
    expect(planOutbound(new Random(1), { ...all, failed: 1 }, dm, 200)).toEqual([
      { afterMs: expect.any(Number), change: { change: 'failed', reason: 'not_delivered', platformMessage: NOT_DELIVERED } },
    ]);
  });

  test('with every probability 0 nothing happens and nothing is drawn', () => {
    const random = new Random(5);
    expect(planOutbound(random, noLife, dm)).toEqual([]);
    expect(planInbound(random, noLife, { kind: 'text', text: 'x' })).toEqual([]);
    expect(random.next()).toBe(new Random(5).next());
  });

  test('the same seed draws the same lives', () => {
    const draw = (seed: number) => {
      const random = new Random(seed);
      return Array.from({ length: 200 }, (_, i) => planOutbound(random, defaultLife, i % 2 ? dm : chat));
    };
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
  });

  test('the defaults: almost every message delivered within 1-3 s, about 1% failed, about half of direct ones read', () => {
    const random = new Random(2024);
    const plans = Array.from({ length: 20_000 }, () => planOutbound(random, defaultLife, dm));
    const share = (what: string) => plans.filter((p) => p.some((c) => c.change.change === what)).length / plans.length;
    expect(share('failed')).toBeCloseTo(0.01, 2);
    expect(share('delivered')).toBeCloseTo(0.99 * 0.97, 2);
    expect(share('read') / share('delivered')).toBeCloseTo(0.5, 1);
    const deliveries = plans.flatMap((p) => p.filter((c) => c.change.change === 'delivered').map((c) => c.afterMs));
    expect(Math.min(...deliveries)).toBeGreaterThanOrEqual(1_000);
    expect(Math.max(...deliveries)).toBeLessThanOrEqual(3_000);
  });

  test('someone else\'s text message may be unsent or else edited; other kinds are left alone', () => {
    expect(planInbound(new Random(1), { ...noLife, unsent: 1, edited: 1 }, { kind: 'text', text: 'hi' })).toEqual([{ afterMs: expect.any(Number), change: { change: 'unsent' } }]);
    expect(planInbound(new Random(1), { ...noLife, edited: 1 }, { kind: 'text', text: 'hi' })).toEqual([{ afterMs: expect.any(Number), change: { change: 'edited', text: editedText('hi') } }]);
    expect(planInbound(new Random(1), { ...noLife, edited: 1 }, { kind: 'text', text: null })).toEqual([]);
    expect(planInbound(new Random(1), { ...noLife, edited: 1, unsent: 1 }, { kind: 'poll_vote', text: null })).toEqual([]);
  });
});

describe('the platform keeps future states and feeds them when due', () => {
  test('delivered, then read: each on the feed once due, after the cursor, with its own time; nothing before', () => {
    const sent = sendInDm(fixed({ afterMs: 1_500, change: { change: 'delivered' } }, { afterMs: 4_000, change: { change: 'read' } }));
    expect(platform.pending().map((p) => [p.change.change, p.dueAt - T0])).toEqual([['delivered', 1_500], ['read', 4_000]]);
    clock = T0 + 1_499;
    expect(report()).toEqual([]);
    clock = T0 + 1_500;
    const delivered = report();
    // The conversation and the message's echo first, so the server knows the message and its command whichever report lands first.
    expect(types(delivered)).toEqual(['conversation.appeared', 'message.sent', 'message.delivered']);
    expect(delivered[1]).toMatchObject({ messageExternalId: sent.messageExternalId, commandId: sent.commandId });
    expect(delivered[2]).toEqual({ type: 'message.delivered', conversationExternalId: sent.conversation, messageExternalId: sent.messageExternalId, deliveredAt: iso(T0 + 1_500) });
    expect(platform.message(sent.messageExternalId)).toMatchObject({ deliveredAt: T0 + 1_500, readAt: null });

    // Released late (no host read the feed for a while), a state keeps the time it was due.
    clock = T0 + 60_000;
    expect(report().filter((e) => e.type === 'message.read')).toEqual([{ type: 'message.read', conversationExternalId: sent.conversation, messageExternalId: sent.messageExternalId, readAt: iso(T0 + 4_000) }]);
    expect(platform.pending()).toEqual([]);
    expect(report()).toEqual([]);
  });

  test('a host that dies before reporting a due state loses nothing: the next holder reads the same events, and the state changed once', () => {
    const sent = sendInDm(fixed({ afterMs: 1_000, change: { change: 'delivered' } }));
    clock = T0 + 1_000;
    // Host A: the state comes due and goes on the feed, then A dies before its report was recorded (no ack).
    const seenByA = platform.readFeed(100).events;
    expect(types(seenByA)).toContain('message.delivered');
    expect(platform.feedBacklog()).toBe(1);
    const b = another();
    const seenByB = b.readFeed(100);
    expect(seenByB.events).toEqual(seenByA);
    b.ackFeed(seenByB.through);
    expect(platform.readFeed(100).events).toEqual([]);
    expect(platform.messages(sent.conversation).filter((m) => m.externalId === sent.messageExternalId)).toEqual([expect.objectContaining({ deliveredAt: T0 + 1_000 })]);
  });

  test('the feed moves in due order across messages, after whatever was on it before', () => {
    const first = sendInDm(fixed({ afterMs: 3_000, change: { change: 'delivered' } }), '+14155550101');
    const second = sendInDm(fixed({ afterMs: 1_000, change: { change: 'delivered' } }), '+14155550102');
    platform.receive({ from: '+14155550103', text: 'unreported' });
    clock = T0 + 5_000;
    const delivered = report().flatMap((e) => (e.type === 'message.delivered' || e.type === 'message.received' ? [e.messageExternalId] : []));
    expect(delivered.slice(1)).toEqual([second.messageExternalId, first.messageExternalId]);
  });

  test('a group message is delivered once and never read', () => {
    const g = group(fixed({ afterMs: 1_000, change: { change: 'delivered' } }));
    clock = T0 + 1_000;
    expect(types(report())).toEqual(['conversation.appeared', 'message.sent', 'message.delivered']);
    expect(() => platform.changeMessage(g.messageExternalId, { change: 'read' })).toThrow(/no read receipts in groups/);
    // A read that was scheduled anyway (by a driver of another version) is dropped when due.
    const plan = platform.send(action(), HOST, ref(g.conversation), { kind: 'text', text: 'x' }, 'none', fixed({ afterMs: 10, change: { change: 'read' } }));
    expect(plan.result).toBe('confirmed');
    clock += 10;
    expect(types(report())).toEqual([]);
  });

  test('a failure after the echo names the platform\'s words; the message is never delivered after it', () => {
    const sent = sendInDm(fixed({ afterMs: 2_000, change: { change: 'failed', reason: 'not_delivered', platformMessage: NOT_DELIVERED } }, { afterMs: 3_000, change: { change: 'delivered' } }));
    clock = T0 + 10_000;
    const events = report();
    expect(types(events)).toEqual(['conversation.appeared', 'message.sent', 'message.failed']);
    expect(events[2]).toEqual({ type: 'message.failed', conversationExternalId: sent.conversation, messageExternalId: sent.messageExternalId, reason: 'not_delivered', platformMessage: 'Not Delivered', failedAt: iso(T0 + 2_000) });
    expect(platform.message(sent.messageExternalId)).toMatchObject({ failedAt: T0 + 2_000, deliveredAt: null, failure: { reason: 'not_delivered', platformMessage: 'Not Delivered' } });
    expect(platform.pending()).toEqual([]);
  });

  test('a change made by hand overtakes a scheduled one, which is dropped when due', () => {
    const sent = sendInDm(fixed({ afterMs: 2_000, change: { change: 'delivered' } }));
    expect(platform.changeMessage(sent.messageExternalId, { change: 'failed', reason: 'recipient_unreachable', platformMessage: null })).toEqual([
      { type: 'message.failed', conversationExternalId: sent.conversation, messageExternalId: sent.messageExternalId, reason: 'recipient_unreachable', platformMessage: null, failedAt: iso(T0) },
    ]);
    clock = T0 + 2_000;
    expect(types(report())).toEqual(['conversation.appeared', 'message.sent', 'message.failed']);
    expect(() => platform.changeMessage(sent.messageExternalId, { change: 'delivered' })).toThrow(/failed/);
  });

  test('a lost echo plans nothing; neither does a rejected send or a replayed one', () => {
    platform.receive({ from: '+14155550101', text: 'hi' });
    const dm = ref(directExternalId('+14155550101'));
    const plan = fixed({ afterMs: 0, change: { change: 'delivered' } });
    expect(platform.send(action(), HOST, dm, { kind: 'text', text: 'x' }, 'echo_lost', plan).result).toBe('accepted_no_echo');
    expect(platform.send(action(), HOST, dm, { kind: 'text', text: 'x' }, 'gateway_rejected', plan).result).toBe('gateway_rejected');
    const a = action();
    platform.send(a, HOST, dm, { kind: 'text', text: 'x' }, 'none', plan);
    platform.send(a, HOST, dm, { kind: 'text', text: 'x' }, 'none', plan);
    expect(platform.pending()).toHaveLength(1);
  });

  test('a planner is drawn once per inbound message, whichever host reads it first; its changes count from the arrival', () => {
    const { messageExternalId } = platform.receive({ from: '+14155550101', text: 'on my way' });
    clock = T0 + 700;
    platform.planInbound([messageExternalId], () => [{ afterMs: 1_000, change: { change: 'edited', text: 'on my way, 5 min' } }]);
    another().planInbound([messageExternalId], () => [{ afterMs: 1, change: { change: 'unsent' } }]);
    expect(platform.pending()).toEqual([{ messageExternalId, dueAt: T0 + 1_000, change: { change: 'edited', text: 'on my way, 5 min' } }]);
    clock = T0 + 1_000;
    expect(report().at(-1)).toEqual({ type: 'message.edited', conversationExternalId: directExternalId('+14155550101'), messageExternalId, senderExternalId: '+14155550101', text: 'on my way, 5 min', editedAt: iso(T0 + 1_000) });
    expect(platform.message(messageExternalId)).toMatchObject({ body: { text: 'on my way, 5 min' }, editedAt: T0 + 1_000 });
  });
});

describe('changes made by hand', () => {
  test('read without a delivery first delivers it; a state already reached is refused and changes nothing', () => {
    const sent = sendInDm(fixed());
    expect(types(platform.changeMessage(sent.messageExternalId, { change: 'read' }))).toEqual(['message.delivered', 'message.read']);
    expect(() => platform.changeMessage(sent.messageExternalId, { change: 'read' })).toThrow(/read already/);
    expect(() => platform.changeMessage(sent.messageExternalId, { change: 'delivered' })).toThrow(/delivered already/);
    expect(() => platform.changeMessage(sent.messageExternalId, { change: 'failed', reason: 'not_delivered', platformMessage: null })).toThrow(/does not fail/);
    expect(() => platform.changeMessage('NOPE', { change: 'delivered' })).toThrow(/no message "NOPE"/);
    expect(types(report())).toEqual(['conversation.appeared', 'message.sent', 'message.delivered', 'message.read']);
  });

  test('only the account\'s messages are delivered, read or failed; only others\' messages are edited or unsent', () => {
    const sent = sendInDm(fixed());
    const { messageExternalId: theirs } = platform.receive({ from: '+14155550101', text: 'x' });
    expect(() => platform.changeMessage(theirs, { change: 'delivered' })).toThrow(/not the account's message/);
    expect(() => platform.changeMessage(sent.messageExternalId, { change: 'edited', text: 'y' })).toThrow(/messages other people sent/);
    expect(() => platform.changeMessage(sent.messageExternalId, { change: 'unsent' })).toThrow(/messages other people sent/);
  });

  test('a tapback added then removed: two reactions with their own ids, on the account\'s message, by a member', () => {
    const sent = sendInDm(fixed());
    const [added] = platform.changeMessage(sent.messageExternalId, { change: 'reaction', from: '+14155550101', tapback: 'love', action: 'added' });
    expect(() => platform.changeMessage(sent.messageExternalId, { change: 'reaction', from: '+14155550101', tapback: 'love', action: 'added' })).toThrow(/already reacted love/);
    expect(() => platform.changeMessage(sent.messageExternalId, { change: 'reaction', from: '+14155550101', tapback: 'like', action: 'removed' })).toThrow(/no like on this message/);
    expect(() => platform.changeMessage(sent.messageExternalId, { change: 'reaction', from: '+14155550199', tapback: 'love', action: 'added' })).toThrow(/not in conversation/);
    clock += 1;
    const [removed] = platform.changeMessage(sent.messageExternalId, { change: 'reaction', from: '+14155550101', tapback: 'love', action: 'removed' });
    expect(added).toMatchObject({ type: 'message.reaction', messageExternalId: sent.messageExternalId, senderExternalId: '+14155550101', reaction: 'love', action: 'added', reactedAt: iso(T0) });
    expect(removed).toMatchObject({ type: 'message.reaction', reaction: 'love', action: 'removed', reactedAt: iso(T0 + 1) });
    if (added?.type !== 'message.reaction' || removed?.type !== 'message.reaction') throw new Error('no reactions');
    expect(added.reactionExternalId).not.toBe(removed.reactionExternalId);
    // Each is a tapback row of its own on the platform, as iMessage keeps them.
    expect(platform.message(removed.reactionExternalId)).toMatchObject({ kind: 'tapback', direction: 'in', sender: '+14155550101', associatedMessage: sent.messageExternalId, body: { tapback: 'love', remove: true } });
    expect(() => platform.changeMessage(added.reactionExternalId, { change: 'reaction', from: '+14155550101', tapback: 'like', action: 'added' })).toThrow(/is a tapback, not a message/);
    expect(types(report())).toEqual(['conversation.appeared', 'message.sent', 'message.reaction', 'message.reaction']);
  });

  test('a new tapback replaces the person\'s own; it can then be removed, the old one not', () => {
    const sent = sendInDm(fixed());
    platform.changeMessage(sent.messageExternalId, { change: 'reaction', from: '+14155550101', tapback: 'love', action: 'added' });
    platform.changeMessage(sent.messageExternalId, { change: 'reaction', from: '+14155550101', tapback: 'laugh', action: 'added' });
    expect(() => platform.changeMessage(sent.messageExternalId, { change: 'reaction', from: '+14155550101', tapback: 'love', action: 'removed' })).toThrow(/no love/);
    expect(platform.changeMessage(sent.messageExternalId, { change: 'reaction', from: '+14155550101', tapback: 'laugh', action: 'removed' })).toHaveLength(1);
  });

  test('edits each get their own time; an unsent message is neither edited nor reacted to again', () => {
    const { messageExternalId, conversationExternalId } = platform.receive({ from: '+14155550101', text: 'typo' });
    const [first] = platform.changeMessage(messageExternalId, { change: 'edited', text: 'typo fixed' });
    const [second] = platform.changeMessage(messageExternalId, { change: 'edited', text: 'typo fixed!' });
    expect(first).toMatchObject({ editedAt: iso(T0) });
    expect(second).toMatchObject({ editedAt: iso(T0 + 1) });
    expect(platform.changeMessage(messageExternalId, { change: 'unsent' })).toEqual([{ type: 'message.unsent', conversationExternalId, messageExternalId, senderExternalId: '+14155550101', unsentAt: iso(T0) }]);
    expect(() => platform.changeMessage(messageExternalId, { change: 'unsent' })).toThrow(/was unsent/);
    expect(() => platform.changeMessage(messageExternalId, { change: 'edited', text: 'z' })).toThrow(/was unsent/);
    expect(() => platform.changeMessage(messageExternalId, { change: 'reaction', from: '+14155550101', tapback: 'like', action: 'added' })).toThrow(/was unsent/);
    expect(platform.message(messageExternalId)).toMatchObject({ body: { text: 'typo fixed!' }, editedAt: T0 + 1, unsentAt: T0 });
  });

  test('--command finds the message a command sent', () => {
    const sent = sendInDm(fixed());
    expect(platform.messageOfCommand(sent.commandId)?.externalId).toBe(sent.messageExternalId);
    expect(platform.messageOfCommand(randomUUID())).toBeNull();
  });
});

describe('settings from the environment', () => {
  test('defaults to iMessage\'s life; every setting has its variable; off starts every probability at 0', () => {
    const problems: string[] = [];
    expect(readLifeSettings({}, problems)).toEqual(defaultLife);
    expect(readLifeSettings({ [LIFE_SWITCH]: 'off' }, problems)).toEqual(noLife);
    expect(readLifeSettings({ [LIFE_SWITCH]: 'off', SWITCHBOARD_SIM_P_DELIVERED: '1', SWITCHBOARD_SIM_DELIVERY_LATENCY_MS: '50-60' }, problems)).toEqual({ ...noLife, delivered: 1, deliveryLatency: { min: 50, max: 60 } });
    expect(problems).toEqual([]);
    expect(Object.keys(LIFE_VARIABLES).sort()).toEqual(Object.keys(defaultLife).sort());
  });

  test('names every bad value', () => {
    const problems: string[] = [];
    readLifeSettings({ [LIFE_SWITCH]: 'sometimes', SWITCHBOARD_SIM_P_READ: '1.5', SWITCHBOARD_SIM_READ_LATENCY_MS: '9-1' }, problems);
    expect(problems).toEqual([
      'SWITCHBOARD_SIM_MESSAGE_LIFE must be "on" or "off", got "sometimes"',
      'SWITCHBOARD_SIM_P_READ must be a probability from 0 to 1, got "1.5"',
      'SWITCHBOARD_SIM_READ_LATENCY_MS must be milliseconds as "N" or "MIN-MAX", got "9-1"',
    ]);
  });
});
