import type { Services } from '../services.ts';
import type { EventRecord, NewEvent } from '../store/types.ts';

export interface StreamEnvelope {
  id: string;
  type: string;
  time: string;
  account: string;
  data: unknown;
}

/** The stream's envelope for a stored event (specs/asyncapi/stream.yaml). */
export function toEnvelope(event: EventRecord): StreamEnvelope {
  return { id: String(event.id), type: event.type, time: new Date(event.time).toISOString(), account: event.accountId, data: event.data };
}

/** Appends to the account's log durably, then wakes its open streams. */
export async function appendEvents(services: Services, accountId: string, events: NewEvent[]): Promise<EventRecord[]> {
  const records = await services.store.appendEvents(accountId, events);
  services.hub.notify(accountId);
  return records;
}
