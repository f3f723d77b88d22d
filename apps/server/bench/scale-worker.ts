/**
 * One worker of bench/scale.ts: a slice of the accounts, each with a connector host that keeps
 * its lease as the reference host does (connector.yaml, "Leases and fencing": its dispatch polls
 * renew it), settles what it receives at once with its echo, and an SSE stream that notes when
 * each command.settled arrives.
 */
import { request, type ClientRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConnectorClient, isLeaseLost } from '@switchboard/connector-client';
import type { BatchedSettlement, Lease } from '@switchboard/contracts';
import type { Account } from './scale.ts';

/** `without`: the accounts run with only their streams, or only their hosts (`scale.ts --without`). */
export interface WorkerTask { urls: string[]; accounts: Account[]; offset: number; without?: 'hosts' | 'streams' | undefined }
/** Moves every `every`th account's host and stream (by index, from `offset`) to the server at `url`, as a load balancer sends new connections to a replica that joined. */
export interface WorkerMove { move: string; every: number }
export interface WorkerReport { settled: Array<[string, number]>; upkeep: number[]; leastLeft: number; renewals: number; leaseLosses: number; failures: number }

/** What the reference host waits on a dispatch poll (apps/connector, SWITCHBOARD_DISPATCH_WAIT_MS). */
const DISPATCH_WAIT_MS = 20_000;
const now = () => performance.timeOrigin + performance.now();

class Tally {
  settled = new Map<string, number>();
  /** How late each renewal came: an empty poll's answer past its wait, an explicit renewal's round trip. */
  upkeep: number[] = [];
  /** The least time a lease had left, by its host's count, when a renewal came back. */
  leastLeft = Infinity;
  renewals = 0;
  leaseLosses = 0;
  failures = 0;
  reset(): void {
    this.settled.clear();
    this.upkeep = [];
    this.leastLeft = Infinity;
    this.renewals = 0;
    this.leaseLosses = 0;
    this.failures = 0;
  }
}

/** A held lease, until when it lives at least by the host's clock, and whether a poll of it waits. */
interface Held { lease: Lease; liveUntil: number; lost: AbortController; waiting: boolean }

/** Keeps the lease as the reference host does: `at` is when a request that renewed it was sent. */
function renewedAt(held: Held, tally: Tally, at: number): void {
  // A lease the server keeps while its poll waits outlives the host's count by design: not a margin.
  if (held.lease.keptWhilePolling !== true) tally.leastLeft = Math.min(tally.leastLeft, held.liveUntil - now());
  held.liveUntil = Math.max(held.liveUntil, at + held.lease.ttlMs);
}

/** Where a host's requests go: swapped when it moves to another server. */
interface Connection { client: ConnectorClient; moved: AbortController; key: string }

function moveHost(connection: Connection, url: string): void {
  const old = connection.client;
  const moved = connection.moved;
  connection.client = new ConnectorClient(url, connection.key);
  connection.moved = new AbortController();
  moved.abort();
  old.close();
}

/** A host: one dispatch long-poll at a time, each renewing the lease; a renewal of its own only when polls did not. */
async function host(connection: Connection, hostId: string, tally: Tally, ready: () => void): Promise<void> {
  const seen = new Set<string>();
  let first = true;
  for (;;) {
    const sentAt = now();
    const acquired = await connection.client.acquireLease({ hostId, osMajorVersion: 15, capabilities: [] }).catch(() => null);
    if (acquired?.status !== 200) {
      tally.failures++;
      await sleep(500);
      continue;
    }
    const lease = acquired.body as Lease;
    const held: Held = { lease, liveUntil: sentAt + lease.ttlMs, lost: new AbortController(), waiting: false };
    if (first) ready();
    first = false;
    void keep(connection, held, tally);
    await poll(connection, held, seen, tally);
    held.lost.abort();
    tally.leaseLosses++;
  }
}

async function keep(connection: Connection, held: Held, tally: Tally): Promise<void> {
  const margin = held.lease.ttlMs / 3;
  while (!held.lost.signal.aborted) {
    // Idle on a poll the server keeps the lease for: its answer counts (the host settles at once, so holds nothing).
    const idle = held.lease.keptWhilePolling === true && held.waiting;
    await sleep(idle ? margin : Math.max(0, held.liveUntil - margin - now()), undefined, { signal: held.lost.signal }).catch(() => undefined);
    if (held.lost.signal.aborted || (held.lease.keptWhilePolling === true && held.waiting) || held.liveUntil - now() > margin) continue;
    tally.renewals++;
    const sentAt = now();
    const answer = await connection.client.renewLease(held.lease.epoch).catch(() => null);
    if (answer?.status === 200) {
      tally.upkeep.push(now() - sentAt);
      renewedAt(held, tally, sentAt);
    } else {
      if (answer === null || !isLeaseLost(answer)) tally.failures++;
      held.lost.abort();
    }
  }
}

async function poll(connection: Connection, held: Held, seen: Set<string>, tally: Tally): Promise<void> {
  const { epoch, ttlMs } = held.lease;
  const waitMs = held.lease.keptWhilePolling === true ? DISPATCH_WAIT_MS : Math.min(DISPATCH_WAIT_MS, Math.floor(ttlMs / 2));
  while (!held.lost.signal.aborted) {
    const sentAt = now();
    const { client, moved } = connection;
    held.waiting = true;
    const answer = await client.dispatch(epoch, 20, [], waitMs, AbortSignal.any([held.lost.signal, moved.signal])).catch(() => null);
    held.waiting = false;
    if (held.lost.signal.aborted) return;
    // Moved to another server: the same lease, polled there.
    if (moved.signal.aborted) continue;
    if (answer === null || answer.status !== 200) {
      if (answer !== null && isLeaseLost(answer)) return;
      tally.failures++;
      await sleep(500);
      continue;
    }
    const { commands, renewedAfterMs } = answer.body;
    if (renewedAfterMs !== undefined) renewedAt(held, tally, sentAt + renewedAfterMs);
    if (commands.length === 0) {
      tally.upkeep.push(Math.max(0, now() - sentAt - waitMs));
      continue;
    }
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

/** An account's SSE stream, resumed from `lastId` when it moves to another server. */
interface Stream { request: ClientRequest | null; lastId: string }

/** Opens the account's SSE stream on `url`: notes when each command.settled arrives. */
function stream(url: string, account: Account, state: Stream, tally: Tally, open: () => void): void {
  const headers: Record<string, string> = { authorization: `Bearer ${account.apiKey}`, accept: 'text/event-stream' };
  if (state.lastId !== '') headers['last-event-id'] = state.lastId;
  const req = request(`${url}/v1/events`, { agent: false, headers }, (res) => {
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
        const id = /^id: (\d+)$/m.exec(block);
        if (id) state.lastId = id[1]!;
        if (!block.includes('event: command.settled')) continue;
        const data = block.split('\n').find((line) => line.startsWith('data: '));
        if (data) tally.settled.set((JSON.parse(data.slice(6)) as { data: { commandId: string } }).data.commandId, at);
      }
    });
  });
  req.on('error', () => {
    if (state.request === req) tally.failures++;
  });
  req.end();
  state.request = req;
}

export function runWorker(): void {
  const tally = new Tally();
  let readiness: Promise<unknown> = Promise.resolve();
  const accounts: Array<{ account: Account; connection: Connection; stream: Stream }> = [];
  let without: WorkerTask['without'];
  process.on('message', (message: WorkerTask | WorkerMove | { ask: 'ready' | 'measure' | 'report' }) => {
    const report = (): WorkerReport => ({ settled: [...tally.settled], upkeep: tally.upkeep, leastLeft: tally.leastLeft, renewals: tally.renewals, leaseLosses: tally.leaseLosses, failures: tally.failures });
    if ('ask' in message) {
      if (message.ask === 'measure') tally.reset();
      if (message.ask === 'ready') void readiness.then(() => process.send!(report()));
      else process.send!(report());
      return;
    }
    if ('move' in message) {
      const moving = accounts.filter((_, i) => i % message.every === message.every - 1);
      readiness = Promise.all(moving.map(({ account, connection, stream: state }) => {
        if (without !== 'hosts') moveHost(connection, message.move);
        if (without === 'streams') return null;
        const old = state.request;
        state.request = null;
        old?.destroy();
        return new Promise<void>((resolve) => stream(message.move, account, state, tally, resolve));
      }));
      void readiness.then(() => process.send!(report()));
      return;
    }
    const { urls, offset } = message;
    without = message.without;
    readiness = (async () => {
      // A hundred at a time, as hosts come up over a fleet's start rather than in one instant.
      for (let start = 0; start < message.accounts.length; start += 100) {
        await Promise.all(message.accounts.slice(start, start + 100).map((account, i) => {
          const url = urls[(offset + start + i) % urls.length]!;
          const entry = { account, connection: { client: new ConnectorClient(url, account.connectorKey), moved: new AbortController(), key: account.connectorKey }, stream: { request: null, lastId: '' } };
          accounts.push(entry);
          return Promise.all([
            without === 'hosts' ? null : new Promise<void>((resolve) => void host(entry.connection, `scale-${offset + start + i}`, tally, resolve)),
            without === 'streams' ? null : new Promise<void>((resolve) => stream(url, account, entry.stream, tally, resolve)),
          ]);
        }));
      }
    })();
  });
}
