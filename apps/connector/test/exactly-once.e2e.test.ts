import type { ServerProcess } from '@switchboard/testkit';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { Random } from '../src/driver/simulator/random.ts';
import { commandEventsInLog, inbound, removeDataDir, startRig, startServer, toConversation, until, type Rig } from './helpers.ts';

const COMMANDS = 3_000;
const CONCURRENCY = 16;
const LEASE_TTL_MS = 1_000;

/** The platform misbehaves often enough that every failure path runs hundreds of times. */
const faultyHost = (seed: number) => ({
  SWITCHBOARD_SIM_SEED: String(seed),
  SWITCHBOARD_SIM_LATENCY_MS: '0-2',
  SWITCHBOARD_SIM_ECHO_LATENCY_MS: '0-2',
  SWITCHBOARD_SIM_P_GATEWAY_REJECTED: '0.04',
  SWITCHBOARD_SIM_P_SEND_NOT_OK: '0.04',
  SWITCHBOARD_SIM_P_ECHO_LOST: '0.04',
  SWITCHBOARD_SIM_P_GROUP_UPDATE_UNVERIFIED: '0.15',
});

let server: ServerProcess;
let rig: Rig;

beforeAll(async () => {
  // The rate limit of 60/min per credential would make this test take an hour; 0 lifts it.
  server = await startServer({ SWITCHBOARD_RATE_LIMIT: '0', SWITCHBOARD_LEASE_TTL_MS: String(LEASE_TTL_MS) });
  rig = await startRig({}, server);
});

afterEach((context) => {
  if (context.task.result?.state === 'fail') console.error(rig.dump());
});

afterAll(async () => {
  await rig?.close();
  await server?.stop();
  if (server) removeDataDir(server.dataDir);
});

interface Conversation {
  conversationId: string;
  externalId: string;
  kind: 'direct' | 'group';
  /** Who can write in it. */
  people: string[];
  inbound: string[];
}

type Body = { target: Record<string, unknown>; payload: Record<string, unknown> };

test(`every 202 has exactly one command event, over ${COMMANDS} randomized commands with platform faults and a host killed midway`, async () => {
  const random = new Random(20_261_122);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random.next() * items.length)]!;

  const settled = new Map<string, Record<string, any>>();
  rig.stream.onEvent((e) => {
    if (e.type === 'command.settled') settled.set(e.data.commandId, e.data);
  });
  const first = rig.host(faultyHost(1), 'exactly-once-a');
  await first.leased();
  const second = rig.host(faultyHost(2), 'exactly-once-b');

  const conversations: Conversation[] = [];
  for (let i = 0; i < 6; i++) {
    const address = `+1415555017${i}`;
    const { conversationId, messageExternalId } = await inbound(rig, address, `hello ${i}`);
    conversations.push({ conversationId, externalId: `sim;-;${address}`, kind: 'direct', people: [address], inbound: [messageExternalId] });
  }
  for (let i = 0; i < 3; i++) {
    // Groups started by other people, so every command event of the run belongs to a command the run posted.
    const people = [`+1415555018${i}`, `+1415555019${i}`];
    const started = rig.platform.receive({ from: people[0]!, group: { participants: people, name: `Group ${i}` }, text: 'welcome' });
    const event = await rig.stream.waitFor((e) => e.type === 'message.received' && e.data.messageExternalId === started.messageExternalId);
    conversations.push({ conversationId: event.data.conversationId, externalId: started.conversationExternalId, kind: 'group', people, inbound: [started.messageExternalId] });
  }
  const recipients = ['ann@example.com', 'bo@example.com', 'cy@example.com', '+14155550177', 'gone@example.invalid'];
  let keys = 0;
  const usedKeys: string[] = [];

  /** One random command: the type, its body and, for agent-turn retries, an Idempotency-Key. */
  function next(): { type: string; body: Body; key?: string } {
    const c = pick(conversations);
    const to = toConversation(c.conversationId);
    const r = random.next();
    if (r < 0.3) return { type: 'message.send', body: { target: to, payload: { text: `text ${random.next()}` } } };
    if (r < 0.36) return { type: 'message.send', body: { target: to, payload: pick([{ kind: 'rich_text', text: 'rich', effect: 'echo' }, { kind: 'rich_link', url: 'https://example.com' }, { kind: 'poll', question: 'q', options: ['a', 'b'] }]) } };
    if (r < 0.4) return { type: 'message.send', body: { target: to, payload: pick([{ txt: 'typo' }, { kind: 'poll', question: 'q', options: [] }, { kind: 'attachment', transferId: 'x' }]) } };
    if (r < 0.48) return { type: 'message.send', body: { target: { kind: 'recipient', recipientExternalId: pick(recipients) }, payload: { text: 'hi' } } };
    if (r < 0.54) return { type: 'reaction.tapback', body: { target: to, payload: { messageExternalId: c.inbound.length > 0 && random.chance(0.8) ? pick(c.inbound) : 'UNKNOWN', tapback: 'like' } } };
    if (r < 0.59) return { type: 'reaction.apply', body: { target: to, payload: { tapback: 'love' } } };
    if (r < 0.62) return { type: 'name_photo.share', body: { target: to, payload: {} } };
    if (r < 0.65) return { type: 'group.create', body: { target: { kind: 'participants', participantExternalIds: ['+14155550188', '+14155550189'] }, payload: { text: 'new group' } } };
    const group = pick(conversations.filter((x) => x.kind === 'group'));
    const toGroup = toConversation(group.conversationId);
    if (r < 0.72) return { type: 'group.update', body: { target: toGroup, payload: { action: 'rename', name: `name ${random.next()}` } } };
    if (r < 0.75) {
      const person = `+1415555020${Math.floor(random.next() * 10)}`;
      if (!group.people.includes(person)) group.people.push(person);
      return { type: 'group.update', body: { target: toGroup, payload: { action: 'add_participant', participantExternalId: person } } };
    }
    if (r < 0.78) return { type: 'group.update', body: { target: toGroup, payload: { action: 'remove_participant', participantExternalId: pick(group.people.slice(2).concat('+14155550299')) } } };
    // An agent-turn retry: a new key, or one already used (adopted: no new work, no new event).
    const key = usedKeys.length > 0 && random.chance(0.5) ? pick(usedKeys) : `key-${++keys}`;
    usedKeys.push(key);
    return { type: 'message.send', body: { target: toConversation(pick(conversations.filter((x) => x.kind === 'direct')).conversationId), payload: { text: `keyed ${key}` } }, key };
  }

  const queued = new Set<string>();
  const adopted: string[] = [];
  let posted = 0;
  let killed = false;
  const worker = async () => {
    while (posted < COMMANDS) {
      const n = posted++;
      if (n === COMMANDS / 2 && !killed) {
        killed = true;
        // Kill whoever holds the lease now, in the middle of the traffic.
        const holder = (await (await fetch(`${server.url}/v1/capabilities`, { headers: { authorization: `Bearer ${rig.apiKey}` } })).json()) as { hostId: string };
        await (holder.hostId === first.hostId ? first : second).kill();
      }
      if (n % 150 === 0) {
        // People keep writing: groups become usable again after an add, and there is more to react to.
        for (const c of conversations) {
          try {
            c.inbound.push(rig.platform.receive({ from: pick(c.people), conversationExternalId: c.externalId, text: 'ping' }).messageExternalId);
          } catch {
            // the person was removed from the group meanwhile
          }
        }
      }
      const { type, body, key } = next();
      for (;;) {
        const answer = await rig.post(type, body, key ? { 'idempotency-key': key } : {});
        // Between the killed host's lease expiring and the next host taking it, nothing is accepted.
        if (answer.status === 503 && answer.body.error === 'no_live_connector') continue;
        expect(answer.status, JSON.stringify(answer.body)).toBe(202);
        if (answer.body.disposition === 'adopted') adopted.push(answer.body.commandId);
        else queued.add(answer.body.commandId);
        break;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  expect(killed).toBe(true);

  // Every queued command settles...
  await until(() => [...queued].every((id) => settled.has(id)), 120_000, `all ${queued.size} queued commands settled`);

  // ...exactly once, in the durable log, and nothing else settles.
  const counts = await commandEventsInLog(rig);
  expect([...counts.keys()].filter((id) => !queued.has(id))).toEqual([]);
  expect([...queued].filter((id) => counts.get(id) !== 1)).toEqual([]);
  // An adopted retry names the original command and adds no work of its own.
  expect(adopted.filter((id) => !queued.has(id))).toEqual([]);

  // The platform shows each executed action once, and nothing for the failures that sent nothing.
  const platformCount = (data: Record<string, any>) => rig.platform.messagesOfAction(data.logicalActionId).length;
  const touchedPlatform = [...queued].map((id) => settled.get(id)!).filter((d) => d.status === 'succeeded' || d.errorCode === 'accepted_echo_unconfirmed');
  expect(touchedPlatform.filter((d) => platformCount(d) !== 1)).toEqual([]);
  const sentNothing = [...queued].map((id) => settled.get(id)!).filter((d) => ['gateway_rejected', 'send_returned_not_ok', 'payload_invalid', 'transfer_unavailable', 'invalid_target', 'stale_target'].includes(d.errorCode));
  expect(sentNothing.filter((d) => platformCount(d) !== 0)).toEqual([]);

  const codes = new Map<string, number>();
  for (const id of queued) {
    const code = settled.get(id)!.errorCode ?? 'succeeded';
    codes.set(code, (codes.get(code) ?? 0) + 1);
  }
  for (const code of ['succeeded', 'gateway_rejected', 'send_returned_not_ok', 'accepted_echo_unconfirmed', 'group_update_unverified', 'stale_target', 'invalid_target', 'payload_invalid', 'no_message_to_react_to', 'direct_conversation_required', 'transfer_unavailable']) {
    expect(codes.get(code) ?? 0, `${code} in ${JSON.stringify([...codes])}`).toBeGreaterThan(0);
  }
  expect(adopted.length).toBeGreaterThan(0);
});
