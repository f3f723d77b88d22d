import type { DispatchedCommand, PlatformEvent } from '@switchboard/contracts';
import type { Logger } from 'pino';
import type { FeedEvent, ReportableEvent } from '../driver/types.ts';
import { errorOf, isLeaseLost, type Answer, type ConnectorClient } from '@switchboard/connector-client';
import type { Execution } from './executor.ts';
import { retrying } from './retry.ts';
import { withoutNul } from './text.ts';

export type ReportResult = 'recorded' | 'lease_lost' | 'rejected';
/** The server's answer to a settlement. */
export type SettlementAnswer = 'settled' | 'lease_lost' | 'already_settled' | 'not_dispatched' | 'rejected';
/** A batch item's result; `alone` when the server refused the item as it was sent (it is tried again on its own). */
export type BatchItemResult = SettlementAnswer | 'alone';

/** The most items a settlement batch takes, and the most platform events one item carries (specs/openapi/connector.yaml). */
export const MAX_BATCH_ITEMS = 100;
export const MAX_ITEM_EVENTS = 500;

const MAX_BATCH = 500;
const MAX_DETAIL = 2_000;
/** What the protocol takes of a failure's message and path (the server keeps 1,024 characters of each). */
const MAX_ERROR = 8_192;

/**
 * Why a settlement ended as it did, as the protocol carries it: a failure's reason is the
 * client's errorMessage (with its errorPath); a success's note is a detail for the server's log.
 */
function why(execution: Execution): { errorMessage?: string; errorPath?: string; detail?: string } {
  if (execution.status === 'succeeded') return execution.detail === undefined ? {} : { detail: execution.detail.slice(0, MAX_DETAIL) };
  return {
    ...(execution.detail === undefined ? {} : { errorMessage: execution.detail.slice(0, MAX_ERROR) }),
    // A path cut short would point elsewhere; one past the protocol's bound (never seen) goes unsaid.
    ...(execution.errorPath === undefined || execution.errorPath.length > MAX_ERROR ? {} : { errorPath: execution.errorPath }),
  };
}

/**
 * Tells the server what happened: platform events, then settlements, each under the epoch of
 * the lease it happened under. Requests are retried while the server is unreachable; a
 * `lease_lost` answer is final, because the server fences every epoch but the live one.
 */
export class Reporter {
  private readonly client: ConnectorClient;
  private readonly log: Logger;

  constructor(client: ConnectorClient, log: Logger) {
    this.client = client;
    this.log = log;
  }

  private retry<T>(what: string, until: AbortSignal, request: () => Promise<Answer<T>>): Promise<Answer<T>> {
    return retrying(request, {
      until,
      onRetry: (error, attempt) => this.log.warn({ err: error, attempt }, `${what} failed; retrying`),
    });
  }

  /** Reports events in order, in batches the protocol allows; retried until `until` aborts (the lease ended). */
  async events(epoch: number, events: readonly ReportableEvent[], until: AbortSignal): Promise<ReportResult> {
    for (let i = 0; i < events.length; i += MAX_BATCH) {
      const batch = withoutNul(events.slice(i, i + MAX_BATCH));
      const answer = await this.retry('platform events report', until, () => this.client.reportPlatformEvents(epoch, batch as PlatformEvent[]));
      if (answer.status === 200) continue;
      if (isLeaseLost(answer)) return 'lease_lost';
      this.log.error({ epoch, status: answer.status, error: errorOf(answer), events: batch.length }, 'platform events refused');
      return 'rejected';
    }
    return 'recorded';
  }

  /** Uploads each inbound attachment's bytes, then reports the events that reference them. */
  async feed(epoch: number, events: readonly FeedEvent[], until: AbortSignal): Promise<ReportResult> {
    const reportable: ReportableEvent[] = [];
    for (const event of events) {
      if (event.type !== 'message.received') {
        reportable.push(event);
        continue;
      }
      for (const a of event.attachments) {
        const answer = await this.retry('attachment upload', until, () => this.client.uploadAttachment(epoch, a.attachmentId, withoutNul(a.fileName), a.mimeType, a.bytes));
        if (isLeaseLost(answer)) return 'lease_lost';
        if (answer.status !== 201) {
          this.log.error({ epoch, attachmentId: a.attachmentId, status: answer.status, error: errorOf(answer) }, 'attachment refused');
          return 'rejected';
        }
      }
      reportable.push({
        ...event,
        attachments: event.attachments.map((a) => ({ attachmentId: a.attachmentId, fileName: a.fileName, mimeType: a.mimeType, byteSize: a.bytes.byteLength })),
      });
    }
    return this.events(epoch, reportable, until);
  }

  /**
   * Settles several commands of one epoch in one request, each with its platform events; one
   * result per item, in order. `unsupported` when the server predates the batch (404), `refused`
   * when it refused the whole request: either way each command goes on its own.
   */
  async settleBatch(epoch: number, items: ReadonlyArray<{ command: DispatchedCommand; execution: Execution }>, until: AbortSignal): Promise<BatchItemResult[] | 'unsupported' | 'refused'> {
    const settlements = withoutNul(items.map(({ command, execution }) => ({
      commandId: command.commandId,
      status: execution.status,
      errorCode: execution.errorCode,
      ...why(execution),
      ...(execution.events.length === 0 ? {} : { events: execution.events as PlatformEvent[] }),
    })));
    const answer = await this.retry('settlement batch', until, () => this.client.settleBatch(epoch, settlements));
    if (answer.status === 404) return 'unsupported';
    if (answer.status !== 200 || answer.body.results.length !== items.length) {
      this.log.error({ epoch, status: answer.status, error: errorOf(answer), settlements: items.length }, 'settlement batch refused');
      return 'refused';
    }
    return answer.body.results.map((r): BatchItemResult => {
      if (r.result === 'settled' || r.result === 'lease_lost' || r.result === 'already_settled' || r.result === 'not_dispatched') return r.result;
      this.log.error({ epoch, commandId: r.commandId, error: r.result, message: r.message }, 'settlement refused');
      return r.result === 'invalid_request' ? 'alone' : 'rejected';
    });
  }

  async settle(epoch: number, command: DispatchedCommand, execution: Execution, until: AbortSignal): Promise<SettlementAnswer> {
    const answer = await this.retry('settlement', until, () =>
      this.client.settle({ epoch, commandId: command.commandId, status: execution.status, errorCode: execution.errorCode, ...withoutNul(why(execution)) }),
    );
    if (answer.status === 200) return 'settled';
    const error = errorOf(answer);
    if (answer.status === 409 && error.error === 'lease_lost') return 'lease_lost';
    if (answer.status === 409 && error.error === 'already_settled') return 'already_settled';
    if (answer.status === 409 && error.error === 'not_dispatched') return 'not_dispatched';
    this.log.error({ epoch, commandId: command.commandId, status: answer.status, error }, 'settlement refused');
    return 'rejected';
  }
}
