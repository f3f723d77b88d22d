import { describe, expect, test } from 'vitest';
import { setTimeout as delay } from 'node:timers/promises';
import { commandEventsInLog, DRIVERS, inbound, rigPerTest, toConversation, until, type Rig } from './helpers.ts';

/** Short leases so a host that dies or freezes is replaced within about a second. */
const LEASE_TTL_MS = 1_000;

describe.each(DRIVERS)('%s driver', (driver) => {
  // Each test is its own account, so its own lease.
  let rig: Rig;
  rigPerTest({ SWITCHBOARD_LEASE_TTL_MS: String(LEASE_TTL_MS) }, driver, (r) => (rig = r));

  async function capabilitiesHolder(): Promise<string | null> {
    const response = await fetch(`${rig.server.url}/v1/capabilities`, { headers: { authorization: `Bearer ${rig.apiKey}` } });
    return response.status === 200 ? ((await response.json()) as { hostId: string }).hostId : null;
  }

  // The simulator records each logical action with the host that executed it, in the same transaction.
  if (driver === 'simulator') {
    test('a host killed (kill -9) after the platform took the command: the next holder finds it there and settles it, once', async () => {
      // A waits long for the echo, so it dies with the message on the platform and nothing reported.
      const a = rig.host({ SWITCHBOARD_SIM_ECHO_LATENCY_MS: '30000' });
      await a.leased();
      const b = rig.host();
      const { conversationId } = await inbound(rig, '+14155550160', 'hi');

      const commandId = await rig.command('message.send', { target: toConversation(conversationId), payload: { text: 'exactly once' } });
      const record = await until(() => rig.platform.execution(commandId), 10_000, 'the platform taking the send');
      expect(record.hostId).toBe(a.hostId);
      await a.kill();

      const settled = await rig.settled(commandId);
      expect(settled.data).toMatchObject({ status: 'succeeded', errorCode: null });
      expect(await b.logs.waitFor((r) => r.msg === 'command already executed on the platform' && r.commandId === commandId)).toMatchObject({ epoch: 2 });
      expect(rig.platform.messagesOfAction(commandId)).toHaveLength(1);
      // B reported the echo A never got to report, once.
      expect(rig.stream.events.filter((e) => e.type === 'message.sent' && e.data.commandId === commandId)).toHaveLength(1);
      expect((await commandEventsInLog(rig)).get(commandId)).toBe(1);
    });

    test('a host killed (kill -9) before the platform took the command: the next holder executes it, once', async () => {
      const a = rig.host({ SWITCHBOARD_SIM_LATENCY_MS: '30000' });
      await a.leased();
      const b = rig.host();
      const { conversationId } = await inbound(rig, '+14155550161', 'hi');

      const commandId = await rig.command('message.send', { target: toConversation(conversationId), payload: { text: 'in flight' } });
      await a.logs.waitFor((r) => r.msg === 'command executing' && r.commandId === commandId);
      await a.kill();
      expect(rig.platform.execution(commandId)).toBeNull();

      expect((await rig.settled(commandId)).data).toMatchObject({ status: 'succeeded' });
      expect(rig.platform.execution(commandId)?.hostId).toBe(b.hostId);
      expect(rig.platform.messagesOfAction(commandId)).toHaveLength(1);
      expect((await commandEventsInLog(rig)).get(commandId)).toBe(1);
    });

    test('a paused host (SIGSTOP past the TTL, then SIGCONT) cannot settle: its settlement gets 409 lease_lost and the new holder settles the command once', async () => {
      const a = rig.host({ SWITCHBOARD_SIM_LATENCY_MS: '2500' });
      await a.leased();
      const b = rig.host();
      const { conversationId, messageExternalId } = await inbound(rig, '+14155550162', 'react to me');

      const commandId = await rig.command('reaction.tapback', { target: toConversation(conversationId), payload: { messageExternalId, tapback: 'love' } });
      await a.logs.waitFor((r) => r.msg === 'command executing' && r.commandId === commandId);
      // Paused inside the send's 2.5 s latency, not inside one of its platform writes: a process
      // stopped holding the simulator's write lock would lock the next holder out of the platform.
      await delay(300);
      a.pause();

      const settled = await rig.settled(commandId, 20_000);
      expect(settled.data).toMatchObject({ status: 'succeeded' });
      expect(await capabilitiesHolder()).toBe(b.hostId);
      expect(rig.platform.execution(commandId)?.hostId).toBe(b.hostId);

      a.resume();
      const refused = await a.logs.waitFor((r) => r.msg === 'settlement refused' && r.commandId === commandId, 20_000, 'the paused host\'s settlement being refused');
      expect(refused).toMatchObject({ error: 'lease_lost', epoch: 1 });
      // A's late call reached the platform after B's and was recognised as the same logical action.
      expect(rig.platform.messagesOfAction(commandId)).toHaveLength(1);
      expect((await commandEventsInLog(rig)).get(commandId)).toBe(1);
      expect(await capabilitiesHolder()).toBe(b.hostId);
    });
  }

  // BlueBubbles records nothing of the action: the next holder finds the send by its tempGuid and its message.
  if (driver === 'bluebubbles') {
    test('failover after BlueBubbles took the send: the next holder finds the message in BlueBubbles and settles it without sending again', async () => {
      const first = await rig.onlyHost({}, { answerDelayMs: 10_000 });
      const b = rig.host();
      const { conversationId } = await inbound(rig, '+14155550305', 'hi');
      const commandId = await rig.command('message.send', { target: toConversation(conversationId), payload: { text: 'exactly once through BlueBubbles' } });
      // Messages took it; BlueBubbles has not answered yet.
      await until(() => rig.actionMessages(commandId).length === 1, 10_000, 'the stand-in taking the send');
      await first.kill();
      rig.standIn!.options.answerDelayMs = 0;

      expect((await rig.settled(commandId)).data).toMatchObject({ status: 'succeeded', errorCode: null });
      expect(await b.logs.waitFor((r) => r.msg === 'command already executed on the platform' && r.commandId === commandId)).toBeTruthy();
      expect(rig.actionMessages(commandId)).toHaveLength(1);
      expect(rig.stream.events.filter((e) => e.type === 'message.sent' && e.data.commandId === commandId)).toHaveLength(1);
      expect((await commandEventsInLog(rig)).get(commandId)).toBe(1);
    });

    test('failover while BlueBubbles is still sending: the next holder\'s send meets the same tempGuid in its send cache, waits for that message and settles once', async () => {
      const first = await rig.onlyHost({}, { sendLatencyMs: 4_000 });
      const b = rig.host();
      const { conversationId } = await inbound(rig, '+14155550306', 'hi');
      const commandId = await rig.command('message.send', { target: toConversation(conversationId), payload: { text: 'in flight at the failover' } });
      await until(() => rig.standIn!.inFlight(`switchboard-${commandId}`), 10_000, 'the send reaching BlueBubbles');
      await first.kill();
      expect(rig.actionMessages(commandId)).toHaveLength(0);

      expect((await rig.settled(commandId, 20_000)).data).toMatchObject({ status: 'succeeded' });
      expect(await b.logs.waitFor((r) => r.commandId === commandId && r.msg === 'command settled')).toMatchObject({ detail: expect.stringMatching(/already in flight showed as/) });
      expect(rig.actionMessages(commandId)).toHaveLength(1);
      expect((await commandEventsInLog(rig)).get(commandId)).toBe(1);
    });
  }

  test('SIGTERM releases the lease at once, and the next host takes it without waiting for the TTL', async () => {
    const a = rig.host();
    await a.leased();
    expect(await capabilitiesHolder()).toBe(a.hostId);
    expect(await a.stop()).toBe(0);
    expect(a.logs.filter((r) => r.msg === 'lease released')).toHaveLength(1);
    expect(await capabilitiesHolder()).toBeNull();
  });

  test('a restarted host with the same hostId takes its own live lease over at once, with a new epoch', async () => {
    const first = rig.host({}, 'mac-mini-1');
    const lease = await first.leased();
    await first.kill();
    const again = rig.host({}, 'mac-mini-1');
    const relet = await again.leased();
    expect(Number(relet.epoch)).toBe(Number(lease.epoch) + 1);
    // Timed from the new process's start, not its spawn: a loaded machine can take seconds to spawn it.
    const started = await again.logs.waitFor((r) => r.msg === 'host starting');
    expect(Number(relet.time) - Number(started.time)).toBeLessThan(LEASE_TTL_MS);
  });
});
