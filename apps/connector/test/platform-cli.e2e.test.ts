import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { paths } from '@switchboard/testkit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createGroup, inbound, startRig, toConversation, type Rig } from './helpers.ts';
import type { StreamEnvelope } from './stream.ts';

const run = promisify(execFile);

/**
 * `switchboard-connector platform deliver|read|fail|react|edit|unsend`: an operator makes what
 * happens to messages happen now, on the simulated platform, and the live host reports it. The
 * host draws no lives of its own here, so every event on the stream is one the CLI made.
 */
describe('`switchboard-connector platform` changes to messages', () => {
  let rig: Rig;
  let dm: { conversationId: string; messageExternalId: string };
  const them = '+14155550401';

  beforeAll(async () => {
    rig = await startRig();
    await rig.onlyHost({ SWITCHBOARD_SIM_MESSAGE_LIFE: 'off' });
    dm = await inbound(rig, them, 'hello there');
  });
  afterAll(async () => {
    await rig?.close();
  });

  /** Runs the CLI against the rig's platform file; its exit code, and stdout parsed when it is JSON. */
  async function cli(...args: string[]): Promise<{ code: number; json: any; stdout: string; stderr: string }> {
    try {
      const { stdout, stderr } = await run(process.execPath, [paths.connector, 'platform', ...args, '--account', rig.accountId, '--sim-db', rig.simDb]);
      return { code: 0, json: stdout.startsWith('[') || stdout.startsWith('{') ? JSON.parse(stdout) : null, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, json: null, stdout: failed.stdout, stderr: failed.stderr };
    }
  }

  async function send(conversationId: string, text: string): Promise<{ commandId: string; messageExternalId: string }> {
    const commandId = await rig.command('message.send', { target: toConversation(conversationId), payload: { text } });
    expect((await rig.settled(commandId)).data).toMatchObject({ status: 'succeeded' });
    const sent = rig.stream.events.find((e) => e.type === 'message.sent' && e.data.commandId === commandId)!;
    return { commandId, messageExternalId: sent.data.messageExternalId };
  }

  const on = (type: string, messageExternalId: string, extra: (e: StreamEnvelope) => boolean = () => true) => (e: StreamEnvelope) => e.type === type && e.data.messageExternalId === messageExternalId && extra(e);

  test('deliver, then read by the command that sent it: the host reports each, naming the command', async () => {
    const { commandId, messageExternalId } = await send(dm.conversationId, 'your order shipped');
    const delivered = await cli('deliver', '--message', messageExternalId);
    expect(delivered.code, delivered.stderr).toBe(0);
    expect(delivered.json).toEqual([{ type: 'message.delivered', conversationExternalId: expect.stringMatching(/^sim;-;/), messageExternalId, deliveredAt: expect.any(String) }]);
    expect((await rig.stream.waitFor(on('message.delivered', messageExternalId))).data).toEqual({ conversationId: dm.conversationId, messageExternalId, commandId, deliveredAt: delivered.json[0].deliveredAt });

    const read = await cli('read', '--command', commandId);
    expect(read.json.map((e: { type: string }) => e.type)).toEqual(['message.read']);
    expect((await rig.stream.waitFor(on('message.read', messageExternalId))).data).toMatchObject({ commandId, readAt: read.json[0].readAt });

    // The platform shows the states; a state already reached is refused, and changes nothing.
    const shown = await cli('messages', '--conversation', delivered.json[0].conversationExternalId);
    expect(shown.json.find((m: { externalId: string }) => m.externalId === messageExternalId)).toMatchObject({ deliveredAt: Date.parse(delivered.json[0].deliveredAt), readAt: Date.parse(read.json[0].readAt) });
    expect(await cli('deliver', '--message', messageExternalId)).toMatchObject({ code: 1, stderr: expect.stringContaining('delivered already') });
    expect(await cli('fail', '--message', messageExternalId)).toMatchObject({ code: 1, stderr: expect.stringContaining('a delivered message does not fail') });
  });

  test('read of a message not yet delivered delivers it first; fail with the platform\'s words leaves the command succeeded', async () => {
    const first = await send(dm.conversationId, 'read me');
    expect((await cli('read', '--message', first.messageExternalId)).json.map((e: { type: string }) => e.type)).toEqual(['message.delivered', 'message.read']);
    await rig.stream.waitFor(on('message.read', first.messageExternalId));

    const { commandId, messageExternalId } = await send(dm.conversationId, 'this one fails');
    const failed = await cli('fail', '--command', commandId, '--reason', 'recipient_unreachable', '--platform-message', 'Not registered with iMessage');
    expect(failed.code, failed.stderr).toBe(0);
    const event = await rig.stream.waitFor(on('message.failed', messageExternalId));
    expect(event.data).toEqual({ conversationId: dm.conversationId, messageExternalId, commandId, reason: 'recipient_unreachable', platformMessage: 'Not registered with iMessage', failedAt: failed.json[0].failedAt });
    const command = await (await fetch(`${rig.server.url}/v1/commands/${commandId}`, { headers: { authorization: `Bearer ${rig.apiKey}` } })).json();
    expect(command).toMatchObject({ status: 'succeeded', errorCode: null });
    expect(await cli('read', '--message', messageExternalId)).toMatchObject({ code: 1, stderr: expect.stringContaining('failed') });
  });

  test('a group message is not read: iMessage has no read receipts in groups', async () => {
    const group = await createGroup(rig, [them, '+14155550402'], 'Team');
    const sent = rig.platform.messages(group.externalId).find((m) => m.direction === 'out')!;
    const refused = await cli('read', '--message', sent.externalId);
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('no read receipts in groups') });
    expect(rig.platform.message(sent.externalId)).toMatchObject({ deliveredAt: null, readAt: null });
    expect((await cli('deliver', '--message', sent.externalId)).code).toBe(0);
    await rig.stream.waitFor(on('message.delivered', sent.externalId));
  });

  test('a tapback added, then removed, by the other person', async () => {
    const { messageExternalId } = await send(dm.conversationId, 'like this?');
    const added = await cli('react', '--message', messageExternalId, '--from', them, '--tapback', 'laugh');
    expect(added.code, added.stderr).toBe(0);
    const removed = await cli('react', '--message', messageExternalId, '--from', them, '--tapback', 'laugh', '--remove');
    expect(removed.code, removed.stderr).toBe(0);
    const last = await rig.stream.waitFor(on('message.reaction', messageExternalId, (e) => e.data.action === 'removed'));
    const reactions = rig.stream.events.filter(on('message.reaction', messageExternalId));
    expect(reactions.map((e) => e.data)).toEqual([
      { conversationId: dm.conversationId, messageExternalId, reactionExternalId: added.json[0].reactionExternalId, senderExternalId: them, reaction: 'laugh', action: 'added', reactedAt: added.json[0].reactedAt },
      { ...last.data, reactionExternalId: removed.json[0].reactionExternalId, action: 'removed' },
    ]);
    expect(await cli('react', '--message', messageExternalId, '--from', them, '--tapback', 'laugh', '--remove')).toMatchObject({ code: 1, stderr: expect.stringContaining('no laugh on this message to remove') });
    expect(await cli('react', '--message', messageExternalId, '--from', '+14155550499', '--tapback', 'love')).toMatchObject({ code: 1, stderr: expect.stringContaining('is not in conversation') });
  });

  test('the other person edits their message, then unsends another', async () => {
    const edited = await cli('edit', '--message', dm.messageExternalId, '--text', 'hello there!');
    expect(edited.code, edited.stderr).toBe(0);
    expect((await rig.stream.waitFor(on('message.edited', dm.messageExternalId))).data).toEqual({
      conversationId: dm.conversationId, messageExternalId: dm.messageExternalId, senderExternalId: them, text: 'hello there!', editedAt: edited.json[0].editedAt,
    });
    const oops = await inbound(rig, them, 'wrong chat');
    expect((await cli('unsend', '--message', oops.messageExternalId)).code).toBe(0);
    expect((await rig.stream.waitFor(on('message.unsent', oops.messageExternalId))).data).toMatchObject({ senderExternalId: them, unsentAt: expect.any(String) });
    expect(await cli('edit', '--message', oops.messageExternalId, '--text', 'x')).toMatchObject({ code: 1, stderr: expect.stringContaining('was unsent') });
    const mine = await send(dm.conversationId, 'mine');
    expect(await cli('unsend', '--message', mine.messageExternalId)).toMatchObject({ code: 1, stderr: expect.stringContaining('messages other people sent') });
  });

  test('usage errors exit 2 with the usage on stderr; --help shows examples', async () => {
    expect(await cli('deliver')).toMatchObject({ code: 2, stderr: expect.stringContaining('exactly one of --message') });
    expect(await cli('react', '--message', 'X', '--from', them, '--tapback', 'wow')).toMatchObject({ code: 2, stderr: expect.stringContaining('--tapback must be one of love, like') });
    expect(await cli('fail', '--message', 'X', '--reason', 'lost')).toMatchObject({ code: 2, stderr: expect.stringContaining('--reason must be one of') });
    expect(await cli('fail', '--message', 'X', '--platform-message', 'x'.repeat(1_025))).toMatchObject({ code: 2, stderr: expect.stringContaining('at most 1024 characters') });
    expect(await cli('edit', '--message', 'X')).toMatchObject({ code: 2, stderr: expect.stringContaining('edit needs --text') });
    expect(await cli('deliver', '--message', 'X', '--bogus')).toMatchObject({ code: 2, stderr: expect.stringContaining("Unknown option '--bogus'") });
    expect(await cli('deliver', '--message', 'NOPE')).toMatchObject({ code: 1, stderr: 'the platform has no message "NOPE"\n' });
    const help = await cli('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('platform react --account <id> --message <messageExternalId> --from +14155550123 --tapback love --remove');
  });
});
