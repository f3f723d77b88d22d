import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openWal } from '@switchboard/sqlite';
import { paths } from '@switchboard/testkit';
import { onDatabase } from '@switchboard/testkit/postgres';
import { describe, expect, test } from 'vitest';
import { createGroup, DRIVERS, inbound, rigPerTest, toConversation, type Rig } from './helpers.ts';

/**
 * Transfers end to end, on a real server and a real host: media uploaded with POST /v1/transfers
 * is fetched by the host when it executes the command, checked against its SHA-256 and sent.
 * Each driver: the simulator, and bluebubbles in front of the stand-in. With the server's
 * transfers off (the default), a transferId still settles transfer_unavailable.
 */
const ON = { SWITCHBOARD_TRANSFERS: 'enabled' };
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
/** Bytes no text encoding keeps as they are: every value once. */
const photo = new Uint8Array(Array.from({ length: 3 * 256 }, (_, i) => (i * 7) % 256));

/** POST /v1/transfers as the rig's account, or as the account whose API key is `apiKey`. */
async function upload(rig: Rig, fileName: string, mimeType: string, bytes: Uint8Array, apiKey = rig.apiKey): Promise<{ transferId: string; sha256: string; byteSize: number }> {
  const response = await fetch(`${rig.server.url}/v1/transfers?fileName=${encodeURIComponent(fileName)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': mimeType },
    body: bytes as Uint8Array<ArrayBuffer>,
  });
  const body = (await response.json()) as { transferId: string; sha256: string; byteSize: number };
  expect(response.status, JSON.stringify(body)).toBe(201);
  return body;
}

/** The file the account's message carries on the platform (the simulator's, or the stand-in's Mac's). */
function fileOf(rig: Rig, logicalActionId: string) {
  const [message] = rig.actionMessages(logicalActionId);
  expect(message, 'the platform shows the message').toBeDefined();
  return { message: message!, file: rig.platform.attachment((message!.body.attachmentIds as string[])[0]!) };
}

describe.each(DRIVERS)('transfers on, %s driver', (driver) => {
  let rig: Rig;
  rigPerTest(ON, driver, (r) => (rig = r));

  test('an attachment is sent: succeeded, message.sent names the command, and the platform holds the very bytes under the uploaded name', async () => {
    await rig.onlyHost();
    const { conversationId } = await inbound(rig, '+14155550501', 'send me the invoice');
    const pdf = new TextEncoder().encode('%PDF-1.7 invoice\n');
    const transfer = await upload(rig, 'invoice.pdf', 'application/pdf', pdf);
    expect(transfer).toMatchObject({ sha256: sha256(pdf), byteSize: pdf.byteLength });
    const sent = await rig.run('message.send', { target: toConversation(conversationId), payload: { kind: 'attachment', transferId: transfer.transferId } });
    expect(sent).toMatchObject({ status: 'succeeded', errorCode: null });
    await rig.stream.waitFor((e) => e.type === 'message.sent' && e.data.commandId === sent.commandId);
    const { message, file } = fileOf(rig, sent.logicalActionId);
    expect(message).toMatchObject({ kind: 'attachment', direction: 'out', body: { fileName: 'invoice.pdf', mimeType: 'application/pdf', byteSize: pdf.byteLength, sha256: sha256(pdf) } });
    expect(file).toMatchObject({ fileName: 'invoice.pdf', mimeType: 'application/pdf' });
    expect(sha256(file.bytes)).toBe(sha256(pdf));
  });

  test('a file of several of the store\'s 1 MiB chunks arrives whole; `platform attachment` shows it and writes its bytes', async () => {
    await rig.onlyHost();
    const { conversationId } = await inbound(rig, '+14155550507', 'the video please');
    const video = new Uint8Array(randomBytes(2_621_440 + 17));
    const transfer = await upload(rig, 'clip.mp4', 'video/mp4', video);
    const sent = await rig.run('message.send', { target: toConversation(conversationId), payload: { kind: 'attachment', transferId: transfer.transferId } });
    expect(sent).toMatchObject({ status: 'succeeded' });
    const { file } = fileOf(rig, sent.logicalActionId);
    expect(sha256(file.bytes)).toBe(sha256(video));
    const out = `${rig.simDb}.clip.mp4`;
    const { stdout } = await promisify(execFile)(process.execPath, [paths.connector, 'platform', 'attachment', '--account', rig.accountId, '--sim-db', rig.simDb, '--attachment-id', file.attachmentId, '--out', out]);
    expect(JSON.parse(stdout)).toEqual({ attachmentId: file.attachmentId, fileName: 'clip.mp4', mimeType: 'video/mp4', byteSize: video.byteLength, sha256: sha256(video) });
    expect(sha256(readFileSync(out))).toBe(sha256(video));
  });

  test('a sticker is sent (on bluebubbles, which has no sticker send, the host does not declare it)', async () => {
    await rig.onlyHost();
    const { conversationId } = await inbound(rig, '+14155550502', 'sticker me');
    const transfer = await upload(rig, 'sticker.png', 'image/png', photo);
    const sent = await rig.run('message.send', { target: toConversation(conversationId), payload: { kind: 'sticker', transferId: transfer.transferId } });
    if (driver === 'bluebubbles') {
      expect(sent).toMatchObject({ status: 'failed', errorCode: 'capability_constraint_violation' });
      return;
    }
    expect(sent).toMatchObject({ status: 'succeeded' });
    const { message, file } = fileOf(rig, sent.logicalActionId);
    expect(message).toMatchObject({ kind: 'sticker', body: { fileName: 'sticker.png', mimeType: 'image/png', sha256: sha256(photo) } });
    expect(file.bytes).toEqual(photo);
  });

  test('set_photo: succeeded, and the group\'s photo on the platform is the uploaded image', async () => {
    await rig.onlyHost();
    const group = await createGroup(rig, ['+14155550503', '+14155550504'], 'Photos');
    const transfer = await upload(rig, 'group.png', 'image/png', photo);
    const set = await rig.run('group.update', { target: toConversation(group.conversationId), payload: { action: 'set_photo', transferId: transfer.transferId } });
    expect(set).toMatchObject({ status: 'succeeded', errorCode: null });
    const state = rig.platform.conversation(group.externalId)!;
    expect(state.photoSha256).toBe(sha256(photo));
    expect(rig.platform.attachment(state.photoAttachmentId!).bytes).toEqual(photo);
  });

  test('an unknown transferId settles transfer_unavailable at /payload/transferId, and nothing is sent', async () => {
    await rig.onlyHost();
    const { conversationId } = await inbound(rig, '+14155550505', 'hello');
    const failed = await rig.run('message.send', { target: toConversation(conversationId), payload: { kind: 'attachment', transferId: 'tr_never_uploaded' } });
    expect(failed).toMatchObject({ status: 'failed', errorCode: 'transfer_unavailable', errorPath: '/payload/transferId', errorMessage: expect.stringContaining('transferId "tr_never_uploaded" names no usable transfer') });
    expect(rig.actionMessages(failed.logicalActionId)).toEqual([]);
  });

  test('a transfer may be named by another command while it lives: each sends its own message', async () => {
    await rig.onlyHost();
    const { conversationId } = await inbound(rig, '+14155550506', 'again');
    const transfer = await upload(rig, 'again.png', 'image/png', photo);
    const payload = { kind: 'attachment', transferId: transfer.transferId };
    const first = await rig.run('message.send', { target: toConversation(conversationId), payload });
    const second = await rig.run('message.send', { target: toConversation(conversationId), payload });
    expect([first.status, second.status]).toEqual(['succeeded', 'succeeded']);
    expect(rig.actionMessages(first.logicalActionId)).toHaveLength(1);
    expect(sha256(fileOf(rig, second.logicalActionId).file.bytes)).toBe(sha256(photo));
  });
});

/**
 * What names no usable transfer, or the wrong kind, on the simulator. SWITCHBOARD_TRANSFER_TTL_HOURS
 * is at least an hour, so an expired transfer is one whose expiry the test backdates in the store.
 */
/** Sets a transfer's expiry in the server's own store; answers the rows changed. */
async function backdate(rig: Rig, transferId: string, expiresAt: number): Promise<number> {
  const url = rig.server.storeEnv.SWITCHBOARD_DATABASE_URL;
  if (url) return onDatabase(url, 'UPDATE transfers SET expires_at = $1 WHERE account_id = $2 AND id = $3', [expiresAt, rig.accountId, transferId]);
  const db = openWal(join(rig.server.dataDir, 'switchboard.db'), 5_000);
  try {
    return Number(db.prepare('UPDATE transfers SET expires_at = ? WHERE account_id = ? AND id = ?').run(expiresAt, rig.accountId, transferId).changes);
  } finally {
    db.close();
  }
}

describe('transfers on, what settles transfer_unavailable (simulator driver)', () => {
  let rig: Rig;
  rigPerTest(ON, 'simulator', (r) => (rig = r));

  test('an expired transfer (its expiry backdated before the command) settles transfer_unavailable, and nothing is sent', async () => {
    await rig.onlyHost();
    const transfer = await upload(rig, 'old.png', 'image/png', photo);
    expect(await backdate(rig, transfer.transferId, Date.now() - 60_000)).toBe(1);
    const { conversationId } = await inbound(rig, '+14155550520', 'the old one');
    const failed = await rig.run('message.send', { target: toConversation(conversationId), payload: { kind: 'attachment', transferId: transfer.transferId } });
    expect(failed).toMatchObject({ status: 'failed', errorCode: 'transfer_unavailable', errorPath: '/payload/transferId', errorMessage: expect.stringContaining(`transferId "${transfer.transferId}" names no usable transfer`) });
    expect(rig.actionMessages(failed.logicalActionId)).toEqual([]);
  });

  test('another account\'s transferId settles transfer_unavailable at /payload/transferId, and nothing is sent', async () => {
    await rig.onlyHost();
    const other = await rig.server.account();
    const theirs = await upload(rig, 'theirs.png', 'image/png', photo, other.apiKey);
    const { conversationId } = await inbound(rig, '+14155550521', 'send me theirs');
    const failed = await rig.run('message.send', { target: toConversation(conversationId), payload: { kind: 'attachment', transferId: theirs.transferId } });
    expect(failed).toMatchObject({ status: 'failed', errorCode: 'transfer_unavailable', errorPath: '/payload/transferId', errorMessage: expect.stringContaining(`transferId "${theirs.transferId}" names no usable transfer`) });
    expect(rig.actionMessages(failed.logicalActionId)).toEqual([]);
  });

  test('a sticker or set_photo of a PDF settles transfer_unavailable (they need an image), and nothing is sent', async () => {
    await rig.onlyHost();
    const pdf = await upload(rig, 'invoice.pdf', 'application/pdf', new TextEncoder().encode('%PDF-1.7 not an image\n'));
    const { conversationId } = await inbound(rig, '+14155550522', 'sticker me');
    const sticker = await rig.run('message.send', { target: toConversation(conversationId), payload: { kind: 'sticker', transferId: pdf.transferId } });
    expect(sticker).toMatchObject({ status: 'failed', errorCode: 'transfer_unavailable', errorPath: '/payload/transferId', errorMessage: expect.stringContaining('is application/pdf, not an image') });
    expect(rig.actionMessages(sticker.logicalActionId)).toEqual([]);
    const group = await createGroup(rig, ['+14155550523', '+14155550524']);
    const set = await rig.run('group.update', { target: toConversation(group.conversationId), payload: { action: 'set_photo', transferId: pdf.transferId } });
    expect(set).toMatchObject({ status: 'failed', errorCode: 'transfer_unavailable', errorPath: '/payload/transferId' });
    expect(rig.platform.conversation(group.externalId)!.photoSha256).toBeFalsy();
  });
});

describe.each(DRIVERS)('transfers off (the default), %s driver', (driver) => {
  let rig: Rig;
  rigPerTest({}, driver, (r) => (rig = r));

  test('POST /v1/transfers is 404 transfers_disabled, and an attachment and set_photo settle transfer_unavailable as the service specification says', async () => {
    await rig.onlyHost();
    const refused = await fetch(`${rig.server.url}/v1/transfers?fileName=a.png`, { method: 'POST', headers: { authorization: `Bearer ${rig.apiKey}`, 'content-type': 'image/png' }, body: photo as Uint8Array<ArrayBuffer> });
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ error: 'transfers_disabled' });
    const { conversationId } = await inbound(rig, '+14155550511', 'hi');
    expect(await rig.run('message.send', { target: toConversation(conversationId), payload: { kind: 'attachment', transferId: 't-1' } })).toMatchObject({
      status: 'failed', errorCode: 'transfer_unavailable', errorPath: '/payload/transferId', errorMessage: expect.stringContaining('transferId "t-1"'),
    });
    const group = await createGroup(rig, ['+14155550512', '+14155550513']);
    expect(await rig.run('group.update', { target: toConversation(group.conversationId), payload: { action: 'set_photo', transferId: 't-2' } })).toMatchObject({ status: 'failed', errorCode: 'transfer_unavailable' });
  });
});
