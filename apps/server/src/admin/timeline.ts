import type { AdminComponents } from '@switchboard/contracts';
import { iso } from '../clock.ts';
import type { CommandRecord, MessageRecord, StatusChange } from '../store/types.ts';

export type TimelineEntry = AdminComponents['schemas']['TimelineEntry'];

/**
 * What the service recorded of a command, oldest first: its acceptance, its last dispatch (and
 * the host that held that epoch, `hostId`, when known), its settlement, and what the platform
 * reported of the message it sent. Steps at the same instant keep the order of a command's life.
 */
export function commandTimeline(command: CommandRecord, history: readonly StatusChange[], message: MessageRecord | null, hostId: string | null): TimelineEntry[] {
  const steps: Array<{ at: number | null; entry: TimelineEntry }> = [];
  const add = (at: number | null, entry: Omit<TimelineEntry, 'at'>) => steps.push({ at, entry: { ...entry, at: at === null ? null : iso(at) } as TimelineEntry });

  const accepted = history[0]?.at ?? command.createdAt;
  add(accepted, { kind: 'accepted', disposition: 'queued', idempotencyKey: command.idempotencyKey, routingPath: command.routingPath });
  // The policy is known while it holds; a released command keeps when, not which.
  if (command.heldAt !== null) add(command.heldAt, { kind: 'held', ...(command.heldBy ? { policy: command.heldBy } : {}) });
  if (command.releasedAt !== null) add(command.releasedAt, { kind: 'released' });
  if (command.dispatchEpoch !== null) add(command.dispatchedAt, { kind: 'dispatched', hostId, epoch: command.dispatchEpoch });
  if (message?.sentAt != null) add(message.sentAt, { kind: 'sent', messageExternalId: message.messageExternalId });
  const settled = history.find((h) => h.status === 'succeeded' || h.status === 'failed');
  const settledAt = settled?.at ?? command.settledAt;
  if (settledAt !== null) {
    const status = settled?.status ?? command.status;
    const why = status === 'failed' ? { errorCode: command.errorCode, errorMessage: command.errorMessage, errorPath: command.errorPath } : {};
    add(settledAt, { kind: 'settled', status, ...why });
  }
  if (message) {
    if (message.deliveredAt !== null) add(message.deliveredAt, { kind: 'delivered' });
    if (message.readAt !== null) add(message.readAt, { kind: 'read' });
    if (message.failedAt !== null) add(message.failedAt, { kind: 'failed', ...(message.failure ? { failure: message.failure } : {}) });
    if (message.editedAt !== null) add(message.editedAt, { kind: 'edited' });
    if (message.unsentAt !== null) add(message.unsentAt, { kind: 'unsent' });
  }
  // A dispatch of unknown time stays where it was in the command's life (after its acceptance).
  let last = accepted;
  const keyed = steps.map((step) => ({ ...step, key: (last = step.at ?? last) }));
  return keyed.sort((a, b) => a.key - b.key).map((step) => step.entry);
}
