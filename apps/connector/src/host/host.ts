import { connectorSchemas, type Capability, type DispatchedCommand, type Lease } from '@switchboard/contracts';
import type { Logger } from 'pino';
import type { Driver, FeedEvent, FeedSubscription } from '../driver/types.ts';
import { errorOf, isLeaseLost, NetworkError, type ConnectorClient } from '@switchboard/connector-client';
import { Executor, TransferFetchRefused, type Execution } from './executor.ts';
import { Lanes } from './lanes.ts';
import { LeaseKeeper, LeaseTakenOver } from './lease.ts';
import { MAX_BATCH_ITEMS, MAX_ITEM_EVENTS, Reporter, type SettlementAnswer } from './report.ts';
import { backoffDelay } from './retry.ts';
import { sleep } from './sleep.ts';

export interface HostOptions {
  client: ConnectorClient;
  log: Logger;
  hostId: string;
  osMajorVersion: number;
  capabilities: Capability[];
  /** Opens the platform driver once the first lease names the account. */
  driverFor: (accountId: string) => Driver;
  dispatchWaitMs: number;
  maxInFlight: number;
  shutdownGraceMs: number;
}

/** One lease epoch: its commands and its feed reports carry the epoch, and end with it. */
interface EpochSession {
  lease: Lease;
  /** Aborts when the lease ends. */
  ended: AbortSignal;
  /** Aborts the dispatch long poll: on lease end and on shutdown. */
  polling: AbortController;
  feed: FeedSubscription | null;
  /**
   * Commands received under this epoch and not yet settled. Each dispatch poll lists them, so the
   * server hands out again whatever never arrived; one that arrives twice runs once.
   */
  holding: Set<string>;
  /** A dispatch poll sent holding nothing is out: the server keeps the lease while it waits. */
  pollKeepsLease: boolean;
}

/** One dispatched command on its way through the stages. */
interface CommandJob {
  session: EpochSession;
  command: DispatchedCommand;
  log: Logger;
  started: number;
  /** Set by the execute stage; null when there is nothing (more) to report or settle. */
  execution: Execution | null;
}

/** The most a dispatch poll lists in `holding` (specs/openapi/connector.yaml). */
const MAX_HOLDING = 1_000;

/** Commands for one conversation run in dispatch order; commands with nothing in common run side by side. */
function laneOf(command: DispatchedCommand): string {
  const { target } = command;
  if (target.kind === 'conversation') return `conversation:${target.externalId}`;
  if (target.kind === 'recipient') return `recipient:${target.recipientExternalId}`;
  return `command:${command.commandId}`;
}

/**
 * A connector host: holds the account's lease, long-polls its commands, executes them through
 * the driver, reports what the platform showed and settles each command under the epoch it was
 * dispatched under. A host that lost its lease stops taking work; what it was running finishes,
 * and the server refuses its settlements (409 `lease_lost`), so the next holder settles them.
 */
export class ConnectorHost {
  private readonly options: HostOptions;
  private readonly log: Logger;
  private readonly keeper: LeaseKeeper;
  private readonly reporter: Reporter;
  private readonly lanes = new Lanes<CommandJob>();
  private readonly sessions = new Set<EpochSession>();
  private driver: Driver | null = null;
  /** False once the server answered that it takes no settlement batches (older than them). */
  private batches = true;
  private executor: Executor | null = null;
  private stopping = false;

  constructor(options: HostOptions) {
    this.options = options;
    this.log = options.log;
    this.keeper = new LeaseKeeper({
      client: options.client,
      log: options.log,
      request: { hostId: options.hostId, osMajorVersion: options.osMajorVersion, capabilities: options.capabilities },
      waitingOnPoll: (epoch) => [...this.sessions].some((s) => s.lease.epoch === epoch && s.pollKeepsLease),
    });
    this.reporter = new Reporter(options.client, options.log);
  }

  /**
   * Runs until stop(); rejects if the server refuses this host's lease request outright, or when
   * another process with this host id takes the lease over (LeaseTakenOver).
   */
  async run(): Promise<void> {
    try {
      await this.keeper.run((lease, ended) => this.begin(lease, ended));
    } catch (error) {
      // Shutting down (draining) and the process that replaces this one took the lease over: a restart, not a failure.
      if (!(this.stopping && error instanceof LeaseTakenOver)) throw error;
      this.log.info({ epoch: error.epoch }, 'lease taken over by the process that replaces this one');
    }
  }

  /** Takes no more work, lets running commands settle (up to the grace period), then releases the lease. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const session of this.sessions) session.polling.abort();
    const drained = await Promise.race([this.lanes.idle().then(() => true), sleep(this.options.shutdownGraceMs).then(() => false)]);
    if (!drained) this.log.warn({ outstanding: this.lanes.outstanding }, 'commands still running at shutdown; the next holder settles them');
    await Promise.all([...this.sessions].map((s) => s.feed?.stop()));
    await this.keeper.stop();
    this.options.client.close();
    await this.driver?.close();
    this.log.info('host stopped');
  }

  /** A new lease: poll its commands and report the platform's feed under its epoch until it ends. */
  private begin(lease: Lease, ended: AbortSignal): void {
    // Shutting down: the keeper releases this lease without it doing any work.
    if (this.stopping) return;
    if (!this.driver) {
      this.driver = this.options.driverFor(lease.accountId);
      const { client } = this.options;
      this.executor = new Executor(this.driver, this.options.capabilities, (transferId, command, signal) => client.fetchTransfer(transferId, command, signal));
    }
    const session: EpochSession = { lease, ended, polling: new AbortController(), feed: null, holding: new Set(), pollKeepsLease: false };
    this.sessions.add(session);
    session.feed = this.driver.subscribe((events) => this.reportFeed(session, events));
    ended.addEventListener('abort', () => {
      session.polling.abort();
      void session.feed?.stop();
      this.sessions.delete(session);
    }, { once: true });
    void this.poll(session);
  }

  private async poll(session: EpochSession): Promise<void> {
    const { client, maxInFlight, dispatchWaitMs } = this.options;
    const { epoch } = session.lease;
    const signal = session.polling.signal;
    // Each poll renews the lease. A server without keptWhilePolling renews only when a poll reads
    // the queue: answered within half the TTL, the next poll renews it in time.
    const waitMs = session.lease.keptWhilePolling === true ? dispatchWaitMs : Math.min(dispatchWaitMs, Math.floor(session.lease.ttlMs / 2));
    for (let failures = 0; !signal.aborted;) {
      await this.lanes.below(maxInFlight);
      if (signal.aborted) break;
      let answer;
      const sentAt = this.keeper.now();
      // A poll holding commands is not kept by the server: the keeper counts the lease meanwhile.
      session.pollKeepsLease = session.lease.keptWhilePolling === true && session.holding.size === 0;
      try {
        answer = await client.dispatch(epoch, maxInFlight - this.lanes.outstanding, [...session.holding].slice(-MAX_HOLDING), waitMs, signal);
      } catch (error) {
        if (signal.aborted) break;
        this.log.warn({ err: error, epoch }, 'dispatch poll failed; retrying');
        session.pollKeepsLease = false;
        await sleep(backoffDelay(failures++, { initialMs: 50, maxMs: 2_000 }), signal);
        continue;
      } finally {
        session.pollKeepsLease = false;
      }
      if (isLeaseLost(answer)) {
        // From a server that keeps leases, no holder named means none is live: a loss, not a takeover.
        this.keeper.markLost(epoch, session.lease.keptWhilePolling === true ? (errorOf(answer).holderHostId ?? null) : undefined);
        break;
      }
      if (answer.status !== 200) {
        this.log.error({ epoch, status: answer.status, error: errorOf(answer) }, 'dispatch poll refused');
        await sleep(backoffDelay(failures++, { initialMs: 50, maxMs: 2_000 }), signal);
        continue;
      }
      failures = 0;
      // A server older than poll renewals sends no renewedAfterMs: the keeper renews on its own.
      if (typeof answer.body.renewedAfterMs === 'number') this.keeper.renewedByPoll(epoch, sentAt, answer.body.renewedAfterMs);
      // An answer that came too late (a stalled network, a paused process): the lease may have
      // ended at the server and its commands gone to the next holder, so none of them runs here.
      if (answer.body.commands.length > 0 && !this.keeper.liveNow(epoch)) {
        this.log.warn({ epoch, commands: answer.body.commands.length }, 'dispatch answer arrived after the lease would have ended; its commands are left to the next holder');
        this.keeper.markLost(epoch);
        break;
      }
      const accepted = answer.body.commands.filter((raw) => this.accept(session, raw)).length;
      // Only commands it already holds (past what a poll can list): wait, or this would be a busy loop.
      if (answer.body.commands.length > 0 && accepted === 0) await sleep(1_000, signal);
    }
  }

  /** Starts a dispatched command; false when it is held already or not understood. */
  private accept(session: EpochSession, raw: unknown): boolean {
    const parsed = connectorSchemas.zDispatchedCommand.safeParse(raw);
    if (!parsed.success) {
      // The server only dispatches what it stored; this is a protocol mismatch, worth a loud log.
      this.log.error({ epoch: session.lease.epoch, command: raw, issues: parsed.error.issues }, 'dispatched command not understood');
      // Held, or every poll of this epoch would hand it out again.
      const id = (raw as { commandId?: unknown } | null)?.commandId;
      if (typeof id === 'string') session.holding.add(id);
      return false;
    }
    const command = parsed.data;
    if (session.holding.has(command.commandId)) return false;
    session.holding.add(command.commandId);
    const log = this.log.child({ commandId: command.commandId, type: command.type, routingPath: command.routingPath, logicalActionId: command.logicalActionId, epoch: session.lease.epoch });
    const job: CommandJob = { session, command, log, started: performance.now(), execution: null };
    this.lanes.run(laneOf(command), job, [
      (job) => this.execute(job),
      { batch: (jobs) => this.finish(jobs), max: MAX_BATCH_ITEMS },
    ]);
    return true;
  }

  /** A command whose report or settlement failed while the lease lives: the next poll hands it out again. */
  private release(job: CommandJob): void {
    if (!job.session.ended.aborted) job.session.holding.delete(job.command.commandId);
  }

  /** Stage 1: on the platform, in the conversation's dispatch order. */
  private async execute(job: CommandJob): Promise<void> {
    const { session, command, log } = job;
    if (session.ended.aborted) {
      log.info('lease ended before the command started; the next holder executes it');
      return;
    }
    log.info('command executing');
    for (let attempt = 0; job.execution === null; attempt++) {
      try {
        job.execution = await this.executor!.execute(command, session.ended);
      } catch (error) {
        if (error instanceof TransferFetchRefused && isLeaseLost(error.answer)) {
          // The server fenced this epoch: the next holder executes the command.
          this.keeper.markLost(session.lease.epoch);
          log.warn({ error: 'lease_lost' }, 'transfer fetch refused; the next holder executes the command');
          return;
        }
        if (session.ended.aborted) {
          // The lease's end also stops a media fetch under way: the next holder executes the command.
          log.warn({ err: error }, 'lease ended during execution; the next holder executes the command');
          return;
        }
        // The platform keeps each logical action once, so trying again cannot execute it twice.
        log.error({ err: error, attempt }, 'command execution failed; retrying');
        await sleep(backoffDelay(attempt, { initialMs: 100, maxMs: 5_000 }), session.ended);
      }
    }
    if (job.execution.replayed) log.info({ status: job.execution.status, errorCode: job.execution.errorCode }, 'command already executed on the platform');
  }

  /** The one-at-a-time report: what the platform showed, before the settlement, so the stream announces it first. */
  private async report(job: CommandJob): Promise<void> {
    const { session, log, execution } = job;
    if (!execution || execution.events.length === 0) return;
    const { epoch } = session.lease;
    try {
      const reported = await this.reporter.events(epoch, execution.events, session.ended);
      if (reported === 'lease_lost') {
        this.keeper.markLost(epoch);
        job.execution = null;
        log.warn({ error: 'lease_lost' }, 'settlement abandoned');
      }
    } catch (error) {
      job.execution = null;
      this.release(job);
      log.error({ err: error }, 'platform events not delivered; they are reported again with the command');
    }
  }

  /**
   * Stage 2: what the platform showed and the settlement, under the epoch the command was
   * dispatched under, for every job of the conversation ready together: in one request while
   * the server takes batches, else each job's report, then its settlement.
   */
  private async finish(jobs: CommandJob[]): Promise<void> {
    const ready = jobs.filter((job) => job.execution !== null);
    for (let i = 0; i < ready.length;) {
      // One epoch per request: the jobs of one session, in order.
      let end = i + 1;
      while (end < ready.length && ready[end]!.session === ready[i]!.session) end++;
      await this.finishTogether(ready.slice(i, end));
      i = end;
    }
  }

  private async finishTogether(jobs: CommandJob[]): Promise<void> {
    const alone = async (job: CommandJob) => {
      await this.report(job);
      await this.settle(job);
    };
    const { session } = jobs[0]!;
    if (!this.batches || jobs.some((job) => job.execution!.events.length > MAX_ITEM_EVENTS)) {
      for (const job of jobs) await alone(job);
      return;
    }
    let results;
    try {
      results = await this.reporter.settleBatch(session.lease.epoch, jobs.map((job) => ({ command: job.command, execution: job.execution! })), session.ended);
    } catch (error) {
      for (const job of jobs) {
        this.release(job);
        job.log.error({ err: error }, error instanceof NetworkError ? 'settlement not delivered; the server is unreachable' : 'settlement failed');
      }
      return;
    }
    if (results === 'unsupported') {
      this.batches = false;
      this.log.info('the server takes no settlement batches; reporting and settling one command at a time');
    }
    for (const [i, job] of jobs.entries()) {
      const result = typeof results === 'string' ? 'alone' : results[i]!;
      if (result === 'alone') await alone(job);
      else this.applySettlementAnswer(job, result);
    }
  }

  /** The one-at-a-time settlement, under the epoch the command was dispatched under (a server without batches). */
  private async settle(job: CommandJob): Promise<void> {
    const { session, command, log, execution } = job;
    if (!execution) return;
    const { epoch } = session.lease;
    try {
      this.applySettlementAnswer(job, await this.reporter.settle(epoch, command, execution, session.ended));
    } catch (error) {
      // Unsettled, the command is handed out again (to this epoch, or the next holder), finds the action on the platform and settles it.
      this.release(job);
      log.error({ err: error }, error instanceof NetworkError ? 'settlement not delivered; the server is unreachable' : 'settlement failed');
    }
  }

  /** Acts on the server's answer to a settlement: the job is done, or stays held when it was refused. */
  private applySettlementAnswer(job: CommandJob, answer: SettlementAnswer): void {
    const { session, log, execution } = job;
    const ms = Math.round((performance.now() - job.started) * 10) / 10;
    // Only a refused settlement stays held: handing it out again would only be refused again.
    if (answer !== 'rejected') session.holding.delete(job.command.commandId);
    if (answer === 'settled') {
      log.info({ status: execution!.status, errorCode: execution!.errorCode, detail: execution!.detail, errorPath: execution!.errorPath, ms }, 'command settled');
    } else if (answer !== 'rejected') {
      if (answer === 'lease_lost') this.keeper.markLost(session.lease.epoch);
      log.warn({ error: answer, status: execution!.status, errorCode: execution!.errorCode }, 'settlement refused');
    }
  }

  private async reportFeed(session: EpochSession, events: FeedEvent[]): Promise<void> {
    const { epoch } = session.lease;
    if (session.ended.aborted) throw new Error('the lease ended; the next holder reports these');
    const reported = await this.reporter.feed(epoch, events, session.ended);
    if (reported === 'lease_lost') {
      this.keeper.markLost(epoch);
      throw new Error('the lease was lost; the next holder reports these');
    }
    // A batch the server refused would be refused again: it was logged, and the feed moves on.
    if (reported === 'recorded') this.log.debug({ epoch, events: events.length }, 'platform events reported');
  }
}
