/**
 * The SDK against the whole service: the real server and the real simulated connector host
 * (apps/connector), as a team would run them. The other end-to-end files play the host
 * themselves for exact control; this one takes what the simulator does.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths, startHost, type HostProcess } from '@switchboard/testkit';
import { SwitchboardClient } from '../../src/index.ts';
import { startService, type Service } from '../support/service.ts';

const run = promisify(execFile);
let service: Service;
let host: HostProcess;
let client: SwitchboardClient;
let accountId: string;
let simDir: string;

beforeAll(async () => {
  service = await startService();
  const account = await service.server.account();
  accountId = account.accountId;
  simDir = mkdtempSync(join(tmpdir(), 'switchboard-sim-'));
  host = startHost({ url: service.server.url, connectorKey: account.connectorKey, env: { SWITCHBOARD_SIM_DB: join(simDir, 'simulator.db') } });
  await host.leased();
  client = new SwitchboardClient({ baseUrl: service.server.url, apiKey: account.apiKey });
});
afterAll(async () => {
  await host?.stop();
  await service?.stop();
  rmSync(simDir, { recursive: true, force: true });
});

/** Someone writes to the account on the simulated platform. */
function inject(from: string, text: string) {
  return run(process.execPath, [paths.connector, 'inject', '--account', accountId, '--from', from, '--text', text, '--sim-db', join(simDir, 'simulator.db')]);
}

describe('the SDK with the simulated connector host', () => {
  it('reports the live host through getCapabilities', async () => {
    const report = await client.getCapabilities();
    expect(report.hostId).toBe(host.hostId);
    expect(report.capabilities.map((c) => c.name)).toContain('command.message_send.content.v1');
  });

  it('sees an inbound message on the stream, replies, and the reply settles succeeded', async () => {
    const controller = new AbortController();
    const events = client.events({ signal: controller.signal });
    await inject('+14155550123', 'Is my order on its way?');
    let conversationId: string | undefined;
    for await (const item of events) {
      if (item.type === 'message.received' && item.data.text === 'Is my order on its way?') {
        conversationId = item.data.conversationId;
        break;
      }
    }
    controller.abort();
    const acknowledgement = await client.sendMessage({ target: { kind: 'conversation', conversationId: conversationId! }, payload: { text: 'It ships today.' } });
    expect(await client.settled(acknowledgement.commandId, { timeoutMs: 20_000 })).toEqual({ commandId: acknowledgement.commandId, status: 'succeeded', errorCode: null, errorMessage: null, errorPath: null });
  });

  it('rich content to a new contact in one call: plain text first, then the rich payload into the new conversation', async () => {
    const result = await client.sendRichToNewContact(
      { recipientExternalId: '+14155550177', text: 'Hello from Switchboard' },
      { kind: 'rich_text', text: 'Welcome aboard', effect: 'confetti' },
      { timeoutMs: 20_000 },
    );
    expect((await client.getConversation(result.conversationId)).participants).toEqual([{ externalId: '+14155550177' }]);
    expect((await client.settled(result.recipientSend.commandId, { timeoutMs: 20_000 })).status).toBe('succeeded');
    expect((await client.settled(result.richSend.commandId, { timeoutMs: 20_000 })).status).toBe('succeeded');
  });

  it('a payload the host rejects is accepted, then settles failed payload_invalid, saying why and where', async () => {
    const [conversation] = (await client.listConversations()).conversations;
    const payload = { kind: 'poll', question: 'Lunch?', options: ['only one'] } as never;
    const acknowledgement = await client.sendMessage({ target: { kind: 'conversation', conversationId: conversation!.conversationId }, payload });
    const why = { errorMessage: '/payload/options: Too small: expected array to have >=2 items', errorPath: '/payload/options' };
    expect(await client.settled(acknowledgement.commandId, { timeoutMs: 20_000 })).toEqual({ commandId: acknowledgement.commandId, status: 'failed', errorCode: 'payload_invalid', ...why });
    // The typed command resource carries both.
    const command = await client.getCommand(acknowledgement.commandId);
    const message: string | null = command.errorMessage;
    const path: string | null = command.errorPath;
    expect({ errorMessage: message, errorPath: path }).toEqual(why);
  });
});
