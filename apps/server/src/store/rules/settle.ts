import type { CommandRecord, NewEvent, SettleRefusal, SettleResult, Settlement } from '../types.ts';
import { err, ok, type Result } from '../../result.ts';

/**
 * Whether a settlement may go on to record its platform events (`proceed`), given the command as
 * stored (null: none for this account) and whether its epoch is the live lease's at its time;
 * otherwise what the store answers, having written nothing.
 */
export function decideSettlement(current: CommandRecord | null, s: Pick<Settlement, 'epoch' | 'status' | 'errorCode'>, live: boolean): SettleResult | 'proceed' {
  if (!current) return err({ reason: 'not_found' });
  const settledHere = current.status !== 'queued' && current.dispatchEpoch === s.epoch;
  // The epoch that settled it repeats itself (a retry after a lost response), live or not.
  if (settledHere && current.status === s.status && current.errorCode === s.errorCode) return ok({ command: current, event: null });
  // Fencing: only the live lease's epoch settles, and only what was dispatched to it.
  if (!live) return err({ reason: 'lease_lost' });
  // A different outcome from the epoch that settled it records nothing, its events included.
  if (settledHere) return err({ reason: 'conflict', command: current });
  return 'proceed';
}

/**
 * What a proceeding settlement writes once its platform events are recorded (`current` read
 * after them: they may have given it its conversation): the settled command and its
 * command.settled event. A command settled under another epoch, or not dispatched to this one,
 * is refused, its events kept: they are what the platform reported to the live lease.
 */
export function settledCommand(current: CommandRecord, s: Settlement): Result<{ command: CommandRecord; event: NewEvent }, SettleRefusal> {
  // A held command was never dispatched: nothing of it is the host's to settle.
  if (current.status === 'held' || current.dispatchEpoch !== s.epoch) {
    if (current.status !== 'queued' && current.status !== 'held') return err({ reason: 'conflict', command: current });
    return err({ reason: 'not_dispatched' });
  }
  if (current.status !== 'queued') return err({ reason: 'conflict', command: current });
  const command: CommandRecord = { ...current, status: s.status, errorCode: s.errorCode, errorMessage: s.errorMessage, errorPath: s.errorPath, settledAt: s.at };
  return ok({ command, event: { type: 'command.settled', time: s.at, data: s.eventData(command) } });
}
