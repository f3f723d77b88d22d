import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { paths } from '@switchboard/testkit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createGroup, startRig, toConversation, type Rig } from './helpers.ts';

const run = promisify(execFile);

// The simulator's own: it learns Switchboard's ids from the commands its driver runs.
describe('`switchboard-connector inject --conversation` with the Switchboard id a client knows', () => {
  let rig: Rig;

  beforeAll(async () => {
    rig = await startRig();
    await rig.onlyHost();
  });
  afterAll(async () => {
    await rig?.close();
  });

  const inject = async (...args: string[]) => {
    const { stdout } = await run(process.execPath, [paths.connector, 'inject', ...args, '--account', rig.accountId, '--sim-db', rig.simDb]);
    return JSON.parse(stdout) as { conversationExternalId: string; messageExternalId: string };
  };

  test('un-sticks a group after add_participant: a message written there by its conversationId', async () => {
    const group = await createGroup(rig, ['+14155550161', '+14155550162'], 'Crew');
    expect(await rig.run('group.update', { target: toConversation(group.conversationId), payload: { action: 'add_participant', participantExternalId: '+14155550163' } })).toMatchObject({ status: 'succeeded' });
    expect(await rig.run('message.send', { target: toConversation(group.conversationId), payload: { text: 'too early' } })).toMatchObject({ status: 'failed', errorCode: 'stale_target' });

    const written = await inject('--from', '+14155550163', '--conversation', group.conversationId, '--text', 'thanks for adding me');
    expect(written.conversationExternalId).toBe(group.externalId);
    const received = await rig.stream.waitFor((e) => e.type === 'message.received' && e.data.messageExternalId === written.messageExternalId);
    expect(received.data.conversationId).toBe(group.conversationId);
    expect(await rig.run('message.send', { target: toConversation(group.conversationId), payload: { text: 'welcome!' } })).toMatchObject({ status: 'succeeded' });

    // Group changes take it too.
    await inject('--from', '+14155550161', '--conversation', group.conversationId.toUpperCase(), '--rename', 'Crew of three');
    await rig.stream.waitFor((e) => e.type === 'group.renamed' && e.data.conversationId === group.conversationId && e.data.name === 'Crew of three');
  });

  test('says how to name a conversation it has not learnt yet', async () => {
    const unknown = '0190b7a4-0000-7000-8000-00000000beef';
    const failed = await inject('--from', '+14155550161', '--conversation', unknown, '--text', 'hello?').catch((error: { stderr: string; code: number }) => error);
    expect(failed).toMatchObject({ code: 1, stderr: expect.stringContaining(`the platform knows no conversation "${unknown}"`) });
    expect((failed as { stderr: string }).stderr).toContain('platform conversations --account');
  });
});
