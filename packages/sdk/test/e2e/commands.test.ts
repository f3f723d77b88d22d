import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SwitchboardClient, SwitchboardError } from '../../src/index.ts';
import { readyAccount, startService, type ReadyAccount, type Service } from '../support/service.ts';

let service: Service;
let a: ReadyAccount;

beforeAll(async () => {
  service = await startService();
  a = await readyAccount(service.server);
});
afterAll(() => service.stop());

const conversation = () => ({ kind: 'conversation' as const, conversationId: a.direct.conversationId });
const group = () => ({ kind: 'conversation' as const, conversationId: a.group.conversationId });

describe('every command method reaches the connector host on its routing path', () => {
  it('queues each command type and hands it to the host with its payload', async () => {
    const sends = [
      () => a.client.sendMessage({ target: conversation(), payload: { kind: 'rich_text', text: 'hi', effect: 'confetti' } }),
      () => a.client.sendMessage({ target: { kind: 'recipient', recipientExternalId: '+1 (415) 555-0199' }, payload: { text: 'hello' } }),
      () => a.client.applyTapback({ target: group(), payload: { messageExternalId: 'm1', tapback: 'love' } }),
      () => a.client.applyReaction({ target: conversation(), payload: { tapback: 'like' } }),
      () => a.client.shareNamePhoto({ target: conversation(), payload: {} }),
      () => a.client.createGroup({ target: { kind: 'participants', participantExternalIds: ['+14155550123', 'erin@example.com'] }, payload: { text: 'welcome', name: 'New' } }),
      () => a.client.updateGroup({ target: group(), payload: { action: 'rename', name: 'Renamed' } }),
      () => a.client.leaveGroup({ target: group(), payload: {} }),
    ];
    const acknowledgements = [];
    for (const send of sends) acknowledgements.push(await send());
    for (const acknowledgement of acknowledgements) expect(acknowledgement).toMatchObject({ status: 'queued', disposition: 'queued' });

    const dispatched = await a.host.dispatch();
    expect(dispatched.map((c) => c.commandId)).toEqual(acknowledgements.map((x) => x.commandId));
    expect(dispatched.map((c) => [c.type, c.routingPath])).toEqual([
      ['message.send', 'agent-turn'],
      ['message.send', 'admin'],
      ['reaction.tapback', 'agent-turn'],
      ['reaction.apply', 'agent-turn'],
      ['name_photo.share', 'agent-turn'],
      ['group.create', 'admin'],
      ['group.update', 'admin'],
      ['group.leave', 'admin'],
    ]);
    expect(dispatched[0]!.payload).toEqual({ kind: 'rich_text', text: 'hi', effect: 'confetti' });
    // The SDK's generated key is what the agent-turn path recorded; the admin path has none.
    expect(dispatched[0]!.logicalActionId).not.toBe(dispatched[0]!.commandId);
    expect(dispatched[1]!.logicalActionId).toBe(dispatched[1]!.commandId);
    expect(dispatched[1]!.target).toEqual({ kind: 'recipient', recipientExternalId: '+14155550199' });
    for (const command of dispatched) await a.host.settle(command.commandId, 'succeeded');
  });

  it('a repeated Idempotency-Key on the agent-turn path is adopted: same commandId, no new work', async () => {
    const first = await a.client.sendMessage({ target: conversation(), payload: { text: 'once' } }, { idempotencyKey: 'reply-to-m7' });
    const second = await a.client.sendMessage({ target: conversation(), payload: { text: 'once' } }, { idempotencyKey: 'reply-to-m7' });
    expect(second).toEqual({ commandId: first.commandId, status: 'queued', disposition: 'adopted' });
    const dispatched = await a.host.dispatch();
    expect(dispatched.map((c) => c.commandId)).toEqual([first.commandId]);
    expect(dispatched[0]!.logicalActionId).toBe('reply-to-m7');
    await a.host.settle(first.commandId, 'succeeded');
  });

  it('a key reused with a different body is adopted just the same: the first command, the new text never sent (as the README says)', async () => {
    const first = await a.client.sendMessage({ target: conversation(), payload: { text: 'first answer' } }, { idempotencyKey: 'reply-to-m8' });
    const reused = await a.client.sendMessage({ target: conversation(), payload: { text: 'a different answer' } }, { idempotencyKey: 'reply-to-m8' });
    expect(reused).toEqual({ commandId: first.commandId, status: 'queued', disposition: 'adopted' });
    const dispatched = await a.host.dispatch();
    expect(dispatched.map((c) => [c.commandId, c.payload])).toEqual([[first.commandId, { text: 'first answer' }]]);
    await a.host.settle(first.commandId, 'succeeded');
    expect(await a.client.getCommand(first.commandId)).toMatchObject({ status: 'succeeded', payload: { text: 'first answer' } });
  });
});

describe('reads', () => {
  it('getCommand shows the status, the routing path and the settlement', async () => {
    const acknowledgement = await a.client.applyReaction({ target: conversation(), payload: { tapback: 'laugh' } }, { idempotencyKey: 'read-me' });
    expect(await a.client.getCommand(acknowledgement.commandId)).toMatchObject({ commandId: acknowledgement.commandId, type: 'reaction.apply', routingPath: 'agent-turn', status: 'queued', idempotencyKey: 'read-me', errorCode: null });
    await a.host.dispatch();
    await a.host.settle(acknowledgement.commandId, 'failed', 'no_message_to_react_to');
    expect(await a.client.getCommand(acknowledgement.commandId)).toMatchObject({ status: 'failed', errorCode: 'no_message_to_react_to' });
  });

  it('listConversations pages newest first; getConversation reads one', async () => {
    const first = await a.client.listConversations({ limit: 1 });
    expect(first.conversations).toHaveLength(1);
    expect(first.nextCursor).not.toBeNull();
    const second = await a.client.listConversations({ limit: 1, cursor: first.nextCursor! });
    const ids = [...first.conversations, ...second.conversations].map((c) => c.conversationId);
    expect(ids).toEqual([a.group.conversationId, a.direct.conversationId]);
    expect(await a.client.getConversation(a.group.conversationId)).toMatchObject({ kind: 'group', name: 'Team', participants: [{ externalId: '+14155550123' }, { externalId: 'dana@example.com' }] });
  });

  it('getCapabilities reports the live host, and no_live_connector without one', async () => {
    const report = await a.client.getCapabilities();
    expect(report).toMatchObject({ hostId: a.host.hostId, osMajorVersion: 15, capabilities: [] });
    const other = await service.server.account();
    const client = new SwitchboardClient({ baseUrl: service.server.url, apiKey: other.apiKey, retry: { maxRetries: 0 } });
    await expect(client.getCapabilities()).rejects.toMatchObject({ status: 503, code: 'no_live_connector' });
  });

  it('getAttachment downloads an inbound attachment', async () => {
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]);
    await a.host.upload('att-1', 'cat.png', 'image/png', bytes);
    await a.host.received(a.direct.externalId, 'look', undefined, [{ attachmentId: 'att-1', fileName: 'cat.png', mimeType: 'image/png', byteSize: bytes.length }]);
    expect(await a.client.getAttachment('att-1')).toEqual({ bytes, mimeType: 'image/png', fileName: 'cat.png' });
    await expect(a.client.getAttachment('nope')).rejects.toMatchObject({ status: 404, code: 'attachment_not_found' });
  });
});

describe('errors arrive as SwitchboardError with the catalog code', () => {
  it('conversation_not_found, with the request id the service logged', async () => {
    const error = await a.client.sendMessage({ target: { kind: 'conversation', conversationId: '0190b7a4-0000-7000-8000-00000000dead' }, payload: { text: 'x' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SwitchboardError);
    expect(error).toMatchObject({ status: 404, code: 'conversation_not_found', retry: 'never' });
    expect((error as SwitchboardError).requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a 422 exposes field and reason', async () => {
    const error = (await a.client.sendMessage({ target: { kind: 'recipient', recipientExternalId: 'not an address' }, payload: { text: 'x' } }).catch((e: unknown) => e)) as SwitchboardError;
    expect(error.status).toBe(422);
    expect(error.body).toMatchObject({ error: 'invalid_recipient_address', field: '/target/recipientExternalId', reason: 'not_a_phone_number_or_email' });
  });

  it('group_command_requires_group_conversation and unauthenticated', async () => {
    await expect(a.client.leaveGroup({ target: conversation(), payload: {} })).rejects.toMatchObject({ status: 400, code: 'group_command_requires_group_conversation' });
    const stranger = new SwitchboardClient({ baseUrl: service.server.url, apiKey: 'sk_wrong' });
    await expect(stranger.listConversations()).rejects.toMatchObject({ status: 401, code: 'unauthenticated' });
  });

  it('a caller key the service rejects is invalid_idempotency_key', async () => {
    await expect(a.client.sendMessage({ target: conversation(), payload: { text: 'x' } }, { idempotencyKey: 'has space' })).rejects.toMatchObject({ code: 'invalid_idempotency_key' });
  });
});
