import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { ActionRef, ConversationRef, FeedEvent } from '../types.ts';
import { SimulatorDriver } from './driver.ts';
import { directExternalId } from './platform.ts';
import { noFaults, type FaultSettings, type SimulatorSettings } from './settings.ts';

let dir: string;
const drivers: SimulatorDriver[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sim-driver-'));
});

afterEach(async () => {
  await Promise.all(drivers.splice(0).map((d) => d.close()));
  rmSync(dir, { recursive: true, force: true });
});

function driver(overrides: Partial<SimulatorSettings> = {}, osMajorVersion = 15): SimulatorDriver {
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
  const d = new SimulatorDriver(settings, { account: 'account-1', hostId: `host-${drivers.length}`, osMajorVersion, log: pino({ level: 'silent' }) });
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
