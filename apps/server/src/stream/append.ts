import type { EventRecord } from '../store/types.ts';

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
