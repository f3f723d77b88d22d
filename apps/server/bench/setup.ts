import type { ServerProcess } from '@switchboard/testkit';

/** What every intake bench sends: one conversation `message.send`, the same headers and body each time. */
export interface BenchRequest {
  headers: Record<string, string>;
  body: string;
}

/**
 * Makes an account with a live lease (held for the bench's length by SWITCHBOARD_LEASE_TTL_MS)
 * and one direct conversation, and returns the request that sends into it.
 */
export async function benchRequest(server: ServerProcess): Promise<BenchRequest> {
  const account = await server.account();
  const auth = { authorization: `Bearer ${account.connectorKey}`, 'content-type': 'application/json' };
  const lease = (await (await fetch(`${server.url}/v1/connector/lease`, { method: 'POST', headers: auth, body: JSON.stringify({ hostId: 'bench', osMajorVersion: 15, capabilities: [] }) })).json() as any);
  await fetch(`${server.url}/v1/connector/platform-events`, {
    method: 'POST', headers: auth,
    body: JSON.stringify({ epoch: lease.epoch, events: [{ type: 'conversation.appeared', externalId: 'bench-chat', conversationKind: 'direct', name: null, participants: ['+14155550123'] }] }),
  });
  const list = (await (await fetch(`${server.url}/v1/conversations`, { headers: { authorization: `Bearer ${account.apiKey}` } })).json() as any);
  return {
    headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ target: { kind: 'conversation', conversationId: list.conversations[0].conversationId }, payload: { text: 'hello from the bench' } }),
  };
}

export { cpuSeconds } from '@switchboard/testkit';

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
