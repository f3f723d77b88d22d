import type { PlatformEvent } from '@switchboard/contracts';

/** Whether a conversation.appeared among these events names the command that made it (its conversation from then on). */
export function announcesConversationOf(events: readonly PlatformEvent[], commandId: string): boolean {
  return events.some((e) => e.type === 'conversation.appeared' && e.commandId === commandId);
}

/** Whether these platform events may add or change a conversation row, which intake's reads cache. */
export function changesConversations(events: readonly PlatformEvent[]): boolean {
  return events.some((e) => e.type === 'conversation.appeared' || e.type === 'group.renamed' || e.type === 'group.participants_changed');
}

/**
 * A membership change as the stream shows it: `added` and `removed` are the difference from the
 * members the store holds, which is what subscribers saw last. A host's own count can be wrong
 * (one that restarted knows no members from before).
 */
export function changedFrom<E extends { added: string[]; removed: string[]; participants: string[] }>(held: readonly string[], event: E): E {
  return { ...event, added: event.participants.filter((p) => !held.includes(p)), removed: held.filter((p) => !event.participants.includes(p)) };
}

/** Whether two participant lists hold the same members: a platform lists them in an order of its own. */
export function sameMembers(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const members = new Set(a);
  return b.every((member) => members.has(member)) && new Set(b).size === members.size;
}
