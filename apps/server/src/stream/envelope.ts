import type { StreamEvent } from '@switchboard/contracts';
import type { EventRecord } from '../store/types.ts';

type BodyOf<E> = E extends { type: infer T; data: infer D } ? { type: T; data: D } : never;

/** A stream event's type and data, as specs/asyncapi/stream.yaml declares them: what the domain writes to the log. */
export type EventBody = BodyOf<StreamEvent>;

/** The data of the stream event of `type`. */
export type EventData<T extends EventBody['type']> = Extract<EventBody, { type: T }>['data'];

/**
 * The stream's envelope for a stored event. Every event in the log was written from an
 * EventBody (commands/settle.ts, stream/platform-events.ts), so it reads back as one; a
 * command.settled written before errorMessage and errorPath existed reads them as null.
 */
export function toEnvelope(event: EventRecord): StreamEvent {
  const legacy = event.type === 'command.settled' && typeof event.data === 'object' && event.data !== null && !('errorMessage' in event.data);
  const data = legacy ? { ...(event.data as object), errorMessage: null, errorPath: null } : event.data;
  return { id: String(event.id), type: event.type, time: new Date(event.time).toISOString(), account: event.accountId, data } as StreamEvent;
}
