import { v7 } from 'uuid';

/** Time and ids come from here so tests can control them. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A UUIDv7: time-ordered, so the store's primary-key index appends instead of splitting pages. */
export function newId(): string {
  return v7();
}
