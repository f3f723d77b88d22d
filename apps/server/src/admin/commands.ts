import type { AdminComponents } from '@switchboard/contracts';
import { ApiError } from '../errors.ts';
import { isUuid } from '../ids.ts';
import { err, ok, type Result } from '../result.ts';
import type { CommandFilter, CommandRecord } from '../store/types.ts';
import { commandBody } from '../bodies.ts';
import type { AdminDeps } from './audit.ts';
import { commandTimeline } from './timeline.ts';

type Schemas = AdminComponents['schemas'];

/** The command as its account's clients read it (GET /v1/commands/{id}), with its account. */
async function adminCommand(deps: Pick<AdminDeps, 'store'>, command: CommandRecord): Promise<Schemas['AdminCommand']> {
  const [history, message] = await Promise.all([deps.store.commandHistory(command.id), deps.store.getMessageOfCommand(command.accountId, command.id)]);
  return { ...commandBody(command, history, message), accountId: command.accountId };
}

/** Commands of every account (or the filter's), newest first; a cursor this API did not give is 400 `invalid_query`. */
export async function listCommands(deps: Pick<AdminDeps, 'store'>, filter: CommandFilter, limit: number, cursor: string | null): Promise<Result<Schemas['CommandPage'], ApiError>> {
  if (cursor !== null && !isUuid(cursor)) return err(new ApiError('invalid_query', 'cursor must be the nextCursor of a previous page'));
  const page = await deps.store.listCommands(filter, limit, cursor === null ? null : cursor.toLowerCase());
  return ok({ commands: await Promise.all(page.items.map((c) => adminCommand(deps, c))), nextCursor: page.nextCursor });
}

/** One command of any account, and its timeline. */
export async function getCommandDetail(deps: Pick<AdminDeps, 'store'>, commandId: string): Promise<Result<Schemas['CommandDetail'], ApiError>> {
  const command = isUuid(commandId) ? await deps.store.findCommand(commandId.toLowerCase()) : null;
  if (!command) return err(new ApiError('command_not_found', 'no such command (or retention dropped it)'));
  const [history, message, hostId] = await Promise.all([
    deps.store.commandHistory(command.id),
    deps.store.getMessageOfCommand(command.accountId, command.id),
    command.dispatchEpoch === null ? null : deps.store.leaseHolder(command.accountId, command.dispatchEpoch),
  ]);
  return ok({
    command: { ...commandBody(command, history, message), accountId: command.accountId },
    timeline: commandTimeline(command, history, message, hostId),
  });
}
