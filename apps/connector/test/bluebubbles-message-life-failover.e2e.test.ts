import { setTimeout as sleep } from 'node:timers/promises';
import { Proxy, type HostProcess } from '@switchboard/testkit';
import { afterEach, describe, expect, test } from 'vitest';
import { inbound, rigPerTest, toConversation, until, type Rig } from './helpers.ts';
import type { StreamEnvelope } from './stream.ts';

/**
 * A message's state across the death of a host running the bluebubbles driver (the stand-in's
 * Mac on the simulated platform). BlueBubbles posts each webhook once; what a host lost is in the
 * Mac's database, which the next holder's catch-up reads again. So a host killed between the
 * Mac's state change and the server's record loses nothing, and a host killed after the record
 * adds nothing: the stream shows the state once.
 */
const LEASE_TTL_MS = 5_000;
/** Nothing listens on port 1: a host sent there has lost the network. */
const NOWHERE = 'http://127.0.0.1:1';
const iso = (ms: number | null | undefined) => new Date(ms!).toISOString();

describe('a message\'s states across the death of a bluebubbles host', () => {
  let rig: Rig;
  rigPerTest({ SWITCHBOARD_LEASE_TTL_MS: String(LEASE_TTL_MS) }, 'bluebubbles', (r) => (rig = r));
  let proxy: Proxy | undefined;
  let first: HostProcess | undefined;

  afterEach(async () => {
    await first?.kill();
    await proxy?.stop();
    first = undefined;
    proxy = undefined;
  });

  /** The account's events as the server's log holds them (JSON pages), not only what the open stream saw. */
  async function log(): Promise<StreamEnvelope[]> {
    const events: StreamEnvelope[] = [];
    for (let after = '0'; ;) {
      const response = await fetch(`${rig.server.url}/v1/events?after=${after}&limit=1000`, { headers: { authorization: `Bearer ${rig.apiKey}`, accept: 'application/json' } });
      const page = (await response.json()) as { events: StreamEnvelope[]; nextAfter: string };
      events.push(...page.events);
      if (page.events.length === 0) return events;
      after = page.nextAfter;
    }
  }

  const deliveredOf = (guid: string) => (e: StreamEnvelope) => e.type === 'message.delivered' && e.data.messageExternalId === guid;
  const updatedPosted = (guid: string) => () => rig.standIn!.delivered.some((d) => (d.body as any).type === 'updated-message' && (d.body as any).data.guid === guid);

  /** A host (reaching the server at `url`) holding the lease, and a message it sent in a direct conversation, settled: nothing of the send is left in flight. */
  async function sentBy(url: string, address: string): Promise<{ host: HostProcess; commandId: string; guid: string; conversationId: string }> {
    const host = rig.host({}, undefined, url);
    await host.leased();
    const { conversationId } = await inbound(rig, address, 'hi');
    const commandId = await rig.command('message.send', { target: toConversation(conversationId), payload: { text: 'will it arrive?' } });
    await host.logs.waitFor((r) => r.msg === 'command settled' && r.commandId === commandId);
    expect((await rig.settled(commandId)).data).toMatchObject({ status: 'succeeded' });
    const guid = rig.actionMessages(commandId)[0]!.externalId;
    return { host, commandId, guid, conversationId };
  }

  /** Several catch-ups of the next holder (every 250 ms), and something later reported: the delivery had every chance to reach the stream twice. */
  async function settleDown(): Promise<void> {
    await sleep(1_500);
    await inbound(rig, '+14155550599', 'later');
  }

  test('killed (kill -9) after the Mac delivered the message, its webhook lost and the report cut off: the next holder\'s catch-up reports it, once', async () => {
    proxy = await new Proxy(new URL(rig.server.url)).start();
    const sent = await sentBy(proxy.url, '+14155550501');
    first = sent.host;
    const { commandId, guid, conversationId } = sent;
    // The host loses the network to the server, and BlueBubbles' webhooks never reach it.
    proxy.retarget(NOWHERE);
    proxy.dropAll();
    rig.standIn!.options.dropWebhooks = true;
    rig.platform.changeMessage(guid, { change: 'delivered' });
    await until(updatedPosted(guid), 5_000, 'the updated-message webhook, dropped');
    // The host's catch-up found the delivery on the Mac and cannot report it.
    await first.logs.waitFor((r) => r.msg === 'platform events report failed; retrying', 10_000, 'the host failing to report the delivery');
    const onMac = rig.platform.message(guid)!;
    expect(onMac.deliveredAt).not.toBeNull();
    expect((await log()).filter(deliveredOf(guid))).toHaveLength(0);
    await first.kill();

    // Webhooks are still lost: only the next holder's catch-up can find the delivery.
    const next = rig.host();
    await next.leased(1, 20_000);
    const delivered = await rig.stream.waitFor(deliveredOf(guid), 20_000, 'the delivery, reported by the next holder');
    // What the Mac did, when it did it: not when the next holder got to report it.
    expect(delivered.data).toEqual({ conversationId, messageExternalId: guid, commandId, deliveredAt: iso(onMac.deliveredAt) });
    await settleDown();
    expect((await log()).filter(deliveredOf(guid))).toHaveLength(1);
    expect(rig.stream.events.filter(deliveredOf(guid))).toHaveLength(1);
  });

  test('killed (kill -9) after the server recorded the delivery: the next holder\'s catch-up reads it again and the stream shows it once', async () => {
    const sent = await sentBy(rig.server.url, '+14155550502');
    first = sent.host;
    const { guid } = sent;
    rig.platform.changeMessage(guid, { change: 'delivered' });
    await rig.stream.waitFor(deliveredOf(guid), 10_000, 'the delivery the server recorded');
    await first.kill();

    // A new host with a journal of its own: its catch-up reads the delivered message again.
    const next = rig.host();
    await next.leased(1, 20_000);
    await settleDown();
    expect((await log()).filter(deliveredOf(guid))).toHaveLength(1);
    expect(rig.stream.events.filter(deliveredOf(guid))).toHaveLength(1);
  });
});
