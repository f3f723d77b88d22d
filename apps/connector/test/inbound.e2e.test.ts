import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { paths } from '@switchboard/testkit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DRIVERS, inbound, startRig, toConversation, type Rig } from './helpers.ts';

const run = promisify(execFile);

describe.each(DRIVERS)('%s driver', (driver) => {
  let rig: Rig;
  let files: string;

  beforeAll(async () => {
    rig = await startRig({}, undefined, driver);
    await rig.onlyHost();
    files = mkdtempSync(join(tmpdir(), 'switchboard-inject-'));
  });

  afterAll(async () => {
    await rig?.close();
    rmSync(files, { recursive: true, force: true });
  });

  /** The operator's way in: `switchboard-connector <args>` against the rig's platform file. */
  async function cli(...args: string[]): Promise<any> {
    const { stdout } = await run(process.execPath, [paths.connector, ...args, '--account', rig.accountId, '--sim-db', rig.simDb]);
    return JSON.parse(stdout);
  }

  test('`switchboard-connector inject` delivers a message with attachments; the stream announces it and its bytes download', async () => {
    const photo = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    writeFileSync(join(files, 'photo.png'), photo);
    writeFileSync(join(files, 'notes.txt'), 'hello');
    const injected = await cli('inject', '--from', '+14155550150', '--text', 'look at this', '--attach', join(files, 'photo.png'), '--attach', join(files, 'notes.txt'));

    const received = await rig.stream.waitFor((e) => e.type === 'message.received' && e.data.messageExternalId === injected.messageExternalId);
    const appeared = rig.stream.events.find((e) => e.type === 'conversation.appeared' && e.data.conversationId === received.data.conversationId)!;
    expect(appeared.data).toMatchObject({ kind: 'direct', participants: ['+14155550150'], commandId: null });
    expect(BigInt(appeared.id)).toBeLessThan(BigInt(received.id));
    expect(received.data).toMatchObject({
      senderExternalId: '+14155550150',
      text: 'look at this',
      attachments: [
        { attachmentId: injected.attachmentIds[0], fileName: 'photo.png', mimeType: 'image/png', byteSize: photo.length },
        { attachmentId: injected.attachmentIds[1], fileName: 'notes.txt', mimeType: 'text/plain', byteSize: 5 },
      ],
    });

    const download = await fetch(`${rig.server.url}/v1/attachments/${injected.attachmentIds[0]}`, { headers: { authorization: `Bearer ${rig.apiKey}` } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await download.arrayBuffer())).toEqual(photo);

    // The message can be replied to and reacted to by its id.
    const reply = await rig.run('message.send', { target: toConversation(received.data.conversationId), payload: { kind: 'rich_text', text: 'nice', replyToMessageExternalId: injected.messageExternalId } });
    expect(reply.status).toBe('succeeded');
  });

  test('peers can start a group with `inject --group`; `platform conversations` shows it', async () => {
    const injected = await cli('inject', '--from', '+14155550151', '--group', '+14155550151,+14155550152', '--group-name', 'Peers', '--text', 'welcome to the group');
    const received = await rig.stream.waitFor((e) => e.type === 'message.received' && e.data.messageExternalId === injected.messageExternalId);
    const appeared = rig.stream.events.find((e) => e.type === 'conversation.appeared' && e.data.conversationId === received.data.conversationId)!;
    expect(appeared.data).toMatchObject({ kind: 'group', name: 'Peers', participants: ['+14155550151', '+14155550152'] });

    const conversations = await cli('platform', 'conversations');
    expect(conversations).toContainEqual(expect.objectContaining({ externalId: injected.conversationExternalId, kind: 'group', name: 'Peers' }));
    const reply = await rig.run('message.send', { target: toConversation(received.data.conversationId), payload: { text: 'hi all' } });
    // The simulator keeps the logical action with what it did; BlueBubbles keeps only the message, found by the send's tempGuid.
    const messages = driver === 'simulator' ? (await cli('platform', 'action', '--logical-action-id', reply.logicalActionId)).messages : rig.actionMessages(reply.logicalActionId);
    expect(messages).toEqual([expect.objectContaining({ conversationExternalId: injected.conversationExternalId, body: { text: 'hi all' } })]);
  });

  test('a peer renaming the group or adding someone (`inject --rename`, `--add`) reaches the stream without a commandId', async () => {
    const group = rig.platform.conversations().find((c) => c.name === 'Peers')!;
    await cli('inject', '--from', '+14155550151', '--conversation', group.externalId, '--rename', 'Peers and friends', '--add', '+14155550154');
    const changed = await rig.stream.waitFor((e) => e.type === 'group.participants_changed' && e.data.added.includes('+14155550154'));
    // BlueBubbles posts each webhook on its own, so the two may arrive in either order.
    const renamed = await rig.stream.waitFor((e) => e.type === 'group.renamed' && e.data.name === 'Peers and friends');
    expect(renamed.data).toMatchObject({ conversationId: changed.data.conversationId, commandId: null });
    expect(changed.data).toMatchObject({ removed: [], participants: ['+14155550151', '+14155550152', '+14155550154'], commandId: null });
    const conversation = (await (await fetch(`${rig.server.url}/v1/conversations/${changed.data.conversationId}`, { headers: { authorization: `Bearer ${rig.apiKey}` } })).json()) as { name: string; participants: unknown[] };
    expect(conversation).toMatchObject({ name: 'Peers and friends', participants: [{ externalId: '+14155550151' }, { externalId: '+14155550152' }, { externalId: '+14155550154' }] });
  });

  test('inject refuses a sender who is not in the conversation', async () => {
    const group = rig.platform.conversations().find((c) => c.kind === 'group')!;
    await expect(cli('inject', '--from', '+14155550199', '--conversation', group.externalId, '--text', 'let me in')).rejects.toThrow(/not in conversation/);
  });

  test('a message whose text holds U+0000 reaches the stream with U+FFFD in its place (the server stores no U+0000)', async () => {
    await rig.onlyHost();
    const { messageExternalId } = await inbound(rig, '+14155550154', 'before\u0000after');
    const received = rig.stream.events.find((e) => e.type === 'message.received' && e.data.messageExternalId === messageExternalId)!;
    expect(received.data.text).toBe('before\uFFFDafter');
  });

  test('inbound messages reported while no host runs are reported by the next holder, once', async () => {
    const host = await rig.onlyHost();
    await host.stop();
    const injected = rig.platform.receive({ from: '+14155550153', text: 'anyone there?' });
    await rig.onlyHost();
    await rig.stream.waitFor((e) => e.type === 'message.received' && e.data.messageExternalId === injected.messageExternalId);
    // Then something newer, so the first had every chance to be reported twice.
    const later = rig.platform.receive({ from: '+14155550153', text: 'hello?' });
    await rig.stream.waitFor((e) => e.type === 'message.received' && e.data.messageExternalId === later.messageExternalId);
    expect(rig.stream.events.filter((e) => e.type === 'message.received' && e.data.messageExternalId === injected.messageExternalId)).toHaveLength(1);
  });
});
