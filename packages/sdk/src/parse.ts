import type { CommandRequest, CommandType } from './types.ts';

/**
 * Checks a command body built at run time (typed `unknown`: a form, a model's output) against
 * the command's schema from the contracts, and resolves with it typed, or rejects with
 * PayloadValidationError naming each problem. Loads the zod schemas on first use, as
 * `validate: true` does, so a client that never checks does not download them.
 */
export async function parseCommand<T extends CommandType>(type: T, input: unknown): Promise<CommandRequest<T>> {
  return (await import('./validate.ts')).checkedCommand(type, input);
}
