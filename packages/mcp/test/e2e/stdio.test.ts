/**
 * The MCP server as a desktop agent runs it (the bin over stdio, the official MCP client)
 * against the real server and the real simulated connector host.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { commandTypes, schemas, settlementCatalog, errorCatalog } from '@switchboard/contracts';
import { SwitchboardClient } from '@switchboard/sdk';
import { commandTools } from '../../src/index.ts';
import { startWorld, stdioAgent, type Agent, type World } from '../support/world.ts';

let world: World;
let agent: Agent;
let stderr: string[];
let dm: string;
let group: string;
/** The group's id on the simulated platform (what `inject --conversation` takes). */
let groupOnPlatform: string;

beforeAll(async () => {
  world = await startWorld();
  ({ agent, stderr } = await stdioAgent(world.env));
});
afterAll(async () => {
  await agent?.close();
  await world?.stop();
});

/** Waits (with the tool) for the next inbound message after `after`. */
async function nextMessage(after: string, inject: () => Promise<unknown>, conversationId?: string) {
  const waiting = agent.ok('wait_for_message', { after, timeoutMs: 20_000, ...(conversationId ? { conversationId } : {}) });
  await inject();
  return waiting;
}

describe('tools', () => {
  it('lists one tool per command type (message.send split by its two targets), the recipe, and the read tools', async () => {
    const { tools } = await agent.client.listTools();
    const names = tools.map((t) => t.name).sort();
    expect(names).toEqual(
      [
        'message_send',
        'message_send_to_new_contact',
        'message_send_file',
        'reaction_tapback',
        'reaction_apply',
        'name_photo_share',
        'group_create',
        'group_update',
        'group_leave',
        'send_rich_to_new_contact',
        'list_conversations',
        'list_messages',
        'recent_messages',
        'command_status',
        'poll_results',
        'capabilities',
        'wait_for_message',
      ].sort(),
    );
    expect(new Set(commandTools.map((t) => t.type))).toEqual(new Set(commandTypes));
  });

  it("each command tool's payload schema is the contracts' generated schema (a recipient send's made strict), and only agent-turn tools take an idempotencyKey", async () => {
    const { tools } = await agent.client.listTools();
    const jsonSchema = (schema: z.ZodType) => {
      const { $schema: _, ...rest } = z.toJSONSchema(schema, { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
      return rest;
    };
    const payloads: Record<string, z.ZodType> = {
      message_send: schemas.zMessageSendPayload,
      // The contracts' schema made strict: the service would drop any other key silently.
      message_send_to_new_contact: z.strictObject(schemas.zRecipientSendPayload.shape),
      reaction_tapback: schemas.zReactionTapbackPayload,
      reaction_apply: schemas.zReactionApplyPayload,
      name_photo_share: schemas.zNamePhotoSharePayload,
      group_create: schemas.zGroupCreatePayload,
      group_update: schemas.zGroupUpdatePayload,
      group_leave: schemas.zGroupLeavePayload,
      send_rich_to_new_contact: schemas.zRichPayload,
    };
    for (const [name, payload] of Object.entries(payloads)) {
      const tool = tools.find((t) => t.name === name)!;
      // A union payload (anyOf/oneOf) also says `type: "object"` beside its branches, for clients that key on type.
      expect(tool.inputSchema.properties!.payload, name).toEqual({ type: 'object', ...jsonSchema(payload) });
      expect(tool.inputSchema.required, name).toContain('payload');
    }
    const send = tools.find((t) => t.name === 'message_send')!;
    expect(send.inputSchema.properties!.conversationId).toMatchObject(jsonSchema(schemas.zConversationTarget.shape.conversationId));
    expect(send.inputSchema.properties!.idempotencyKey).toMatchObject(jsonSchema(schemas.zIdempotencyKey));
    const agentTurn = ['message_send', 'reaction_tapback', 'reaction_apply', 'name_photo_share'];
    for (const tool of tools.filter((t) => t.name in payloads && t.name !== 'send_rich_to_new_contact')) {
      expect('idempotencyKey' in tool.inputSchema.properties!, tool.name).toBe(agentTurn.includes(tool.name));
      expect(tool.annotations?.idempotentHint, tool.name).toBe(agentTurn.includes(tool.name));
    }
  });

  it("descriptions teach the seed's sharp edges", async () => {
    const { tools } = await agent.client.listTools();
    const description = (name: string) => tools.find((t) => t.name === name)!.description!;
    expect(description('message_send_to_new_contact')).toMatch(/PLAIN TEXT ONLY/);
    expect(description('message_send_to_new_contact')).toMatch(/send_rich_to_new_contact/);
    expect(description('group_update')).toMatch(/NOT safe to retry/);
    expect(description('group_create')).toMatch(/NOT safe to retry/);
    expect(description('group_update')).toMatch(/remove_participant may stall .* 26/);
    expect(description('message_send')).toMatch(/adopted/);
  });
});

describe('holding a conversation', () => {
  it('wait_for_message answers null with the cursor when nothing arrives, then the message injected on the simulator', async () => {
    const idle = await agent.ok('wait_for_message', { timeoutMs: 1_000 });
    expect(idle.message).toBeNull();
    const got = await nextMessage(idle.cursor, () => world.inject(['--from', '+14155550123', '--text', 'Is my parcel on its way?']));
    expect(got.message).toMatchObject({ direction: 'inbound', senderExternalId: '+14155550123', text: 'Is my parcel on its way?' });
    expect(got.cursor).toBe(got.message.eventId);
    dm = got.message.conversationId;

    const inGroup = await nextMessage(got.cursor, async () => {
      groupOnPlatform = (await world.inject(['--from', '+14155550123', '--group', '+14155550123,dana@example.com', '--group-name', 'Team', '--text', 'hi all'])).conversationExternalId;
    });
    expect(inGroup.message.text).toBe('hi all');
    group = inGroup.message.conversationId;
    expect(group).not.toBe(dm);
  });

  it('wait_for_message with a conversationId skips messages elsewhere', async () => {
    const { cursor } = await agent.ok('wait_for_message', { timeoutMs: 1_000 });
    const got = await nextMessage(
      cursor,
      async () => {
        await world.inject(['--from', '+14155550123', '--text', 'in the DM']);
        await world.inject(['--from', '+14155550123', '--conversation', groupOnPlatform, '--text', 'in the group']);
      },
      group,
    );
    expect(got.message).toMatchObject({ conversationId: group, text: 'in the group' });
  });

  it('message_send with wait answers succeeded; the same call again is adopted, not a second message', async () => {
    const args = { conversationId: dm, payload: { text: `It ships today (${randomUUID()})` }, wait: true };
    const first = await agent.ok('message_send', args);
    expect(first).toMatchObject({ disposition: 'queued', status: 'succeeded', settled: true, routingPath: 'agent-turn', idempotent: true });
    expect(first.idempotencyKey).toMatch(/^mcp-[\w-]{43}$/);
    const again = await agent.ok('message_send', args);
    expect(again).toMatchObject({ commandId: first.commandId, disposition: 'adopted', status: 'succeeded', idempotencyKey: first.idempotencyKey });
    const withoutWait = await agent.ok('message_send', { ...args, wait: false });
    expect(withoutWait).toMatchObject({ commandId: first.commandId, disposition: 'adopted' });

    const other = await agent.ok('message_send', { ...args, payload: { text: 'Something else' } });
    expect(other.commandId).not.toBe(first.commandId);
    expect(other.disposition).toBe('queued');

    const own = await agent.ok('message_send', { ...args, idempotencyKey: `reply-${randomUUID()}` });
    expect(own.commandId).not.toBe(first.commandId);

    // A key of one's own reused for other content: the first command again, the new text not sent.
    const notSent = `Not sent (${randomUUID()})`;
    const reused = await agent.ok('message_send', { ...args, payload: { text: notSent }, idempotencyKey: own.idempotencyKey });
    expect(reused).toMatchObject({ commandId: own.commandId, disposition: 'adopted', status: 'succeeded' });
    const recent = await agent.ok('recent_messages', { conversationId: dm, limit: 50 });
    expect(recent.messages.filter((m: { commandId?: string }) => m.commandId === own.commandId).map((m: { payload: unknown }) => m.payload)).toEqual([args.payload]);
    expect(JSON.stringify(recent.messages)).not.toContain(notSent);
  });

  it('recent_messages shows the inbound messages and what was sent, with a cursor for wait_for_message', async () => {
    const text = `Tracking: ${randomUUID()}`;
    const sent = await agent.ok('message_send', { conversationId: dm, payload: { kind: 'rich_text', text, effect: 'confetti' }, wait: true });
    const recent = await agent.ok('recent_messages', { conversationId: dm, limit: 50 });
    expect(recent.conversation).toMatchObject({ conversationId: dm, kind: 'direct' });
    expect(recent.messages.find((m: any) => m.direction === 'inbound' && m.text === 'Is my parcel on its way?')).toBeDefined();
    expect(recent.messages.at(-1)).toMatchObject({ direction: 'outbound', commandId: sent.commandId, payload: { kind: 'rich_text', text, effect: 'confetti' } });
    expect(recent.messages.every((m: any) => m.conversationId === dm)).toBe(true);
    expect(recent.cursor).toMatch(/^\d+$/);
    const two = await agent.ok('recent_messages', { conversationId: dm, limit: 2 });
    expect(two.messages).toHaveLength(2);
  });

  it('list_conversations, capabilities and command_status read the account', async () => {
    const page = await agent.ok('list_conversations', {});
    expect(page.conversations.map((c: any) => c.conversationId)).toEqual(expect.arrayContaining([dm, group]));
    const report = await agent.ok('capabilities');
    expect(report).toMatchObject({ hostId: world.host.hostId, osMajorVersion: 26 });
    const sent = await agent.ok('message_send', { conversationId: dm, payload: { text: `status ${randomUUID()}` }, wait: true });
    expect(await agent.ok('command_status', { commandId: sent.commandId })).toMatchObject({ commandId: sent.commandId, status: 'succeeded', routingPath: 'agent-turn', errorCode: null });
  });
});

describe('poll_results', () => {
  it('reads back the votes people cast on a poll sent with message_send; a plain message is poll_not_found', async () => {
    const sent = await agent.ok('message_send', { conversationId: group, payload: { kind: 'poll', question: 'Lunch?', options: ['Pizza', 'Salad'] }, wait: true });
    expect(sent).toMatchObject({ status: 'succeeded' });
    const pollMessage = (await agent.ok('recent_messages', { conversationId: group, limit: 100 })).messages.find((m: any) => m.commandId === sent.commandId);
    expect(await agent.ok('poll_results', { pollId: sent.commandId })).toMatchObject({ pollId: sent.commandId, question: 'Lunch?', voters: [] });

    // Wait for the votes on the stream, not for time to pass.
    const client = new SwitchboardClient({ baseUrl: world.server.url, apiKey: world.account.apiKey });
    const { nextAfter } = await client.eventPage({ after: 'now' });
    await world.inject(['--from', '+14155550123', '--poll', pollMessage.messageExternalId, '--vote', '1']);
    await world.inject(['--from', 'dana@example.com', '--poll', pollMessage.messageExternalId, '--vote', '1']);
    let votes = 0;
    for await (const event of client.events({ after: nextAfter, include: ['poll.voted'] })) if (event.type === 'poll.voted' && ++votes === 2) break;

    const results = await agent.ok('poll_results', { pollId: sent.commandId });
    expect(results.options).toEqual([{ index: 0, text: 'Pizza', votes: 0 }, { index: 1, text: 'Salad', votes: 2 }]);
    expect(results.voters.map((v: any) => v.voterExternalId)).toEqual(['+14155550123', 'dana@example.com']);

    const plain = await agent.ok('message_send', { conversationId: group, payload: { text: 'not a poll' }, wait: true });
    expect(await agent.call('poll_results', { pollId: plain.commandId })).toMatchObject({ isError: true, body: { error: 'poll_not_found', retry: 'never' } });
  });
});

describe('settlement failures come back with their settlement code and its meaning', () => {
  it('reaction_apply aimed at a group settles failed direct_conversation_required', async () => {
    const answer = await agent.ok('reaction_apply', { conversationId: group, payload: { tapback: 'love' }, wait: true });
    expect(answer).toMatchObject({ status: 'failed', settled: true, errorCode: 'direct_conversation_required', errorMeaning: settlementCatalog.direct_conversation_required.description });
    expect((await agent.ok('command_status', { commandId: answer.commandId })).errorMeaning).toBe(settlementCatalog.direct_conversation_required.description);
  });

  it('reaction_tapback on a message that does not exist settles no_message_to_react_to', async () => {
    const answer = await agent.ok('reaction_tapback', { conversationId: dm, payload: { messageExternalId: 'no-such-message', tapback: 'like' }, wait: true });
    expect(answer).toMatchObject({ status: 'failed', errorCode: 'no_message_to_react_to' });
  });

  it('an attachment settles transfer_unavailable', async () => {
    const answer = await agent.ok('message_send', { conversationId: dm, payload: { kind: 'attachment', transferId: 't-1' }, wait: true });
    expect(answer).toMatchObject({
      status: 'failed',
      errorCode: 'transfer_unavailable',
      errorMeaning: settlementCatalog.transfer_unavailable.description,
      errorMessage: expect.stringContaining('transferId "t-1"'),
      errorPath: '/payload/transferId',
    });
  });

  it('remove_participant on an OS 26 host stalls and settles group_update_unverified; the admin result says it is not idempotent', async () => {
    const answer = await agent.ok('group_update', { conversationId: group, payload: { action: 'remove_participant', participantExternalId: 'dana@example.com' }, wait: true });
    expect(answer).toMatchObject({ routingPath: 'admin', idempotent: false, status: 'failed', errorCode: 'group_update_unverified' });
    expect(answer.note).toMatch(/not idempotent/);
    expect(answer.idempotencyKey).toBeUndefined();
  });

  it('a payload the contracts reject never reaches the service (it would settle payload_invalid)', async () => {
    const before = await agent.ok('wait_for_message', { timeoutMs: 1_000 });
    const answer = await agent.call('message_send', { conversationId: dm, payload: { kind: 'poll', question: 'Lunch?', options: ['only one'] } });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/Input validation error/);
    const typo = await agent.call('message_send', { conversationId: dm, payload: { txt: 'typo' } });
    expect(typo.isError).toBe(true);
    // The service would drop the effect silently; the tool says so before sending.
    const rich = await agent.call('message_send_to_new_contact', { recipientExternalId: '+14155550188', payload: { text: 'hi', kind: 'rich_text', effect: 'confetti' } });
    expect(rich.isError).toBe(true);
    expect(rich.text).toMatch(/Input validation error/);
    const after = await agent.ok('wait_for_message', { timeoutMs: 1_000 });
    expect(after.cursor).toBe(before.cursor);
  });

  it('a wait that runs out answers queued, not an error', async () => {
    // The OS 26 stall (200 ms here) outlasts nothing the tool allows; a 1 s wait on a command
    // queued behind a paused host does.
    world.host.pause();
    try {
      const answer = await agent.ok('message_send', { conversationId: dm, payload: { text: `later ${randomUUID()}` }, wait: true, timeoutMs: 1_000 });
      expect(answer).toMatchObject({ status: 'queued', settled: false });
      expect(answer.note).toMatch(/command_status/);
    } finally {
      world.host.resume();
    }
  });

  it('after add_participant, a send to the group settles stale_target until someone writes in it', async () => {
    const added = await agent.ok('group_update', { conversationId: group, payload: { action: 'add_participant', participantExternalId: 'erin@example.com' }, wait: true });
    expect(added).toMatchObject({ status: 'succeeded', idempotent: false });
    const stale = await agent.ok('message_send', { conversationId: group, payload: { text: `stale ${randomUUID()}` }, wait: true });
    expect(stale).toMatchObject({ status: 'failed', errorCode: 'stale_target', errorMeaning: settlementCatalog.stale_target.description });
    const { cursor } = await agent.ok('wait_for_message', { timeoutMs: 1_000 });
    await nextMessage(cursor, () => world.inject(['--from', '+14155550123', '--conversation', groupOnPlatform, '--text', 'welcome Erin']), group);
    expect(await agent.ok('message_send', { conversationId: group, payload: { text: `fresh ${randomUUID()}` }, wait: true })).toMatchObject({ status: 'succeeded' });
  });
});

describe('service errors come back as tool errors with the catalog code, message and retry guidance', () => {
  const catalogError = (code: keyof typeof errorCatalog) => ({ error: code, retry: errorCatalog[code].retry, meaning: errorCatalog[code].description, status: errorCatalog[code].status });

  it('conversation_not_found', async () => {
    const answer = await agent.call('message_send', { conversationId: randomUUID(), payload: { text: 'hello?' } });
    expect(answer.isError).toBe(true);
    expect(answer.body).toMatchObject(catalogError('conversation_not_found'));
    expect(answer.body.message).toEqual(expect.any(String));
  });

  it('group_command_requires_group_conversation', async () => {
    const answer = await agent.call('group_update', { conversationId: dm, payload: { action: 'rename', name: 'Nope' } });
    expect(answer).toMatchObject({ isError: true, body: catalogError('group_command_requires_group_conversation') });
  });

  it('invalid_recipient_address', async () => {
    const answer = await agent.call('message_send_to_new_contact', { recipientExternalId: 'not an address', payload: { text: 'hi' } });
    expect(answer).toMatchObject({ isError: true, body: catalogError('invalid_recipient_address') });
  });

  it('invalid_participant_address', async () => {
    const answer = await agent.call('group_create', { participantExternalIds: ['+14155550123', 'nobody'], payload: { text: 'hi' } });
    expect(answer).toMatchObject({ isError: true, body: catalogError('invalid_participant_address') });
  });

  it('command_not_found', async () => {
    const answer = await agent.call('command_status', { commandId: randomUUID() });
    expect(answer).toMatchObject({ isError: true, body: catalogError('command_not_found') });
  });

  it('cursor_expired', async () => {
    const answer = await agent.call('wait_for_message', { after: '9999999999', timeoutMs: 5_000 });
    expect(answer).toMatchObject({ isError: true, body: catalogError('cursor_expired') });
  });

  it('outbound_paused (after the SDK\'s own retries), and sending works again once resumed', async () => {
    await world.server.cli('pause', world.account.accountId);
    try {
      const answer = await agent.call('message_send', { conversationId: dm, payload: { text: `paused ${randomUUID()}` } });
      expect(answer).toMatchObject({ isError: true, body: catalogError('outbound_paused') });
    } finally {
      await world.server.cli('resume', world.account.accountId);
    }
    expect((await agent.ok('message_send', { conversationId: dm, payload: { text: `resumed ${randomUUID()}` } })).disposition).toBe('queued');
  });
});

describe('a line policy\'s refusal is a tool error that says nothing was sent and whether to retry', () => {
  it('loop_breaker: never retry; the message says an inbound message lifts it', async () => {
    await world.server.cli('policies', 'set', world.account.accountId, '--loop-breaker', '1');
    try {
      // The first may still go in (the conversation's last message may be inbound); the next cannot.
      await agent.call('message_send', { conversationId: dm, payload: { text: `loop ${randomUUID()}` } });
      const answer = await agent.call('message_send', { conversationId: dm, payload: { text: `loop ${randomUUID()}` } });
      expect(answer).toMatchObject({ isError: true, body: { error: 'loop_breaker', retry: 'never', status: 409, meaning: errorCatalog.loop_breaker.description } });
      expect(answer.body.message).toContain('nothing was sent');
      expect(answer.body.message).toContain('an inbound message in the conversation lifts it');
    } finally {
      await world.server.cli('policies', 'set', world.account.accountId, '--loop-breaker', 'off');
    }
    expect((await agent.ok('message_send', { conversationId: dm, payload: { text: `after ${randomUUID()}` } })).disposition).toBe('queued');
  });
});

describe('a held send is answered at once: accepted, not sent, why, and not to send it again', () => {
  it('first-contact approval: message_send_to_new_contact waiting for the settlement answers held, heldBy, and a note', async () => {
    await world.server.cli('policies', 'set', world.account.accountId, '--first-contact-approval', 'on');
    try {
      const started = Date.now();
      const answer = await agent.ok('message_send_to_new_contact', { recipientExternalId: `+1415555${String(Date.now()).slice(-4)}`, payload: { text: 'hello' }, wait: 'settled', timeoutMs: 30_000 });
      expect(answer).toMatchObject({ disposition: 'queued', status: 'held', settled: false, heldBy: 'firstContactApproval' });
      expect(answer.note).toContain('Do not send it again');
      expect(answer.note).toContain('operator');
      // Not the whole wait: a hold can last hours.
      expect(Date.now() - started).toBeLessThan(20_000);
      const status = await agent.ok('command_status', { commandId: answer.commandId });
      expect(status).toMatchObject({ status: 'held', heldBy: 'firstContactApproval' });
    } finally {
      await world.server.cli('policies', 'set', world.account.accountId, '--first-contact-approval', 'off');
    }
  });
});

describe('the recipe: rich content to a new contact', () => {
  it('sends plain text, waits for the conversation, sends the rich payload into it; a repeat does not send the plain text again', async () => {
    const args = { recipientExternalId: '+14155550177', text: 'Hello from Switchboard', payload: { kind: 'rich_text', text: 'Welcome aboard', effect: 'confetti' }, wait: true };
    const first = await agent.ok('send_rich_to_new_contact', args);
    expect(first.recipientSend).toMatchObject({ disposition: 'queued', routingPath: 'admin', idempotent: false });
    expect(first.richSend).toMatchObject({ disposition: 'queued', status: 'succeeded' });
    const recent = await agent.ok('recent_messages', { conversationId: first.conversationId });
    expect(recent.conversation.participants).toEqual([{ externalId: '+14155550177' }]);
    expect(recent.messages.map((m: any) => m.payload)).toEqual([{ text: 'Hello from Switchboard' }, { kind: 'rich_text', text: 'Welcome aboard', effect: 'confetti' }]);

    const again = await agent.ok('send_rich_to_new_contact', args);
    expect(again).toMatchObject({ conversationId: first.conversationId, recipientSend: null, richSend: { commandId: first.richSend.commandId, disposition: 'adopted', status: 'succeeded' } });
    expect((await agent.ok('recent_messages', { conversationId: first.conversationId })).messages).toHaveLength(2);
  });

  it('a recipient the platform refuses fails the recipe with the settlement code', async () => {
    const answer = await agent.call('send_rich_to_new_contact', { recipientExternalId: 'someone@example.invalid', text: 'hi', payload: { kind: 'rich_link', url: 'https://example.com' } });
    expect(answer).toMatchObject({ isError: true, body: { error: 'invalid_target', retry: 'never', meaning: settlementCatalog.invalid_target.description } });
  });
});

describe('the API key', () => {
  it('never appears in a tool answer or in what the server logged', () => {
    expect(agent.answers.length).toBeGreaterThan(20);
    for (const answer of agent.answers) expect(answer).not.toContain(world.account.apiKey);
    expect(stderr.join('')).toContain('switchboard-mcp ready');
    const calls = stderr.join('').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>).filter((r) => r.msg === 'tool call');
    expect(calls.find((r) => r.tool === 'message_send' && typeof r.commandId === 'string')).toBeDefined();
    expect(calls.find((r) => r.tool === 'command_status' && r.error === 'command_not_found')).toBeDefined();
    expect(stderr.join('')).not.toContain(world.account.apiKey);
  });
});
