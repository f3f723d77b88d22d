import type { CommandRecord, NewEvent, SettleResult, Settlement } from '../types.ts';

/** A settlement the store refuses, or repeats, without writing anything. */
export type SettleRefusal = Exclude<SettleResult, { outcome: 'settled' }>;

/**
 * Whether a settlement may go on to record its platform events (`proceed`), given the command as
 * stored (null: none for this account) and whether its epoch is the live lease's at its time.
 */
export function decideSettlement(current: CommandRecord | null, s: Pick<Settlement, 'epoch' | 'status' | 'errorCode'>, live: boolean): SettleRefusal | 'proceed' {
  if (!current) return { outcome: 'not_found' };
  const settledHere = current.status !== 'queued' && current.dispatchEpoch === s.epoch;
  // The epoch that settled it repeats itself (a retry after a lost response), live or not.
  if (settledHere && current.status === s.status && current.errorCode === s.errorCode) return { outcome: 'repeated', command: current };
  // Fencing: only the live lease's epoch settles, and only what was dispatched to it.
  if (!live) return { outcome: 'lease_lost' };
  // A different outcome from the epoch that settled it records nothing, its events included.
  if (settledHere) return { outcome: 'conflict', command: current };
  return 'proceed';
}

/**
 * What a proceeding settlement writes once its platform events are recorded (`current` read
 * after them: they may have given it its conversation): the settled command and its
 * command.settled event. A command settled under another epoch, or not dispatched to this one,
 * is refused, its events kept: they are what the platform reported to the live lease.
 */
export function settledCommand(current: CommandRecord, s: Settlement): SettleRefusal | { command: CommandRecord; event: NewEvent } {
  if (current.status !== 'queued') return { outcome: 'conflict', command: current };
  if (current.dispatchEpoch !== s.epoch) return { outcome: 'not_dispatched' };
  const command: CommandRecord = { ...current, status: s.status, errorCode: s.errorCode, errorMessage: s.errorMessage, errorPath: s.errorPath, settledAt: s.at };
  return { command, event: { type: 'command.settled', time: s.at, data: s.eventData(command) } };
}
