import { SwitchboardClient, type OptInEvent, type OptInEventType, type StreamEvent } from '@switchboard/sdk';
import { waitForMatch } from '@switchboard/testkit';

/** A stream event as tests read it: the envelope of the contracts, with data open to any field of the event matched. */
export type StreamEnvelope = Omit<StreamEvent | OptInEvent, 'data'> & { data: Record<string, any> };

/** Every event type the SDK yields only when asked: poll votes, and what becomes of messages. */
const OPT_IN: readonly OptInEventType[] = ['poll.voted', 'message.delivered', 'message.read', 'message.failed', 'message.reaction', 'message.edited', 'message.unsent'];

export interface EventStream {
  /** Every event received so far, in stream order. */
  events: StreamEnvelope[];
  /** Resolves with the first event (received or still to come) that matches. */
  waitFor(predicate: (event: StreamEnvelope) => boolean, timeoutMs?: number, what?: string): Promise<StreamEnvelope>;
  /** Called with every event as it arrives. */
  onEvent(listener: (event: StreamEnvelope, receivedAt: number) => void): void;
  close(): void;
}

/** Reads the account's response stream (GET /v1/events) through the SDK and collects its events, the opt-in ones included. */
export async function openEventStream(url: string, apiKey: string, after = '0'): Promise<EventStream> {
  const abort = new AbortController();
  const events: StreamEnvelope[] = [];
  const listeners: Array<(event: StreamEnvelope, receivedAt: number) => void> = [];
  const waiters = new Set<() => void>();
  let failure: unknown;

  void (async () => {
    try {
      for await (const item of new SwitchboardClient({ baseUrl: url, apiKey }).events({ after, signal: abort.signal, include: OPT_IN })) {
        if (item.type === 'reset') continue;
        const receivedAt = performance.now();
        const event = item as StreamEnvelope;
        events.push(event);
        for (const listener of listeners) listener(event, receivedAt);
        for (const wake of [...waiters]) wake();
      }
    } catch (error) {
      failure = error;
    }
  })();

  return {
    events,
    onEvent(listener) {
      listeners.push(listener);
    },
    waitFor(predicate, timeoutMs = 20_000, what = 'a matching event') {
      const last = () => events.slice(-10).map((e) => JSON.stringify(e)).join('\n');
      return waitForMatch(() => events.find(predicate), waiters, timeoutMs, () => `no ${what} on the stream within ${timeoutMs} ms${failure ? ` (${String(failure)})` : ''}; last events:\n${last()}`);
    },
    close() {
      abort.abort();
    },
  };
}
