import type { PlatformEvent } from '@switchboard/contracts';

/** Whether a conversation.appeared among these events names the command that made it (its conversation from then on). */
export function announcesConversationOf(events: readonly PlatformEvent[], commandId: string): boolean {
  return events.some((e) => e.type === 'conversation.appeared' && e.commandId === commandId);
}

/** Whether these platform events may add or change a conversation row, which intake's reads cache. */
export function changesConversations(events: readonly PlatformEvent[]): boolean {
  return events.some((e) => e.type === 'conversation.appeared' || e.type === 'group.renamed' || e.type === 'group.participants_changed');
}
