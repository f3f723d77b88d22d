import { paint, table, UsageError } from './format.ts';
import { OperatorError, type Account, type AdminCommand, type CommandDetail, type Operator } from './operator.ts';

type Out = (human: string, json: unknown) => void;

/** A hold policy by the name its option has on the command line. */
const policyName = (heldBy: AdminCommand['heldBy']) => (heldBy === 'quietHours' ? 'quiet-hours' : heldBy === 'firstContactApproval' ? 'first-contact-approval' : '-');

/** Whom the command is for, in a few words: the conversation, the recipient, or a new group's participants. */
export function targetSummary(target: AdminCommand['target']): string {
  switch (target.kind) {
    case 'conversation':
      return `conversation ${target.conversationId}`;
    case 'recipient':
      return `to ${target.recipientExternalId}`;
    default: {
      const shown = target.participantExternalIds.slice(0, 3).join(', ');
      const more = target.participantExternalIds.length - 3;
      return `new group with ${shown}${more > 0 ? ` and ${more} more` : ''}`;
    }
  }
}

/** `held <account>`: the commands a line policy holds, newest first (every page). */
export async function heldCommand(operator: Operator, target: Account, out: Out): Promise<void> {
  const held: AdminCommand[] = [];
  let cursor: string | null = null;
  do {
    const page = await operator.listCommands(target.id, 'held', cursor);
    held.push(...page.commands);
    cursor = page.nextCursor;
  } while (cursor !== null);
  out(
    held.length === 0 ? `${target.name} has no held commands`
      : table([['ID', 'TYPE', 'HELD BY', 'TARGET', 'ACCEPTED'], ...held.map((c) => [c.commandId, c.type, paint('yellow', policyName(c.heldBy)), targetSummary(c.target), c.createdAt])]),
    held,
  );
}

/** The service's answer about the command named on the command line: a name that is wrong, or a command not held, is exit 2. */
async function named(commandId: string, call: () => Promise<CommandDetail>): Promise<CommandDetail> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof OperatorError && error.code === 'command_not_found') throw new UsageError(`no command "${commandId}" (or retention dropped it)`, error.code);
    if (error instanceof OperatorError && error.code === 'command_not_held') {
      throw new UsageError(`command ${commandId} is not held: no line policy held it, or it was released or rejected already (see: switchboard held <account>)`, error.code);
    }
    throw error;
  }
}

/** `release <commandId>`: it goes out, or (a first contact approved in quiet hours) waits for the window. */
export async function releaseCommand(operator: Operator, commandId: string, out: Out): Promise<void> {
  const detail = await named(commandId, () => operator.releaseCommand(commandId));
  const { command } = detail;
  out(
    command.status === 'held'
      ? `${paint('green', '✔')} approved ${command.commandId} (${command.type}); quiet hours hold it now, until their window opens`
      : `${paint('green', '✔')} released ${command.commandId} (${command.type}): ${command.status}, it goes to the connector host`,
    detail,
  );
}

/** `reject <commandId> [--reason TEXT]`: it settles failed, and nothing is sent. */
export async function rejectCommand(operator: Operator, commandId: string, reason: string | undefined, out: Out): Promise<void> {
  if (reason !== undefined && reason.length > 500) throw new UsageError(`--reason is at most 500 characters (not ${reason.length})`);
  const detail = await named(commandId, () => operator.rejectCommand(commandId, reason?.trim() ? reason : null));
  const { command } = detail;
  out(`${paint('green', '✔')} rejected ${command.commandId} (${command.type}): ${[command.status, command.errorCode].filter(Boolean).join(' ')}; nothing was sent`, detail);
}
