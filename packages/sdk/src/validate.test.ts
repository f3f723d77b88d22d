import { describe, expect, it } from 'vitest';
import { SwitchboardClient } from './client.ts';
import { PayloadValidationError } from './errors.ts';
import { validateCommand } from './validate.ts';
import { parseCommand } from './parse.ts';
import { TestClock } from '../test/support/clock.ts';
import { ack, scriptedFetch } from '../test/support/fetch.ts';

const target = { kind: 'conversation', conversationId: '0190b7a4-0000-7000-8000-0000000000c1' };

function issues(run: () => void): Array<{ path: string; message: string }> {
  try {
    run();
  } catch (error) {
    if (error instanceof PayloadValidationError) return error.issues;
    throw error;
  }
  return [];
}

describe('validateCommand: what the endpoint accepts with 202 and the host settles payload_invalid', () => {
  it('names a misspelled field', () => {
    expect(issues(() => validateCommand('message.send', { target, payload: { kind: 'rich_text', text: 'hi', efect: 'confetti' } })).map((i) => i.path)).toContain('/payload');
    expect(issues(() => validateCommand('message.send', { target, payload: { txt: 'hi' } })).length).toBeGreaterThan(0);
  });

  it('names a bad enum and an out-of-range value', () => {
    expect(issues(() => validateCommand('message.send', { target, payload: { kind: 'rich_text', text: 'hi', effect: 'sparkles' } })).map((i) => i.path)).toEqual(['/payload/effect']);
    expect(issues(() => validateCommand('message.send', { target, payload: { kind: 'poll', question: 'Lunch?', options: ['yes'] } })).map((i) => i.path)).toEqual(['/payload/options']);
    expect(issues(() => validateCommand('message.send', { target, payload: { text: 'x'.repeat(20_001) } })).map((i) => i.path)).toEqual(['/payload/text']);
    expect(issues(() => validateCommand('reaction.tapback', { target, payload: { messageExternalId: 'm1', tapback: 'wow' } })).map((i) => i.path)).toEqual(['/payload/tapback']);
    expect(issues(() => validateCommand('group.update', { target, payload: { action: 'rename', name: '' } })).map((i) => i.path)).toEqual(['/payload/name']);
  });

  it('names an unknown kind or action', () => {
    expect(issues(() => validateCommand('message.send', { target, payload: { kind: 'gif', text: 'hi' } })).map((i) => i.path)).toEqual(['/payload/kind']);
    expect(issues(() => validateCommand('group.update', { target, payload: { action: 'archive' } })).map((i) => i.path)).toEqual(['/payload/action']);
  });

  it('flags keys a recipient send would drop silently', () => {
    const recipient = { kind: 'recipient', recipientExternalId: '+14155550123' };
    expect(issues(() => validateCommand('message.send', { target: recipient, payload: { kind: 'rich_text', text: 'hi', effect: 'confetti' } })).map((i) => i.path)).toEqual(['/payload']);
    expect(issues(() => validateCommand('message.send', { target: recipient, payload: { text: 'hi' } }))).toEqual([]);
  });

  it('accepts every valid payload of every command type', () => {
    const valid: Array<[Parameters<typeof validateCommand>[0], object]> = [
      ['message.send', { target, payload: { text: 'hi' } }],
      ['message.send', { target, payload: { kind: 'rich_text', text: 'hi', subject: 'S', effect: 'confetti', replyToMessageExternalId: 'm1' } }],
      ['message.send', { target, payload: { kind: 'rich_link', url: 'https://example.com' } }],
      ['message.send', { target, payload: { kind: 'poll', question: 'Lunch?', options: ['yes', 'no'] } }],
      ['reaction.tapback', { target, payload: { messageExternalId: 'm1', tapback: 'love', remove: true } }],
      ['reaction.apply', { target, payload: { tapback: 'like' } }],
      ['name_photo.share', { target, payload: {} }],
      ['group.create', { target: { kind: 'participants', participantExternalIds: ['+14155550123'] }, payload: { text: 'hi', name: 'Team' } }],
      ['group.update', { target, payload: { action: 'add_participant', participantExternalId: 'dana@example.com' } }],
      ['group.leave', { target, payload: {} }],
    ];
    for (const [type, body] of valid) expect(issues(() => validateCommand(type, body)), `${type} ${JSON.stringify(body)}`).toEqual([]);
  });
});

describe('validate: true', () => {
  it('fails fast without sending anything, and sends what is valid', async () => {
    const clock = new TestClock();
    const scripted = scriptedFetch(ack());
    const client = new SwitchboardClient({ baseUrl: 'http://switchboard.test', apiKey: 'k', fetch: scripted.fetch, clock, validate: true });
    // The cast stands for a payload built at run time (from a form, a model's output).
    const error = await clock.run(client.sendMessage({ target: { kind: 'conversation', conversationId: target.conversationId }, payload: { kind: 'rich_text', text: 'hi', effect: 'sparkles' } as never })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayloadValidationError);
    expect((error as PayloadValidationError).commandType).toBe('message.send');
    expect(scripted.requests).toHaveLength(0);
    await clock.run(client.sendMessage({ target: { kind: 'conversation', conversationId: target.conversationId }, payload: { kind: 'rich_text', text: 'hi', effect: 'confetti' } }));
    expect(scripted.requests).toHaveLength(1);
  });

  it('is off by default: the endpoint decides', async () => {
    const clock = new TestClock();
    const scripted = scriptedFetch(ack());
    const client = new SwitchboardClient({ baseUrl: 'http://switchboard.test', apiKey: 'k', fetch: scripted.fetch, clock });
    await clock.run(client.sendMessage({ target: { kind: 'conversation', conversationId: target.conversationId }, payload: { kind: 'rich_text', text: 'hi', effect: 'sparkles' } as never }));
    expect(scripted.requests).toHaveLength(1);
  });
});

describe('sendCommand and parseCommand: a body built at run time, typed unknown', () => {
  const toConversation = { target, payload: { kind: 'rich_text', text: 'hi', effect: 'confetti' } };

  it('checks it whatever `validate` says, names each problem and sends nothing', async () => {
    const clock = new TestClock();
    const scripted = scriptedFetch(ack());
    const client = new SwitchboardClient({ baseUrl: 'http://switchboard.test', apiKey: 'k', fetch: scripted.fetch, clock });
    const input: unknown = JSON.parse('{"target":{"kind":"conversation","conversationId":"0190b7a4-0000-7000-8000-0000000000c1"},"payload":{"txt":"typo"}}');
    const error = await clock.run(client.sendCommand('message.send', input)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayloadValidationError);
    // The conversation branch's problem, not the recipient overload's "recipientExternalId is missing".
    expect((error as PayloadValidationError).issues.map((i) => i.path).join(' ')).not.toContain('recipientExternalId');
    expect((error as PayloadValidationError).issues.length).toBeGreaterThan(0);
    for (const bad of [null, 'text', [], 42]) {
      const refused = await clock.run(client.sendCommand('message.send', bad)).catch((e: unknown) => e);
      expect((refused as PayloadValidationError).issues).toEqual([{ path: '', message: 'expected an object with target and payload' }]);
    }
    expect(scripted.requests).toHaveLength(0);
  });

  it('sends a valid body on the routing path its target implies', async () => {
    const clock = new TestClock();
    const scripted = scriptedFetch(ack(), ack());
    const client = new SwitchboardClient({ baseUrl: 'http://switchboard.test', apiKey: 'k', fetch: scripted.fetch, clock });
    await clock.run(client.sendCommand('message.send', structuredClone(toConversation), { idempotencyKey: 'reply-1' }));
    await clock.run(client.sendCommand('message.send', { target: { kind: 'recipient', recipientExternalId: '+14155550123' }, payload: { text: 'hi' } }, { idempotencyKey: 'ignored' }));
    const [agentTurn, admin] = scripted.requests;
    expect([agentTurn!.url, agentTurn!.headers.get('idempotency-key'), await agentTurn!.json()]).toEqual(['http://switchboard.test/v1/commands/message.send', 'reply-1', toConversation]);
    expect(admin!.headers.get('idempotency-key')).toBeNull();
  });

  it('parseCommand resolves with the body when it matches, and refuses an unknown command type', async () => {
    await expect(parseCommand('message.send', toConversation)).resolves.toBe(toConversation);
    await expect(parseCommand('group.update', { target, payload: { action: 'archive' } })).rejects.toBeInstanceOf(PayloadValidationError);
    await expect(parseCommand('message.shout' as never, toConversation)).rejects.toThrow('unknown command type "message.shout"');
  });
});
