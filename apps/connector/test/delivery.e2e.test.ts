import { Proxy, startHost, type HostProcess } from '@switchboard/testkit';
import { afterEach, expect, test } from 'vitest';
import { inbound, startRig, toConversation, type Rig } from './helpers.ts';

let rig: Rig;
let proxy: Proxy;
let host: HostProcess;

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') console.error(rig.dump(), host.logs.text.slice(-40).join('\n'));
  await host?.kill();
  await proxy?.stop();
  await rig?.close();
});

test('a dispatch answer lost on its way reaches the same host on its next poll: the command settles once, with no new lease', async () => {
  // The default 15 s TTL: were the command left for the next epoch, it would not settle in time.
  rig = await startRig();
  proxy = await new Proxy(new URL(rig.server.url)).start();
  host = startHost({ url: proxy.url, connectorKey: rig.connectorKey, env: { SWITCHBOARD_SIM_DB: rig.simDb, SWITCHBOARD_SIM_FEED_POLL_MS: '10' } });
  const lease = await host.leased();
  const { conversationId } = await inbound(rig, '+14155550170', 'hi');

  // The server writes the whole answer; the host sees its connection break partway through.
  const cut = proxy.cutNext({ after: '"commands":[{', extraBytes: 0 });
  const commandId = await rig.command('message.send', { target: toConversation(conversationId), payload: { text: 'delivered at last' } });
  await cut;

  expect((await rig.settled(commandId, 5_000)).data).toMatchObject({ status: 'succeeded', errorCode: null });
  expect(await host.logs.waitFor((r) => r.msg === 'command settled' && r.commandId === commandId)).toMatchObject({ epoch: lease.epoch });
  expect(host.logs.filter((r) => r.msg === 'lease acquired')).toHaveLength(1);
  expect(rig.platform.messagesOfAction(commandId)).toHaveLength(1);
});
