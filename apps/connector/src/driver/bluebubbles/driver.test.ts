import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { ActionRef, ConversationRef, Media } from '../types.ts';
import { BlueBubblesDriver } from './driver.ts';
import { BlueBubblesStandIn, chatGuidOf } from './standin/server.ts';

/**
 * The bluebubbles driver's media against the stand-in (standin/FIDELITY.md): attachments and
 * stickers through POST /api/v1/message/attachment, group photos through POST /api/v1/chat/:guid/icon.
 */
let dir: string;
let standIn: BlueBubblesStandIn;
let driver: BlueBubblesDriver;

function open(privateApi = true): BlueBubblesDriver {
  return new BlueBubblesDriver(
    {
      url: standIn.url, password: 'pw', webhookHost: '127.0.0.1', webhookPort: 0, webhookUrl: null,
      echoTimeoutMs: 3_000, updateTimeoutMs: 600, catchUpWindowMs: 60_000, catchUpIntervalMs: 60_000, journalPath: join(dir, `journal-${randomUUID()}.db`),
    },
    { hostId: 'host-a', log: pino({ level: 'silent' }), abilities: { osMajorVersion: 15, privateApi, serverVersion: '1.9.9' } },
  );
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bb-driver-'));
  standIn = await new BlueBubblesStandIn({ dbPath: join(dir, 'sim.db'), account: 'acct', password: 'pw', feedPollMs: 5, echoWaitMs: 50, updateWaitMs: 50 }).start();
  driver = open();
});

afterEach(async () => {
  await driver.close();
  await standIn.stop();
  rmSync(dir, { recursive: true, force: true });
});

const action = (): ActionRef => {
  const commandId = randomUUID();
  return { commandId, logicalActionId: commandId, acceptedAt: new Date().toISOString() };
};
const png: Media = { fileName: 'cat.png', mimeType: 'image/png', bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 255, 7]) };
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function dm(address: string): ConversationRef {
  const { conversationExternalId } = standIn.platform.receive({ from: address, text: 'hi' });
  return { externalId: chatGuidOf(conversationExternalId), kind: 'direct', participants: [address], membershipVersion: 0 };
}

function group(participants: string[]): ConversationRef {
  const { conversationExternalId } = standIn.platform.receive({ from: participants[0]!, group: { participants }, text: 'hi all' });
  return { externalId: chatGuidOf(conversationExternalId), kind: 'group', participants, membershipVersion: 0 };
}

describe('attachments and stickers: POST /api/v1/message/attachment', () => {
  test('an attachment is confirmed by its echo and the proof it left the Mac; the Mac shows the file under its name', async () => {
    const to = dm('+14155550171');
    const act = action();
    const outcome = await driver.sendToConversation(act, to, { kind: 'attachment', media: png });
    expect(outcome).toMatchObject({ result: 'confirmed', events: [{ type: 'message.sent', conversationExternalId: to.externalId, commandId: act.commandId }] });
    const [sent] = standIn.platform.messagesOfCommand(`switchboard-${act.logicalActionId}`);
    expect(sent).toMatchObject({ kind: 'attachment', direction: 'out', body: { fileName: 'cat.png', mimeType: 'image/png', byteSize: png.bytes.byteLength, sha256: sha(png.bytes) } });
    expect(outcome.events[0]).toMatchObject({ messageExternalId: sent!.externalId });
    expect(standIn.platform.attachment((sent!.body.attachmentIds as string[])[0]!).bytes).toEqual(png.bytes);
    // The journal replays it: the same action is not sent again.
    expect(await driver.findExecuted(act.logicalActionId)).toMatchObject({ outcome: { result: 'confirmed' } });
  });

  test('a sticker goes as an attachment: BlueBubbles has no sticker send', async () => {
    const to = dm('+14155550172');
    const act = action();
    expect(await driver.sendToConversation(act, to, { kind: 'sticker', media: png })).toMatchObject({ result: 'confirmed' });
    expect(standIn.platform.messagesOfCommand(`switchboard-${act.logicalActionId}`)).toMatchObject([{ kind: 'attachment', body: { fileName: 'cat.png' } }]);
  });

  test('Messages refusing it (a row with an error) settles gateway_rejected; the call failing, send_not_ok; an unknown chat, invalid_target', async () => {
    const to = dm('+14155550173');
    standIn.options.faults.gatewayRejected = 1;
    expect(await driver.sendToConversation(action(), to, { kind: 'attachment', media: png })).toMatchObject({ result: 'gateway_rejected', detail: expect.stringContaining('Attachment Send Error') });
    standIn.options.faults.gatewayRejected = 0;
    standIn.options.faults.sendNotOk = 1;
    expect(await driver.sendToConversation(action(), to, { kind: 'attachment', media: png })).toMatchObject({ result: 'send_not_ok' });
    standIn.options.faults.sendNotOk = 0;
    expect(await driver.sendToConversation(action(), { ...to, externalId: 'iMessage;-;+14155550000' }, { kind: 'attachment', media: png })).toMatchObject({ result: 'invalid_target' });
  });

  test('a file Messages never shows settles accepted_echo_unconfirmed (BlueBubbles: "Attachment not found in database")', async () => {
    const to = dm('+14155550174');
    standIn.options.faults.echoLost = 1;
    expect(await driver.sendToConversation(action(), to, { kind: 'attachment', media: png })).toMatchObject({ result: 'accepted_no_echo', detail: expect.stringContaining('never showed') });
  });
});

describe('attachments after a failover: an earlier send is the same file by name, size and type', () => {
  const image = (bytes: number[], mimeType = 'image/png'): Media => ({ fileName: 'image.png', mimeType, bytes: new Uint8Array(bytes) });
  const acceptedEarlier = (): ActionRef => ({ ...action(), acceptedAt: new Date(Date.now() - 1_000).toISOString() });

  test('a host taking over sends its own file under a common name (image.png): another command\'s message of that name is not adopted', async () => {
    const to = dm('+14155550175');
    const first = action();
    expect(await driver.sendToConversation(first, to, { kind: 'attachment', media: image([1, 2, 3]) })).toMatchObject({ result: 'confirmed' });
    // Accepted before the next host started: it may have run there, so that host looks for it first.
    const second = acceptedEarlier();
    const third = acceptedEarlier();
    const next = open();
    try {
      expect(await next.sendToConversation(second, to, { kind: 'attachment', media: image([4, 5, 6, 7]) })).toMatchObject({ result: 'confirmed' });
      expect(await next.sendToConversation(third, to, { kind: 'attachment', media: image([1, 2, 3], 'image/gif') })).toMatchObject({ result: 'confirmed' });
    } finally {
      await next.close();
    }
    for (const act of [first, second, third]) expect(standIn.platform.messagesOfCommand(`switchboard-${act.logicalActionId}`)).toHaveLength(1);
    const [sent] = standIn.platform.messagesOfCommand(`switchboard-${second.logicalActionId}`);
    expect(standIn.platform.attachment((sent!.body.attachmentIds as string[])[0]!).bytes).toEqual(new Uint8Array([4, 5, 6, 7]));
  });

  test('its own earlier send (same name, size and type) is adopted: nothing is sent twice', async () => {
    const to = dm('+14155550176');
    const act = acceptedEarlier();
    const media = image([9, 8, 7]);
    expect(await driver.sendToConversation(act, to, { kind: 'attachment', media })).toMatchObject({ result: 'confirmed' });
    const next = open();
    try {
      expect(await next.sendToConversation(act, to, { kind: 'attachment', media })).toMatchObject({ result: 'confirmed', replayed: true });
    } finally {
      await next.close();
    }
    expect(standIn.platform.messagesOfCommand(`switchboard-${act.logicalActionId}`)).toHaveLength(1);
  });
});

describe('group photos: POST /api/v1/chat/:guid/icon', () => {
  test('set_photo is confirmed once the chat names a new group photo; the icon BlueBubbles serves is the image', async () => {
    const to = group(['+14155550181', '+14155550182']);
    expect(await driver.setGroupPhoto(action(), to, png)).toMatchObject({ result: 'confirmed', events: [] });
    const state = standIn.platform.conversation(to.externalId.replace(/^iMessage;/, 'sim;'))!;
    expect(state.photoSha256).toBe(sha(png.bytes));
    const icon = await fetch(`${standIn.url}/api/v1/chat/${encodeURIComponent(to.externalId)}/icon?password=pw`);
    expect(icon.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await icon.arrayBuffer())).toEqual(png.bytes);
    // A second photo replaces it.
    const other = { ...png, bytes: new Uint8Array([1, 2, 3]) };
    expect(await driver.setGroupPhoto(action(), to, other)).toMatchObject({ result: 'confirmed' });
    expect(standIn.platform.conversation(state.externalId)!.photoSha256).toBe(sha(other.bytes));
  });

  test('a change that never shows, and the Private API off, are group_update_unverified; a direct chat is invalid_target', async () => {
    const to = group(['+14155550183', '+14155550184']);
    standIn.options.faults.groupUpdateUnverified = 1;
    expect(await driver.setGroupPhoto(action(), to, png)).toMatchObject({ result: 'group_update_unverified', detail: expect.stringContaining('Transaction timeout') });
    standIn.options.faults.groupUpdateUnverified = 0;
    standIn.options.helperConnected = false;
    expect(await driver.setGroupPhoto(action(), to, png)).toMatchObject({ result: 'group_update_unverified', detail: expect.stringContaining('Private API') });
    standIn.options.helperConnected = true;
    expect(await driver.setGroupPhoto(action(), dm('+14155550185'), png)).toMatchObject({ result: 'invalid_target' });
  });
});
