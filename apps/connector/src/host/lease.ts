import type { Lease, LeaseRequest } from '@switchboard/contracts';
import type { Logger } from 'pino';
import { errorOf, NetworkError, type ConnectorClient } from '@switchboard/connector-client';
import { backoffDelay } from './retry.ts';
import { sleep } from './sleep.ts';

/** The server refused the lease request itself (bad key, bad declaration): retrying cannot help. */
export class LeaseRefused extends Error {
  override readonly name = 'LeaseRefused';
}

/**
 * Another process with this host's id took the lease over while it was live here. The server
 * lets a host id take its own live lease over at once, so that a restarted host does not wait out
 * the lease of the process it replaces; two live processes with one id would therefore take the
 * lease from each other without end. The newer process is the host; this one stops.
 */
export class LeaseTakenOver extends Error {
  override readonly name = 'LeaseTakenOver';
  /** The epoch this process held. */
  readonly epoch: number;

  constructor(hostId: string, epoch: number) {
    super(
      `another connector host with host id "${hostId}" took this account's lease over while this one held it (epoch ${epoch}): ` +
        'two hosts with one id would take the lease from each other without end, so this one stops. Give each host its own SWITCHBOARD_HOST_ID.',
    );
    this.epoch = epoch;
  }
}

export interface LeaseKeeperOptions {
  client: ConnectorClient;
  request: LeaseRequest;
  log: Logger;
  now?: () => number;
  random?: () => number;
  /** The longest wait between two attempts while another host holds the lease. */
  maxRetryMs?: number;
  /**
   * Whether a dispatch poll of `epoch`, sent holding none of its commands, is waiting. A server
   * with `keptWhilePolling` keeps the lease live meanwhile, and the host has nothing to fence, so
   * it needs no count of its own: the poll's answer gives it one.
   */
  waitingOnPoll?: (epoch: number) => boolean;
}

/** How holding a lease ended: it lapsed or was lost, it was taken over while live, or the keeper stopped. */
type HoldEnd = 'lost' | 'taken' | 'stopped';

/**
 * When to ask again while another host holds the lease: right after the holder's lease would
 * expire if it stopped renewing, but never later than the backoff allows, plus jitter so the
 * hosts waiting do not all ask in the same millisecond. `expiresAt` is the server's clock; a skew
 * only moves when we ask, never who gets the lease.
 */
export function heldRetryDelay(untilExpiryMs: number, attempt: number, maxMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, 100 * 2 ** Math.min(attempt, 20));
  return Math.round(Math.min(Math.max(untilExpiryMs, 5), ceiling) + random() * 25);
}

/**
 * Takes the account's lease and keeps it: renews every third of the TTL, notices a loss (409
 * `lease_lost`, or no successful renewal before the lease would have expired), then takes it
 * again. The server fences every epoch but the live one, so this only has to be prompt, not
 * perfect.
 *
 * One loss is not taken again: a 409 `lease_lost` while the lease is still live by this host's
 * own clock (counted from when it sent its last successful request, so never later than the
 * server's expiry, the replicas' clocks agreeing as the fence already needs). The server refuses
 * every other host id while a lease is live, so only a process with this host's id can have taken
 * it: a restart of this host, or a second process given the same SWITCHBOARD_HOST_ID by mistake.
 * Taking it back would make the other process take it back in turn, for ever (the epoch climbing
 * by the thousand), so run() rejects with LeaseTakenOver and the newer process keeps the lease. A
 * restarted host's fast takeover is unchanged: the process it replaces is gone, or stops here.
 */
export class LeaseKeeper {
  private readonly options: LeaseKeeperOptions;
  /** The keeper's clock: when a poll was sent, for `renewedByPoll`. */
  readonly now: () => number;
  private readonly random: () => number;
  private readonly stopping = new AbortController();
  /** The lease held, until when it lives at least by this host's clock, and who took it, when a lease_lost said. */
  private held: { lease: Lease; lost: AbortController; liveUntil: number; takenBy?: string | null; answered?: AbortController } | null = null;
  private running: Promise<void> | null = null;

  constructor(options: LeaseKeeperOptions) {
    this.options = options;
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
  }

  /**
   * Holds the lease until stop(). `onLease` runs for every acquisition with a signal that aborts
   * when that lease ends (lost, or released on stop). Rejects with LeaseRefused on a request the
   * server will never grant.
   */
  run(onLease: (lease: Lease, ended: AbortSignal) => void): Promise<void> {
    this.running ??= this.loop(onLease);
    return this.running;
  }

  /**
   * The server answered `lease_lost` to this epoch: give it up now rather than at the next
   * renewal. A poll's answer from a server with `keptWhilePolling` names the live lease's host
   * (`holderHostId`, null when none is live): this host's id means another process with it took
   * the lease over; undefined leaves it to this host's count.
   */
  markLost(epoch: number, holderHostId?: string | null): void {
    if (this.held?.lease.epoch !== epoch) return;
    if (holderHostId !== undefined) this.held.takenBy = holderHostId;
    this.held.lost.abort();
  }

  /**
   * A dispatch poll of `epoch`, sent at `sentAt` (by `now`), was answered: its server renewed the
   * lease `renewedAfterMs` after the poll arrived, so it lives at least that much longer than a
   * renewal sent at `sentAt` would make it (connector.yaml, "Leases and fencing").
   */
  renewedByPoll(epoch: number, sentAt: number, renewedAfterMs: number): void {
    const held = this.held;
    if (held?.lease.epoch !== epoch) return;
    held.liveUntil = Math.max(held.liveUntil, sentAt + renewedAfterMs + held.lease.ttlMs);
    // Wakes a keeper waiting out a poll that kept the lease: the count is its own again.
    held.answered?.abort();
  }

  /** Whether the lease of `epoch` is live by this host's count now. */
  liveNow(epoch: number): boolean {
    return this.held?.lease.epoch === epoch && this.now() < this.held.liveUntil;
  }

  /** Stops holding: releases a held lease (its commands go to the next holder) and ends run(). */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.running?.catch(() => undefined);
  }

  private async loop(onLease: (lease: Lease, ended: AbortSignal) => void): Promise<void> {
    const { log } = this.options;
    const stop = this.stopping.signal;
    while (!stop.aborted) {
      const acquired = await this.acquire(stop);
      if (!acquired) break;
      const { lease } = acquired;
      const ended = new AbortController();
      this.held = { lease, lost: new AbortController(), liveUntil: acquired.sentAt + lease.ttlMs };
      log.info({ accountId: lease.accountId, epoch: lease.epoch, ttlMs: lease.ttlMs, expiresAt: lease.expiresAt }, 'lease acquired');
      onLease(lease, ended.signal);
      const end = await this.hold(this.held, stop);
      this.held = null;
      ended.abort(end);
      if (end === 'stopped') {
        await this.release(lease);
        break;
      }
      if (end === 'taken') throw new LeaseTakenOver(this.options.request.hostId, lease.epoch);
      log.warn({ epoch: lease.epoch }, 'lease lost');
    }
  }

  private async acquire(stop: AbortSignal): Promise<{ lease: Lease; sentAt: number } | null> {
    const { client, request, log } = this.options;
    const maxRetryMs = this.options.maxRetryMs ?? 2_000;
    for (let attempt = 0; !stop.aborted; attempt++) {
      const sentAt = this.now();
      let answer;
      try {
        answer = await client.acquireLease(request, stop);
      } catch (error) {
        if (stop.aborted) return null;
        if (!(error instanceof NetworkError)) throw error;
        log.warn({ err: error, attempt }, 'lease request failed; retrying');
        await sleep(backoffDelay(attempt, { initialMs: 100, maxMs: maxRetryMs }, this.random), stop);
        continue;
      }
      if (answer.status === 200) return { lease: answer.body, sentAt };
      const error = errorOf(answer);
      if (answer.status === 409 && error.error === 'lease_held') {
        const untilExpiry = Date.parse(error.expiresAt ?? '') - this.now();
        log.debug({ holderHostId: error.holderHostId, expiresAt: error.expiresAt }, 'lease held elsewhere');
        await sleep(heldRetryDelay(Number.isNaN(untilExpiry) ? maxRetryMs : untilExpiry, attempt, maxRetryMs, this.random), stop);
        continue;
      }
      if (answer.status >= 500) {
        await sleep(backoffDelay(attempt, { initialMs: 100, maxMs: maxRetryMs }, this.random), stop);
        continue;
      }
      throw new LeaseRefused(`the server refused the lease: ${answer.status} ${error.error}: ${error.message}`);
    }
    return null;
  }

  /**
   * Renews until the lease is lost or the keeper stops: when it would end within a third of its
   * TTL, which a host that keeps polling never reaches (each poll renews it).
   */
  private async hold(held: NonNullable<LeaseKeeper['held']>, stop: AbortSignal): Promise<HoldEnd> {
    const { client, log } = this.options;
    const { lease } = held;
    const lost = held.lost.signal;
    const interrupted = AbortSignal.any([lost, stop]);
    const margin = lease.ttlMs / 3;
    const taken = () => (held.takenBy !== undefined ? held.takenBy === lease.hostId : this.now() < held.liveUntil);
    // Idle on a poll that keeps the lease: its answer counts for it (connector.yaml, "Leases and fencing").
    const idle = () => lease.keptWhilePolling === true && this.options.waitingOnPoll?.(lease.epoch) === true;
    let failures = 0;
    // The count ran out while a poll kept the lease, and the poll ended unanswered (a network
    // error): the server may still hold the lease for this epoch, so one renewal asks first.
    let lapsedWhileKept = false;
    for (;;) {
      if (idle()) {
        held.answered = new AbortController();
        await sleep(margin, AbortSignal.any([interrupted, held.answered.signal]));
        if (stop.aborted) return 'stopped';
        if (lost.aborted) return taken() ? 'taken' : 'lost';
        failures = 0;
        lapsedWhileKept = this.now() >= held.liveUntil;
        continue;
      }
      const wait = failures === 0 ? held.liveUntil - margin - this.now() : Math.min(lease.ttlMs / 10, 250);
      await sleep(Math.max(0, Math.min(wait, held.liveUntil - this.now())), interrupted);
      if (stop.aborted) return 'stopped';
      // markLost: dispatch, a report or a settlement was answered `lease_lost`.
      if (lost.aborted) return taken() ? 'taken' : 'lost';
      // A poll that keeps the lease went out meanwhile (the first one after the lease, say).
      if (idle()) {
        failures = 0;
        continue;
      }
      if (this.now() >= held.liveUntil && !lapsedWhileKept) return 'lost';
      // A poll renewed it meanwhile.
      if (held.liveUntil - this.now() > margin) {
        failures = 0;
        continue;
      }
      // Counted from when the request was sent: the server's expiry can only be later than this.
      const renewSentAt = this.now();
      const timeoutMs = lapsedWhileKept ? margin : held.liveUntil - renewSentAt;
      lapsedWhileKept = false;
      try {
        const answer = await client.renewLease(lease.epoch, AbortSignal.any([interrupted, AbortSignal.timeout(Math.max(1, timeoutMs))]));
        if (answer.status === 200) {
          held.liveUntil = Math.max(held.liveUntil, renewSentAt + lease.ttlMs);
          failures = 0;
          continue;
        }
        if (answer.status >= 500) {
          failures++;
          continue;
        }
        const error = errorOf(answer);
        if (answer.status !== 409) log.error({ status: answer.status, error }, 'lease renewal refused');
        else if (error.error === 'lease_lost' && !stop.aborted && this.now() < held.liveUntil) return 'taken';
        return 'lost';
      } catch (error) {
        if (stop.aborted) return 'stopped';
        failures++;
        log.warn({ err: error, epoch: lease.epoch }, 'lease renewal failed; retrying');
      }
    }
  }

  private async release(lease: Lease): Promise<void> {
    const { client, log } = this.options;
    try {
      const answer = await client.releaseLease(lease.epoch);
      if (answer.status === 204) log.info({ epoch: lease.epoch }, 'lease released');
      else log.warn({ epoch: lease.epoch, status: answer.status, error: errorOf(answer) }, 'lease already gone at release');
    } catch (error) {
      log.warn({ err: error, epoch: lease.epoch }, 'lease release failed; it expires on its own');
    }
  }
}
