import type { SettlementCode } from '@switchboard/contracts';
import { linkedController, type Clock } from './clock.ts';
import { SettlementTimeoutError } from './errors.ts';
import type { EventsOptions } from './events.ts';
import type { Command, EventPage, RequestOptions, StreamItem } from './types.ts';

export interface SettledOptions {
  /** Give up after this long with SettlementTimeoutError. Default 60 s. */
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
  /**
   * A stream cursor from before the command was sent, or `'now'` (the command is read once,
   * then its event awaited from the stream's head). With it, the command event is awaited on
   * the stream; without it, GET /v1/commands/{id} is polled (100 ms, doubling to 2 s). Reads
   * are not rate limited.
   */
  after?: string | undefined;
}

/** What awaiting a settlement reads of the client: the command, or the stream. */
export interface SettlementReader {
  getCommand(commandId: string, options: RequestOptions): Promise<Command>;
  eventPage(query: { after?: string | undefined; limit?: number | undefined }, options: RequestOptions): Promise<EventPage>;
  events(options: EventsOptions): AsyncIterable<StreamItem>;
}

/**
 * How a command settled: `succeeded`, or `failed` with its settlement code (branch on it) and,
 * for people, why (`errorMessage`) and where in the request body (`errorPath`, a JSON Pointer).
 */
export type CommandOutcome =
  | { commandId: string; status: 'succeeded'; errorCode: null; errorMessage: null; errorPath: null }
  | { commandId: string; status: 'failed'; errorCode: SettlementCode; errorMessage: string | null; errorPath: string | null };

/** What a command read and a command event both say of a settlement (a server from before errorMessage omits it). */
type Settled = { status: 'succeeded' | 'failed'; errorCode: SettlementCode | null; errorMessage?: string | null; errorPath?: string | null };

// The server sends errorCode, errorMessage and errorPath null exactly on success.
function outcome(commandId: string, { status, errorCode, errorMessage = null, errorPath = null }: Settled): CommandOutcome {
  return { commandId, status, errorCode, errorMessage, errorPath } as CommandOutcome;
}

async function poll(client: SettlementReader, clock: Clock, commandId: string, signal: AbortSignal): Promise<CommandOutcome> {
  for (let interval = 100; ; interval = Math.min(2_000, interval * 2)) {
    const command = await client.getCommand(commandId, { signal });
    if (command.status !== 'queued' && command.status !== 'held') return outcome(commandId, { ...command, status: command.status });
    await clock.sleep(interval, signal);
  }
}

async function watch(client: SettlementReader, commandId: string, after: string, signal: AbortSignal): Promise<CommandOutcome> {
  if (after === 'now') {
    // The head first, then the command: a settlement after the read has an event past the head.
    after = (await client.eventPage({ after: 'now', limit: 1 }, { signal })).nextAfter;
    const command = await client.getCommand(commandId, { signal });
    if (command.status !== 'queued' && command.status !== 'held') return outcome(commandId, { ...command, status: command.status });
  }
  for await (const item of client.events({ after, signal })) {
    if (item.type === 'command.settled' && item.data.commandId === commandId) {
      return outcome(commandId, item.data);
    }
  }
  // The iteration only ends when the signal aborts.
  throw signal.reason;
}

/** Awaits the command event of `commandId`; see SwitchboardClient.settled. */
export async function awaitSettlement(client: SettlementReader, clock: Clock, commandId: string, options: SettledOptions = {}): Promise<CommandOutcome> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const stop = linkedController(options.signal);
  try {
    return await Promise.race([
      clock.sleep(timeoutMs, stop.signal).then(() => {
        throw new SettlementTimeoutError(commandId, 'command.settled', timeoutMs);
      }),
      options.after === undefined ? poll(client, clock, commandId, stop.signal) : watch(client, commandId, options.after, stop.signal),
    ]);
  } finally {
    stop.abort();
  }
}
