import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { ActionRef, ConversationRef, FeedEvent } from '../types.ts';
import { SimulatorDriver } from './driver.ts';
import { directExternalId } from './platform.ts';
import { noFaults, noLife, type FaultSettings, type SimulatorSettings } from './settings.ts';

let dir: string;
const drivers: SimulatorDriver[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sim-driver-'));
});

afterEach(async () => {
  await Promise.all(drivers.splice(0).map((d) => d.close()));
  rmSync(dir, { recursive: true, force: true });
});

function driver(overrides: Partial<SimulatorSettings> = {}, osMajorVersion = 15, now?: () => number): SimulatorDriver {
  const settings: SimulatorSettings = {
    dbPath: join(dir, 'simulator.db'),
    seed: 7,
    sendLatency: { min: 0, max: 0 },
    echoLatency: { min: 0, max: 0 },
    faults: noFaults,
    removeStallMs: 0,
    feedPollMs: 5,
    ...overrides,
  };
  const d = new SimulatorDriver(settings, { account: 'account-1', hostId: `host-${drivers.length}`, osMajorVersion, log: pino({ level: 'silent' }), ...(now ? { now } : {}) });
  drivers.push(d);
  return d;
}

const action = (): ActionRef => {
  const commandId = randomUUID();
  return { commandId, logicalActionId: commandId };
};

function dmWith(d: SimulatorDriver, address: string): ConversationRef {
  d.platform.receive({ from: address, text: 'hi' });
  return { externalId: directExternalId(address), kind: 'direct', participants: [address], membershipVersion: 0 };
}

async function results(d: SimulatorDriver, count: number): Promise<string[]> {
  const dm = dmWith(d, '+14155550101');
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push((await d.sendToConversation(action(), dm, { kind: 'text', text: `m${i}` })).result);
  return out;
}

describe('fault injection', () => {
  test.each<[keyof FaultSettings, string]>([
    ['gatewayRejected', 'gateway_rejected'],
    ['sendNotOk', 'send_not_ok'],
    ['echoLost', 'accepted_no_echo'],
  ])('%s at probability 1 makes every send end %s', async (fault, result) => {
    const d = driver({ faults: { ...noFaults, [fault]: 1 } });
    expect(await results(d, 5)).toEqual(Array(5).fill(result));
  });

  test('groupUpdateUnverified at probability 1 leaves every group change unconfirmed', async () => {
    const d = driver({ faults: { ...noFaults, groupUpdateUnverified: 1 } });
    const created = await d.createGroup(action(), ['+14155550101', '+14155550102'], 'hi', null);
    const g = created.events[0]!;
    if (g.type !== 'conversation.appeared') throw new Error('expected conversation.appeared');
    const ref: ConversationRef = { externalId: g.externalId, kind: 'group', participants: g.participants, membershipVersion: 0 };
    expect((await d.renameGroup(action(), ref, 'x')).result).toBe('group_update_unverified');
    expect((await d.addParticipant(action(), ref, '+14155550103')).result).toBe('group_update_unverified');
    expect((await d.removeParticipant(action(), ref, '+14155550102')).result).toBe('group_update_unverified');
  });

  test('the same seed gives the same faults in the same order; probabilities split one draw', async () => {
    const faults = { ...noFaults, gatewayRejected: 0.2, sendNotOk: 0.2, echoLost: 0.2 };
    const first = await results(driver({ seed: 42, faults }), 40);
    const second = await results(driver({ seed: 42, faults, dbPath: join(dir, 'again.db') }), 40);
    expect(second).toEqual(first);
    expect(new Set(first)).toEqual(new Set(['confirmed', 'gateway_rejected', 'send_not_ok', 'accepted_no_echo']));
  });
});

describe('latency', () => {
  test('a send waits the send latency and then the echo latency', async () => {
    const d = driver({ sendLatency: { min: 30, max: 30 }, echoLatency: { min: 30, max: 30 } });
    const dm = dmWith(d, '+14155550101');
    const started = performance.now();
    const a = action();
    const sending = d.sendToConversation(a, dm, { kind: 'text', text: 'x' });
    // The platform has not taken it yet: it is still in flight.
    expect(d.platform.messagesOfAction(a.logicalActionId)).toHaveLength(0);
    expect((await sending).result).toBe('confirmed');
    expect(performance.now() - started).toBeGreaterThanOrEqual(59);
  });
});

describe('remove_participant on OS major version 26', () => {
  test('stalls for the configured time, then is unverified, and the membership is unchanged', async () => {
    const d = driver({ removeStallMs: 80 }, 26);
    const created = await d.createGroup(action(), ['+14155550101', '+14155550102'], 'hi', null);
    const g = created.events[0]!;
    if (g.type !== 'conversation.appeared') throw new Error('expected conversation.appeared');
    const ref: ConversationRef = { externalId: g.externalId, kind: 'group', participants: g.participants, membershipVersion: 0 };
    const started = performance.now();
    const outcome = await d.removeParticipant(action(), ref, '+14155550102');
    expect(outcome.result).toBe('group_update_unverified');
    expect(performance.now() - started).toBeGreaterThanOrEqual(79);
    expect(d.platform.conversation(g.externalId)?.participants).toEqual(['+14155550101', '+14155550102']);
  });

  test('other OS versions remove the participant', async () => {
    const d = driver({ removeStallMs: 10_000 }, 25);
    const created = await d.createGroup(action(), ['+14155550101', '+14155550102'], 'hi', null);
    const g = created.events[0]!;
    if (g.type !== 'conversation.appeared') throw new Error('expected conversation.appeared');
    const ref: ConversationRef = { externalId: g.externalId, kind: 'group', participants: g.participants, membershipVersion: 0 };
    expect((await d.removeParticipant(action(), ref, '+14155550102')).result).toBe('confirmed');
  });
});

describe('feed subscription', () => {
  test('delivers inbound messages in order and moves past a batch only once the listener succeeded', async () => {
    const d = driver();
    const delivered: FeedEvent[][] = [];
    let failNext = true;
    let wake: () => void = () => undefined;
    const twoDeliveries = new Promise<void>((resolve) => (wake = resolve));
    const subscription = d.subscribe(async (events) => {
      delivered.push(events);
      if (failNext) {
        failNext = false;
        throw new Error('server unreachable');
      }
      wake();
    });
    d.platform.receive({ from: '+14155550101', text: 'one' });
    d.platform.receive({ from: '+14155550101', text: 'two' });
    await twoDeliveries;
    await subscription.stop();
    const texts = (batch: FeedEvent[]) => batch.flatMap((e) => (e.type === 'message.received' ? [e.text] : []));
    // The failed batch came again, whole.
    expect(texts(delivered[1]!)).toEqual(texts(delivered[0]!));
    expect(texts(delivered.at(-1)!)).toContain('two');
    expect(d.platform.readFeed(10).events).toEqual([]);
  });
});

describe('the lives of messages', () => {
  const T0 = Date.parse('2030-01-01T00:00:00.000Z');
  const life = { ...noLife, delivered: 1, read: 1, deliveryLatency: { min: 1_000, max: 3_000 }, readLatency: { min: 2_000, max: 4_000 } };

  /** Subscribes and collects every event delivered, until stopped. */
  function collect(d: SimulatorDriver): { events: FeedEvent[]; next: (predicate: (e: FeedEvent) => boolean) => Promise<FeedEvent>; stop: () => Promise<void> } {
    const events: FeedEvent[] = [];
    const waiters = new Set<() => void>();
    const subscription = d.subscribe(async (batch) => {
      events.push(...batch);
      for (const wake of [...waiters]) wake();
    });
    return {
      events,
      next: (predicate) => new Promise((resolve) => {
        const check = () => {
          const found = events.find(predicate);
          if (found) {
            waiters.delete(check);
            resolve(found);
          }
        };
        waiters.add(check);
        check();
      }),
      stop: () => subscription.stop(),
    };
  }

  test('a send is delivered, then read, once the platform\'s clock passes each due time; the feed delivers them after the echo', async () => {
    let clock = T0;
    const d = driver({ life, echoLatency: { min: 0, max: 0 } }, 15, () => clock);
    const dm = dmWith(d, '+14155550101');
    const a = action();
    const outcome = await d.sendToConversation(a, dm, { kind: 'text', text: 'x' });
    const echo = outcome.events[0]!;
    if (echo.type !== 'message.sent') throw new Error('no echo');
    const [delivered, read] = d.platform.pending();
    expect(delivered).toMatchObject({ messageExternalId: echo.messageExternalId, change: { change: 'delivered' } });
    expect(read).toMatchObject({ change: { change: 'read' } });
    expect(delivered!.dueAt - T0).toBeGreaterThanOrEqual(1_000);
    expect(read!.dueAt - delivered!.dueAt).toBeGreaterThanOrEqual(2_000);

    const feed = collect(d);
    await feed.next((e) => e.type === 'message.received');
    clock = delivered!.dueAt;
    expect(await feed.next((e) => e.type === 'message.delivered')).toEqual({ type: 'message.delivered', conversationExternalId: dm.externalId, messageExternalId: echo.messageExternalId, deliveredAt: new Date(delivered!.dueAt).toISOString() });
    expect(feed.events.some((e) => e.type === 'message.read')).toBe(false);
    clock = read!.dueAt;
    await feed.next((e) => e.type === 'message.read');
    await feed.stop();
    expect(feed.events.map((e) => e.type)).toEqual(['conversation.appeared', 'message.received', 'conversation.appeared', 'message.sent', 'message.delivered', 'conversation.appeared', 'message.sent', 'message.read']);
  });

  test('the life starts after the echo latency', async () => {
    const d = driver({ life: { ...life, read: 0, deliveryLatency: { min: 0, max: 0 } }, echoLatency: { min: 40, max: 40 } }, 15, () => T0);
    await d.sendToConversation(action(), dmWith(d, '+14155550101'), { kind: 'text', text: 'x' });
    expect(d.platform.pending().map((p) => p.dueAt - T0)).toEqual([40]);
  });

  test('the same seed draws the same lives; turning lives on changes no fault and no latency', async () => {
    const lives = async (seed: number, dbPath: string) => {
      const d = driver({ seed, dbPath, life: { ...life, failed: 0.3, read: 0.5, reaction: 0.5, reactionRemoved: 0.5 } }, 15, () => T0);
      await results(d, 20);
      return d.platform.pending().map((p) => [p.dueAt, p.change]);
    };
    expect(await lives(42, join(dir, 'a.db'))).toEqual(await lives(42, join(dir, 'b.db')));
    const faults = { ...noFaults, gatewayRejected: 0.2, sendNotOk: 0.2, echoLost: 0.2 };
    const without = await results(driver({ seed: 9, faults, dbPath: join(dir, 'c.db') }), 40);
    const withLives = await results(driver({ seed: 9, faults, dbPath: join(dir, 'd.db'), life: { ...life, failed: 0.5, reaction: 1 } }), 40);
    expect(withLives).toEqual(without);
  });

  test('messages other people send are planned once, by the host that reads them first; edits come after them on the feed', async () => {
    let clock = T0;
    const first = driver({ life: { ...noLife, edited: 1, editLatency: { min: 5_000, max: 5_000 } } }, 15, () => clock);
    const next = driver({ life: { ...noLife, unsent: 1 } }, 15, () => clock);
    const { messageExternalId } = first.platform.receive({ from: '+14155550101', text: 'see you at 5' });
    // The first host reads the message, draws its life, and dies before its report is recorded.
    let read: () => void = () => undefined;
    const wasRead = new Promise<void>((resolve) => (read = resolve));
    const dying = first.subscribe(async () => {
      read();
      throw new Error('killed');
    });
    await wasRead;
    await dying.stop();
    // The next holder reports the same message and draws nothing more.
    const feed = collect(next);
    await feed.next((e) => e.type === 'message.received');
    expect(next.platform.pending()).toEqual([{ messageExternalId, dueAt: T0 + 5_000, change: { change: 'edited', text: 'see you at 5 (edited)' } }]);
    clock = T0 + 5_000;
    expect(await feed.next((e) => e.type === 'message.edited')).toMatchObject({ messageExternalId, text: 'see you at 5 (edited)', editedAt: new Date(T0 + 5_000).toISOString() });
    await feed.stop();
  });
});

describe('media: attachments, stickers and group photos', () => {
  const media = { fileName: 'report.pdf', mimeType: 'application/pdf', bytes: new Uint8Array([37, 80, 68, 70, 45, 49]) };

  test.each(['attachment', 'sticker'] as const)('a %s is a message with its file, echoed like text; a repeat of the action replays it', async (kind) => {
    const d = driver();
    const dm = dmWith(d, '+14155550161');
    const act = action();
    const outcome = await d.sendToConversation(act, dm, { kind, media });
    expect(outcome).toMatchObject({ result: 'confirmed', events: [{ type: 'message.sent', conversationExternalId: dm.externalId, commandId: act.commandId }] });
    const [sent] = d.platform.messagesOfAction(act.logicalActionId);
    expect(sent).toMatchObject({ kind, direction: 'out', body: { fileName: 'report.pdf', mimeType: 'application/pdf', byteSize: 6 } });
    expect(d.platform.attachment((sent!.body.attachmentIds as string[])[0]!).bytes).toEqual(media.bytes);
    expect(await d.sendToConversation(act, dm, { kind, media })).toMatchObject({ result: 'confirmed', replayed: true });
    expect(d.platform.messagesOfAction(act.logicalActionId)).toHaveLength(1);
  });

  test('set_photo keeps the image as the group\'s photo; a direct conversation is not a group', async () => {
    const d = driver();
    const created = await d.createGroup(action(), ['+14155550162', '+14155550163'], 'hi', null);
    const appeared = created.events[0]!;
    if (appeared.type !== 'conversation.appeared') throw new Error('no conversation.appeared');
    const group: ConversationRef = { externalId: appeared.externalId, kind: 'group', participants: appeared.participants, membershipVersion: 0 };
    expect(await d.setGroupPhoto(action(), group, media)).toMatchObject({ result: 'confirmed', events: [] });
    const state = d.platform.conversation(group.externalId)!;
    expect(state.photoSha256).toBe(createHash('sha256').update(media.bytes).digest('hex'));
    expect(d.platform.attachment(state.photoAttachmentId!)).toMatchObject({ fileName: 'report.pdf', mimeType: 'application/pdf', bytes: media.bytes });
    expect(await d.setGroupPhoto(action(), dmWith(d, '+14155550164'), media)).toMatchObject({ result: 'invalid_target' });
  });

  test('set_photo under the group-update fault is unverified, and the photo stays as it was', async () => {
    const d = driver({ faults: { ...noFaults, groupUpdateUnverified: 1 } });
    const created = await d.createGroup(action(), ['+14155550165', '+14155550166'], 'hi', null);
    const appeared = created.events[0]!;
    if (appeared.type !== 'conversation.appeared') throw new Error('no conversation.appeared');
    const group: ConversationRef = { externalId: appeared.externalId, kind: 'group', participants: appeared.participants, membershipVersion: 0 };
    expect(await d.setGroupPhoto(action(), group, media)).toMatchObject({ result: 'group_update_unverified' });
    expect(d.platform.conversation(group.externalId)!.photoSha256).toBeNull();
  });
});
