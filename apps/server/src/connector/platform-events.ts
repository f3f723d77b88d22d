import type { PlatformEvent } from '@switchboard/contracts';
import { newId } from '../clock.ts';
import type { Services } from '../services.ts';
import type { ConversationRecord, NewEvent } from '../store/types.ts';
import { appendEvents } from '../stream/append.ts';

export type PlatformEventsResult = { ok: true; recorded: number } | { ok: false; message: string };

function externalIdOf(event: PlatformEvent): string {
  return event.type === 'conversation.appeared' ? event.externalId : event.conversationExternalId;
}

/**
 * Turns what the platform reported into conversation state and stream events, in the order
 * reported. Every event must name a conversation the server knows or that an earlier event of
 * the batch announced; otherwise nothing of the batch is recorded.
 */
export async function recordPlatformEvents(services: Services, accountId: string, events: PlatformEvent[]): Promise<PlatformEventsResult> {
  const { store, clock } = services;
  const known = new Map<string, ConversationRecord | null>();
  for (const event of events) {
    const externalId = externalIdOf(event);
    if (event.type === 'conversation.appeared') {
      if (!known.has(externalId)) known.set(externalId, await store.findConversationByExternalId(accountId, externalId));
      continue;
    }
    if (!known.has(externalId)) known.set(externalId, await store.findConversationByExternalId(accountId, externalId));
    const announced = events.some((e) => e.type === 'conversation.appeared' && e.externalId === externalId);
    if (!known.get(externalId) && !announced) {
      return { ok: false, message: `conversation "${externalId}" is unknown; report conversation.appeared first` };
    }
  }

  let recorded = 0;
  for (const event of events) {
    const now = clock.now();
    const stream: NewEvent[] = [];
    if (event.type === 'conversation.appeared') {
      const { conversation, created } = await store.upsertConversation(
        accountId,
        { externalId: event.externalId, kind: event.conversationKind, name: event.name, participants: event.participants },
        newId(),
        now,
      );
      known.set(event.externalId, conversation);
      if (event.commandId) await store.setCommandConversation(accountId, event.commandId, conversation.id);
      if (created) {
        stream.push({
          type: 'conversation.appeared',
          time: now,
          data: {
            conversationId: conversation.id,
            kind: conversation.kind,
            name: conversation.name,
            participants: conversation.participants,
            commandId: event.commandId ?? null,
          },
        });
      }
    } else {
      const conversation = known.get(event.conversationExternalId)!;
      if (event.type === 'message.received') {
        stream.push({
          type: 'message.received',
          time: now,
          data: {
            conversationId: conversation.id,
            messageExternalId: event.messageExternalId,
            senderExternalId: event.senderExternalId,
            text: event.text,
            attachments: event.attachments,
            receivedAt: event.receivedAt,
          },
        });
      } else if (event.type === 'message.sent') {
        stream.push({
          type: 'message.sent',
          time: now,
          data: { conversationId: conversation.id, messageExternalId: event.messageExternalId, commandId: event.commandId },
        });
      } else if (event.type === 'group.renamed') {
        await store.renameConversation(accountId, conversation.id, event.name);
        stream.push({ type: 'group.renamed', time: now, data: { conversationId: conversation.id, name: event.name, commandId: event.commandId ?? null } });
      } else {
        known.set(event.conversationExternalId, await store.setParticipants(accountId, conversation.id, event.participants));
        stream.push({
          type: 'group.participants_changed',
          time: now,
          data: {
            conversationId: conversation.id,
            added: event.added,
            removed: event.removed,
            participants: event.participants,
            commandId: event.commandId ?? null,
          },
        });
      }
    }
    if (stream.length > 0) await appendEvents(services, accountId, stream);
    recorded++;
  }
  return { ok: true, recorded };
}
