import type { ConversationAppeared } from '../types.ts';
import type { BlueBubblesApi } from './api.ts';
import { addressesOf, GROUP_STYLE, type BbChat } from './wire.ts';

/** A chat as the driver uses it: its guid is the conversation's externalId. */
export interface ChatInfo {
  guid: string;
  kind: 'direct' | 'group';
  name: string | null;
  participants: string[];
}

export function chatInfo(chat: BbChat): ChatInfo {
  return { guid: chat.guid, kind: chat.style === GROUP_STYLE ? 'group' : 'direct', name: chat.displayName || null, participants: addressesOf(chat) };
}

/** The chats BlueBubbles showed last (GET /api/v1/chat/:guid?with=participants), so a membership change can be told from the one before. */
export class Chats {
  private readonly api: BlueBubblesApi;
  private readonly cache = new Map<string, ChatInfo>();

  constructor(api: BlueBubblesApi) {
    this.api = api;
  }

  known(guid: string): ChatInfo | null {
    return this.cache.get(guid) ?? null;
  }

  /** The chat as BlueBubbles shows it now, or null if it has none by this guid. */
  async fetch(guid: string): Promise<ChatInfo | null> {
    const chat = await this.api.find<BbChat>(`/chat/${encodeURIComponent(guid)}`, { with: 'participants' });
    if (!chat) return null;
    return this.remember(chat);
  }

  remember(chat: BbChat): ChatInfo {
    const info = chatInfo(chat);
    this.cache.set(info.guid, info);
    return info;
  }

  /**
   * `chat` renamed as a rename's answer (PUT /api/v1/chat/:guid) shows it. BlueBubbles reads the
   * chat back without its participants there, so they stay as they were.
   */
  renamed(chat: ChatInfo, answer: BbChat): ChatInfo {
    const info = { ...chat, name: answer.displayName || null };
    this.cache.set(info.guid, info);
    return info;
  }

  appeared(chat: ChatInfo, commandId?: string): ConversationAppeared {
    return {
      type: 'conversation.appeared',
      externalId: chat.guid,
      conversationKind: chat.kind,
      name: chat.name,
      participants: chat.participants,
      ...(commandId === undefined ? {} : { commandId }),
    };
  }
}
