import type { MessageReceivedEvent, StreamEvent, SwitchboardClient } from '@switchboard/sdk';

/** The id of the newest event on the account's stream (`'0'` when it is empty). */
export async function streamHead(client: SwitchboardClient): Promise<string> {
  let after = '0';
  for (;;) {
    const page = await client.eventPage({ after, limit: 1000 });
    if (page.nextAfter === after) return after;
    after = page.nextAfter;
  }
}

/** Every retained event of the stream in order, page by page. */
export async function* retainedEvents(client: SwitchboardClient): AsyncGenerator<StreamEvent> {
  let after = '0';
  for (;;) {
    const page = await client.eventPage({ after, limit: 1000 });
    yield* page.events;
    if (page.nextAfter === after) return;
    after = page.nextAfter;
  }
}

/** An inbound message as the read tools show it; `eventId` is a cursor for wait_for_message. */
export function inbound(event: MessageReceivedEvent) {
  const { conversationId, messageExternalId, senderExternalId, text, attachments, receivedAt } = event.data;
  return { eventId: event.id, direction: 'inbound' as const, conversationId, messageExternalId, senderExternalId, text, attachments, at: receivedAt };
}
