/**
 * One worker of bench/scale.ts: a slice of the accounts, each with a connector host that holds
 * its lease as the reference host does (connector.yaml, "Leases and fencing"), long-polls
 * dispatch and settles what it receives at once with its echo, and an SSE stream that notes when
 * each command.settled arrives.
 */
import { request, type ClientRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConnectorClient, isLeaseLost } from '@switchboard/connector-client';
import type { BatchedSettlement, Lease } from '@switchboard/contracts';
import type { Account } from './scale.ts';

export interface WorkerTask { urls: string[]; accounts: Account[]; offset: number }
export interface WorkerReport { settled: Array<[string, number]>; upkeep: number[]; leaseLosses: number; failures: number }

/** What the reference host waits on a dispatch poll (apps/connector, SWITCHBOARD_DISPATCH_WAIT_MS). */
const DISPATCH_WAIT_MS = 20_000;
const now = () => performance.timeOrigin + performance.now();

class Tally {
  settled = new Map<string, number>();
  upkeep: number[] = [];
  leaseLosses = 0;
  failures = 0;
  reset(): void {
    this.settled.clear();
    this.upkeep = [];
    this.leaseLosses = 0;
    this.failures = 0;
  }
}

/** A host: the lease kept by renewing every third of its TTL, and one dispatch long-poll at a time. */
async function host(url: string, account: Account, hostId: string, tally: Tally, ready: () => void): Promise<void> {
  const client = new ConnectorClient(url, account.connectorKey);
  const seen = new Set<string>();
  let first = true;
  for (;;) {
    const acquired = await client.acquireLease({ hostId, osMajorVersion: 15, capabilities: [] }).catch(() => null);
    if (acquired?.status !== 200) {
      tally.failures++;
      await sleep(500);
      continue;
    }
    const lease = acquired.body as Lease;
    if (first) ready();
    first = false;
    const lost = new AbortController();
    void keep(client, lease, tally, lost);
    await poll(client, lease.epoch, seen, tally, lost.signal);
    tally.leaseLosses++;
  }
}

async function keep(client: ConnectorClient, lease: Lease, tally: Tally, lost: AbortController): Promise<void> {
  while (!lost.signal.aborted) {
    await sleep(lease.ttlMs / 3);
    const sentAt = now();
    const answer = await client.renewLease(lease.epoch).catch(() => null);
    if (answer?.status === 200) tally.upkeep.push(now() - sentAt);
    else {
      if (answer === null || !isLeaseLost(answer)) tally.failures++;
      lost.abort();
    }
  }
}

async function poll(client: ConnectorClient, epoch: number, seen: Set<string>, tally: Tally, lost: AbortSignal): Promise<void> {
  while (!lost.aborted) {
    const answer = await client.dispatch(epoch, 20, [], DISPATCH_WAIT_MS, lost).catch(() => null);
    if (lost.aborted) return;
    if (answer === null || answer.status !== 200) {
      if (answer !== null && isLeaseLost(answer)) return;
      tally.failures++;
      await sleep(500);
      continue;
    }
    const commands = answer.body.commands;
    if (commands.length === 0) continue;
    const settlements: BatchedSettlement[] = commands.map((command) => {
      const address = command.target.kind === 'recipient' ? command.target.recipientExternalId : 'unknown';
      const externalId = `direct:${address}`;
      const events: BatchedSettlement['events'] = [];
      if (!seen.has(externalId)) {
        seen.add(externalId);
        events.push({ type: 'conversation.appeared', externalId, conversationKind: 'direct', name: null, participants: [address], commandId: command.commandId });
      }
      events.push({ type: 'message.sent', conversationExternalId: externalId, messageExternalId: `m-${command.commandId}`, commandId: command.commandId });
      return { commandId: command.commandId, status: 'succeeded', errorCode: null, events };
    });
    const settled = await client.settleBatch(epoch, settlements).catch(() => null);
    if (settled?.status !== 200) tally.failures++;
  }
}

/** The account's SSE stream: notes when each command.settled arrives. */
function stream(url: string, account: Account, tally: Tally, open: () => void): ClientRequest {
  const req = request(`${url}/v1/events`, { agent: false, headers: { authorization: `Bearer ${account.apiKey}`, accept: 'text/event-stream' } }, (res) => {
    if (res.statusCode !== 200) {
      tally.failures++;
      return;
    }
    open();
    let buffered = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      const at = now();
      buffered += chunk;
      let end: number;
      while ((end = buffered.indexOf('\n\n')) !== -1) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        if (!block.includes('event: command.settled')) continue;
        const data = block.split('\n').find((line) => line.startsWith('data: '));
        if (data) tally.settled.set((JSON.parse(data.slice(6)) as { data: { commandId: string } }).data.commandId, at);
      }
    });
  });
  req.on('error', () => tally.failures++);
  req.end();
  return req;
}

export function runWorker(): void {
  const tally = new Tally();
  let readiness: Promise<unknown> = Promise.resolve();
  process.on('message', (message: WorkerTask | { ask: 'ready' | 'measure' | 'report' }) => {
    if ('ask' in message) {
      if (message.ask === 'ready') void readiness.then(() => process.send!({ settled: [], upkeep: [], leaseLosses: 0, failures: tally.failures } satisfies WorkerReport));
      else if (message.ask === 'measure') {
        tally.reset();
        process.send!({ settled: [], upkeep: [], leaseLosses: 0, failures: 0 } satisfies WorkerReport);
      } else process.send!({ settled: [...tally.settled], upkeep: tally.upkeep, leaseLosses: tally.leaseLosses, failures: tally.failures } satisfies WorkerReport);
      return;
    }
    const { urls, accounts, offset } = message;
    readiness = (async () => {
      // A hundred at a time, as hosts come up over a fleet's start rather than in one instant.
      for (let start = 0; start < accounts.length; start += 100) {
        await Promise.all(accounts.slice(start, start + 100).map((account, i) => {
          const url = urls[(offset + start + i) % urls.length]!;
          return Promise.all([
            new Promise<void>((resolve) => void host(url, account, `scale-${offset + start + i}`, tally, resolve)),
            new Promise<void>((resolve) => stream(url, account, tally, resolve)),
          ]);
        }));
      }
    })();
  });
}
