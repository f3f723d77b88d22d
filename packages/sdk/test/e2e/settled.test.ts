import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandFailedError, PayloadValidationError, SettlementTimeoutError, SwitchboardClient } from '../../src/index.ts';
import { Proxy } from '@switchboard/testkit';
import { HostLoop, simulate } from '../support/host.ts';
import { readyAccount, startService, type ReadyAccount, type Service } from '../support/service.ts';

let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.stop());

describe('settled()', () => {
  let a: ReadyAccount;
  let loop: HostLoop;
  beforeAll(async () => {
    a = await readyAccount(service.server);
    loop = new HostLoop(a.host);
  });
  afterAll(() => loop.stop());
  const target = () => ({ kind: 'conversation' as const, conversationId: a.direct.conversationId });

  it('awaits succeeded by polling the command', async () => {
    const acknowledgement = await a.client.sendMessage({ target: target(), payload: { kind: 'poll', question: 'Lunch?', options: ['yes', 'no'] } });
    expect(await a.client.settled(acknowledgement.commandId, { timeoutMs: 10_000 })).toEqual({ commandId: acknowledgement.commandId, status: 'succeeded', errorCode: null, errorMessage: null, errorPath: null });
  });

  it('awaits the command event on the stream when given a cursor from before the send', async () => {
    const after = await a.host.head();
    const acknowledgement = await a.client.applyTapback({ target: target(), payload: { messageExternalId: 'm1', tapback: 'love' } });
    expect(await a.client.settled(acknowledgement.commandId, { after, timeoutMs: 10_000 })).toEqual({ commandId: acknowledgement.commandId, status: 'succeeded', errorCode: null, errorMessage: null, errorPath: null });
  });

  it("after: 'now' answers a command settled before the call, and awaits on the stream one that settles after it", async () => {
    const done = await a.client.applyTapback({ target: target(), payload: { messageExternalId: 'm1', tapback: 'like' } });
    await a.client.settled(done.commandId, { timeoutMs: 10_000 });
    expect(await a.client.settled(done.commandId, { after: 'now', timeoutMs: 10_000 })).toMatchObject({ commandId: done.commandId, status: 'succeeded' });

    // No host runs for this account until settled() holds its stream open, so the outcome must come from the stream.
    const b = await readyAccount(service.server);
    const proxy = await new Proxy(new URL(service.server.url)).start();
    const client = new SwitchboardClient({ baseUrl: proxy.url, apiKey: b.apiKey });
    const queued = await client.sendMessage({ target: { kind: 'conversation', conversationId: b.direct.conversationId }, payload: { text: 'later' } });
    const streaming = proxy.seen('retry: 3000', 1);
    const outcome = client.settled(queued.commandId, { after: 'now', timeoutMs: 10_000 });
    await streaming;
    const late = new HostLoop(b.host);
    try {
      expect(await outcome).toEqual({ commandId: queued.commandId, status: 'succeeded', errorCode: null, errorMessage: null, errorPath: null });
    } finally {
      await late.stop();
      await proxy.stop();
    }
  });

  it('a bad payload gets 202 and settles failed payload_invalid; validate: true catches it before sending', async () => {
    // A misspelled field reaches the endpoint only from untyped code; the cast stands for that.
    const payload = { kind: 'rich_text', text: 'hi', efect: 'confetti' } as never;
    const acknowledgement = await a.client.sendMessage({ target: target(), payload });
    expect(acknowledgement.disposition).toBe('queued');
    expect(await a.client.settled(acknowledgement.commandId, { timeoutMs: 10_000 })).toEqual({ commandId: acknowledgement.commandId, status: 'failed', errorCode: 'payload_invalid', errorMessage: null, errorPath: null });

    const executed = loop.executed.length;
    const strict = new SwitchboardClient({ baseUrl: service.server.url, apiKey: a.apiKey, validate: true });
    await expect(strict.sendMessage({ target: target(), payload })).rejects.toBeInstanceOf(PayloadValidationError);
    const check = await strict.sendMessage({ target: target(), payload: { text: 'a valid one' } });
    await strict.settled(check.commandId, { timeoutMs: 10_000 });
    // Only the valid command reached the host.
    expect(loop.executed.slice(executed).map((c) => c.commandId)).toEqual([check.commandId]);
  });

  it('throws SettlementTimeoutError when no host settles in time', async () => {
    const idle = await readyAccount(service.server);
    const acknowledgement = await idle.client.sendMessage({ target: { kind: 'conversation', conversationId: idle.direct.conversationId }, payload: { text: 'anyone?' } });
    const error = await idle.client.settled(acknowledgement.commandId, { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SettlementTimeoutError);
    expect(error).toMatchObject({ commandId: acknowledgement.commandId, waitingFor: 'command.settled' });
  });
});

describe('sendRichToNewContact', () => {
  it('sends plain text to the recipient, waits for the conversation to appear, then sends the rich payload into it', async () => {
    const a = await readyAccount(service.server);
    const loop = new HostLoop(a.host);
    try {
      const result = await a.client.sendRichToNewContact({ recipientExternalId: '+14155550177', text: 'Hi, it is Switchboard' }, { kind: 'rich_text', text: 'Welcome!', effect: 'confetti' }, { timeoutMs: 10_000 });
      await loop.handled(2);
      const [recipientSend, richSend] = loop.executed;
      expect(recipientSend).toMatchObject({ commandId: result.recipientSend.commandId, routingPath: 'admin', target: { kind: 'recipient', recipientExternalId: '+14155550177' }, payload: { text: 'Hi, it is Switchboard' } });
      expect(richSend).toMatchObject({ commandId: result.richSend.commandId, routingPath: 'agent-turn', target: { kind: 'conversation', conversationId: result.conversationId }, payload: { kind: 'rich_text', text: 'Welcome!', effect: 'confetti' } });
      expect(await a.client.getConversation(result.conversationId)).toMatchObject({ kind: 'direct', participants: [{ externalId: '+14155550177' }] });
      expect(await a.client.settled(result.richSend.commandId, { timeoutMs: 10_000 })).toMatchObject({ status: 'succeeded' });
    } finally {
      await loop.stop();
    }
  });

  it('a contact the account already has a conversation with: uses the conversation the command event names', async () => {
    const a = await readyAccount(service.server);
    // The platform reports the existing chat, so no new conversation appears.
    const loop = new HostLoop(a.host, (command) => {
      if (command.target.kind !== 'recipient') return simulate(command);
      return { status: 'succeeded', events: [{ type: 'conversation.appeared', externalId: a.direct.externalId, conversationKind: 'direct', name: null, participants: ['+14155550123'], commandId: command.commandId }] };
    });
    try {
      const after = await a.host.head();
      const result = await a.client.sendRichToNewContact({ recipientExternalId: '+14155550123', text: 'Hi again' }, { kind: 'rich_link', url: 'https://example.com' }, { after, timeoutMs: 10_000 });
      expect(result.conversationId).toBe(a.direct.conversationId);
    } finally {
      await loop.stop();
    }
  });

  it('fails with the settlement code when the recipient send fails', async () => {
    const a = await readyAccount(service.server);
    const loop = new HostLoop(a.host, () => ({ status: 'failed', errorCode: 'invalid_target' }));
    try {
      const error = await a.client.sendRichToNewContact({ recipientExternalId: '+14155550178', text: 'Hi' }, { kind: 'poll', question: 'Q?', options: ['a', 'b'] }, { timeoutMs: 10_000 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CommandFailedError);
      expect(error).toMatchObject({ errorCode: 'invalid_target' });
      expect(loop.executed).toHaveLength(1);
    } finally {
      await loop.stop();
    }
  });
});
