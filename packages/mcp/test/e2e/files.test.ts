/**
 * message_send_file over stdio, as a desktop agent runs it: a local file into a conversation on
 * a server with transfers turned on, a URL refused, and a server with transfers off.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDataDir, startServer, type ServerProcess } from '@switchboard/testkit';
import { startWorld, stdioAgent, type Agent, type World } from '../support/world.ts';

let world: World;
let agent: Agent;
let dm: string;
const dir = mkdtempSync(join(tmpdir(), 'switchboard-mcp-files-'));
// A PNG's signature and a little more: the service checks the declared type, not the bytes.
const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('a photo of the parcel')]);
const photo = join(dir, 'parcel.png');
writeFileSync(photo, png);

beforeAll(async () => {
  world = await startWorld({ SWITCHBOARD_TRANSFERS: 'enabled' });
  ({ agent } = await stdioAgent(world.env));
  const { cursor } = await agent.ok('wait_for_message', { timeoutMs: 1_000 });
  const waiting = agent.ok('wait_for_message', { after: cursor, timeoutMs: 20_000 });
  await world.inject(['--from', '+14155550123', '--text', 'Can you send me a photo?']);
  dm = (await waiting).message.conversationId;
});
afterAll(async () => {
  await agent?.close();
  await world?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('message_send_file', () => {
  it('uploads a local file and sends it as an attachment that settles succeeded; the same call again is adopted', async () => {
    const sent = await agent.ok('message_send_file', { conversationId: dm, path: photo, wait: 'settled' });
    expect(sent).toMatchObject({ disposition: 'queued', routingPath: 'agent-turn', idempotent: true, status: 'succeeded', settled: true });
    expect(sent.transfer).toMatchObject({ fileName: 'parcel.png', mimeType: 'image/png', byteSize: png.length, sha256: createHash('sha256').update(png).digest('hex') });
    const recent = await agent.ok('recent_messages', { conversationId: dm, limit: 20 });
    expect(recent.messages.find((m: { commandId?: string }) => m.commandId === sent.commandId)?.payload).toEqual({ kind: 'attachment', transferId: sent.transfer.transferId });

    const again = await agent.ok('message_send_file', { conversationId: dm, path: photo, wait: 'settled' });
    expect(again).toMatchObject({ commandId: sent.commandId, disposition: 'adopted', idempotencyKey: sent.idempotencyKey });
  });

  it('refuses a URL, saying why and what to do instead, and fetches nothing', async () => {
    for (const path of ['https://example.com/parcel.png', 'http://169.254.169.254/latest/meta-data']) {
      const answer = await agent.call('message_send_file', { conversationId: dm, path });
      expect(answer.isError).toBe(true);
      expect(answer.body).toMatchObject({ error: 'url_refused', retry: 'never' });
      expect(answer.body.message).toMatch(/not a URL.*internal services.*Download the file yourself.*pass its path/);
    }
  });

  it('refuses a relative path, a missing file and a type it cannot name, before uploading', async () => {
    const relative = await agent.call('message_send_file', { conversationId: dm, path: 'parcel.png' });
    expect(relative.body).toMatchObject({ error: 'path_not_absolute' });
    const missing = await agent.call('message_send_file', { conversationId: dm, path: join(dir, 'gone.png') });
    expect(missing.body).toMatchObject({ error: 'file_not_found' });
    const key = join(dir, 'id_ed25519');
    writeFileSync(key, 'not for sending');
    const unknown = await agent.call('message_send_file', { conversationId: dm, path: key });
    expect(unknown.body).toMatchObject({ error: 'file_type_unsupported' });
    expect(unknown.body.message).toMatch(/\.png .*\.pdf/);
    const pdf = join(dir, 'invoice.pdf');
    writeFileSync(pdf, '%PDF-1.7');
    const sticker = await agent.call('message_send_file', { conversationId: dm, path: pdf, kind: 'sticker' });
    expect(sticker.body).toMatchObject({ error: 'file_type_unsupported' });
    expect(sticker.body.message).toMatch(/a sticker is an image/);
  });
});

describe('message_send_file on a server with transfers off (the default)', () => {
  let server: ServerProcess;
  let off: Agent;
  beforeAll(async () => {
    server = await startServer();
    const account = await server.account();
    ({ agent: off } = await stdioAgent({ SWITCHBOARD_URL: server.url, SWITCHBOARD_API_KEY: account.apiKey }));
  });
  afterAll(async () => {
    await off?.close();
    await server?.stop();
    if (server) removeDataDir(server.dataDir);
  });

  it('answers the tool error transfers_disabled, saying who turns them on and what to send instead', async () => {
    const answer = await off.call('message_send_file', { conversationId: '0190b7a4-0000-7000-8000-0000000000c1', path: photo });
    expect(answer.isError).toBe(true);
    expect(answer.body).toMatchObject({ error: 'transfers_disabled', status: 404, retry: 'never' });
    expect(answer.body.message).toMatch(/transfers turned off.*nothing was uploaded or sent.*SWITCHBOARD_TRANSFERS=enabled/);
  });
});
