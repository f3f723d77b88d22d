import type { components } from '@switchboard/contracts';
import { isUuid } from '../ids.ts';
import { err, ok, type Result } from '../result.ts';
import { ApiError } from '../errors.ts';
import { conversationBody } from '../bodies.ts';
import { findAccountById } from './accounts.ts';
import type { AdminDeps } from './audit.ts';

/** The account's conversations, as its clients see them (GET /v1/conversations). */
export async function listConversations(deps: Pick<AdminDeps, 'store'>, accountId: string, limit: number, cursor: string | null): Promise<Result<components['schemas']['ConversationPage'], ApiError>> {
  const account = await findAccountById(deps, accountId);
  if (!account.ok) return account;
  if (cursor !== null && !isUuid(cursor)) return err(new ApiError('invalid_query', 'cursor must be the nextCursor of a previous page'));
  const page = await deps.store.listConversations(account.value.id, limit, cursor);
  return ok({ conversations: page.items.map(conversationBody), nextCursor: page.nextCursor });
}
