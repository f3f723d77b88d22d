import { setTimeout as delay } from 'node:timers/promises';
import { Proxy, startHost, type HostProcess } from '@switchboard/testkit';
import { afterEach, describe, expect, test } from 'vitest';
import { inbound, rigPerTest, toConversation, until, type Rig } from './helpers.ts';
import type { StreamEnvelope } from './stream.ts';

/**
 * The platform keeps a message's future states with their due times, and puts each on its feed
 * when due; the feed's cursor moves only once the server recorded a report. So a host killed
 * between the platform's state change and its report loses nothing: the next holder reports it,
 * and the server records it once.
 */
const LEASE_TTL_MS = 5_000;
const QUIET = { SWITCHBOARD_SIM_MESSAGE_LIFE: 'off', SWITCHBOARD_SIM_SEED: '33' };
/** Delivered 2 s after the send: after the test cut the host off, before its lease runs out. */
const DELIVERED_LATER = { ...QUIET, SWITCHBOARD_SIM_P_DELIVERED: '1', SWITCHBOARD_SIM_DELIVERY_LATENCY_MS: '2000' };
/** Nothing listens on port 1: a host sent there has lost the network. */
const NOWHERE = 'http://127.0.0.1:1';
const iso = (ms: number | null | undefined) => new Date(ms!).toISOString();

describe('a message\'s states across a host\'s death', () => {
  let rig: Rig;
  rigPerTest({ SWITCHBOARD_LEASE_TTL_MS: String(LEASE_TTL_MS) }, 'simulator', (r) => (rig = r));
  let proxy: Proxy | undefined;
  let first: HostProcess | undefined;

  afterEach(async (context) => {
    if (context.task.result?.state === 'fail' && first) console.error(`--- the host behind the proxy\n${first.logs.text.slice(-40).join('\n')}\n${first.stderr.join('')}`);
    await first?.kill();
    await proxy?.stop();
    first = undefined;
    proxy = undefined;
  });

  const deliveredOf = (messageExternalId: string) => (e: StreamEnvelope) => e.type === 'message.delivered' && e.data.messageExternalId === messageExternalId;

  /** A host that reaches the server through a proxy the test can cut, holding the lease, and a message it sent in a direct conversation. */
  async function sentThroughProxy(address: string): Promise<{ commandId: string; messageExternalId: string; conversationId: string }> {
    proxy = await new Proxy(new URL(rig.server.url)).start();
    first = startHost({ url: proxy.url, connectorKey: rig.connectorKey, env: { SWITCHBOARD_SIM_DB: rig.simDb, SWITCHBOARD_SIM_FEED_POLL_MS: '10', ...DELIVERED_LATER } });
    await first.leased();
    const { conversationId } = await inbound(rig, address, 'hi');
    const commandId = await rig.command('message.send', { target: toConversation(conversationId), payload: { text: 'will it arrive?' } });
    // The host has its settlement's answer: nothing of the command is left in flight.
    await first.logs.waitFor((r) => r.msg === 'command settled' && r.commandId === commandId);
    const sent = await rig.stream.waitFor((e) => e.type === 'message.sent' && e.data.commandId === commandId);
    return { commandId, messageExternalId: sent.data.messageExternalId, conversationId };
  }

  /** Something later on the feed, reported: the delivery had every chance to reach the stream twice. */
  async function settleDown(): Promise<void> {
    await until(() => rig.platform.feedBacklog() === 0, 15_000, 'the next holder reporting the feed');
    await inbound(rig, '+14155550399', 'later');
  }

  test('killed (kill -9) after the platform delivered the message, before the report reached the server: the next holder reports it, once', async () => {
    const { commandId, messageExternalId, conversationId } = await sentThroughProxy('+14155550301');
    // The host loses the network before the delivery comes due.
    proxy!.retarget(NOWHERE);
    proxy!.dropAll();
    // The delivery came due: the platform changed and put it on its feed, and the host cannot report it.
    await first!.logs.waitFor((r) => r.msg === 'platform events report failed; retrying', 10_000, 'the host failing to report the delivery');
    const onPlatform = rig.platform.message(messageExternalId)!;
    expect(onPlatform.deliveredAt).not.toBeNull();
    expect(rig.platform.feedBacklog()).toBeGreaterThan(0);
    expect(rig.stream.events.filter(deliveredOf(messageExternalId))).toHaveLength(0);
    await first!.kill();

    const next = rig.host(QUIET);
    await next.leased(1, 20_000);
    const delivered = await rig.stream.waitFor(deliveredOf(messageExternalId), 20_000, 'the delivery, reported by the next holder');
    // What the platform did, when it did it: not when the next holder got to report it.
    expect(delivered.data).toEqual({ conversationId, messageExternalId, commandId, deliveredAt: iso(onPlatform.deliveredAt) });
    await settleDown();
    expect(rig.stream.events.filter(deliveredOf(messageExternalId))).toHaveLength(1);
    expect(rig.platform.message(messageExternalId)!.deliveredAt).toBe(onPlatform.deliveredAt);
  });

  test('killed (kill -9) after the server recorded the delivery, before the host heard: the next holder reports it again and the stream shows it once', async () => {
    const { messageExternalId } = await sentThroughProxy('+14155550302');
    // The report of the delivery reaches the server; its answer never reaches the host, which then loses the network.
    // It is the feed's only batch of three (the conversation, the message's echo, its delivery): the
    // proxy matches what a kept-alive connection carried before too, and the inbound message's was two.
    const cut = proxy!.cutNext({ after: '{"recorded":3}', extraBytes: -1 });
    await cut;
    proxy!.retarget(NOWHERE);
    proxy!.dropAll();
    await rig.stream.waitFor(deliveredOf(messageExternalId), 10_000, 'the delivery the server recorded');
    expect(rig.platform.feedBacklog()).toBeGreaterThan(0);
    await first!.kill();

    const next = rig.host(QUIET);
    await next.leased(1, 20_000);
    await settleDown();
    expect(rig.stream.events.filter(deliveredOf(messageExternalId))).toHaveLength(1);
  });

  test('a state that came due while no host ran is reported by the next one, with the time it happened, whatever that host\'s settings', async () => {
    const host = await rig.onlyHost(DELIVERED_LATER);
    const { conversationId } = await inbound(rig, '+14155550303', 'hi');
    const commandId = await rig.command('message.send', { target: toConversation(conversationId), payload: { text: 'while you were away' } });
    await rig.settled(commandId);
    await host.stop();
    const [due] = rig.platform.pending();
    expect(due).toMatchObject({ change: { change: 'delivered' } });
    await delay(Math.max(0, due!.dueAt - Date.now() + 300));

    // This host draws no lives; the platform kept the one drawn before.
    await rig.onlyHost(QUIET);
    const delivered = await rig.stream.waitFor(deliveredOf(due!.messageExternalId), 15_000, 'the delivery that came due while no host ran');
    expect(delivered.data).toMatchObject({ commandId, deliveredAt: iso(due!.dueAt) });
    await settleDown();
    expect(rig.stream.events.filter(deliveredOf(due!.messageExternalId))).toHaveLength(1);
  });
});
