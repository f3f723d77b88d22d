import type { DispatchedCommand } from '@switchboard/contracts';
import type { Services } from '../services.ts';
import type { CommandRecord } from '../store/types.ts';
import { iso } from '../clock.ts';

type Deps = Pick<Services, 'store' | 'clock' | 'waiters' | 'config'>;

/** A command as the host receives it: a conversation target resolved to the platform's conversation. */
async function dispatched(store: Deps['store'], command: CommandRecord): Promise<DispatchedCommand> {
  let target: DispatchedCommand['target'];
  if (command.target.kind === 'conversation') {
    const conversation = (await store.getConversation(command.accountId, command.target.conversationId))!;
    target = {
      kind: 'conversation',
      conversationId: conversation.id,
      externalId: conversation.externalId,
      conversationKind: conversation.kind,
      participants: conversation.participants,
      membershipVersion: conversation.membershipVersion,
    };
  } else {
    target = command.target;
  }
  return {
    commandId: command.id,
    epoch: command.dispatchEpoch!,
    type: command.type,
    routingPath: command.routingPath,
    logicalActionId: command.logicalActionId,
    target,
    payload: command.payload,
    acceptedAt: iso(command.createdAt),
  };
}

export interface DispatchPoll {
  epoch: number;
  /** What the host received under `epoch` and has not settled. */
  holding: string[];
  max: number;
  waitMs: number;
}

/** A poll's answer: the commands, and when the lease was last renewed, from the poll's arrival (negative: before it). */
export interface DispatchAnswer {
  commands: DispatchedCommand[];
  renewedAfterMs: number;
}

/**
 * A host's dispatch long-poll: the account's next commands for the live lease's `epoch`, waiting
 * up to `waitMs` for one to arrive. A poll is a renewal: each read of the queue renews the lease
 * when it is due, the last one just before the answer (connector.yaml, "Leases and fencing").
 * Null when `epoch` is not the live lease's. Aborting `signal` (the connection closed, the server
 * is closing) answers at once, empty. An answer lost on its way is no loss: the host's next poll
 * does not list those commands in `holding`, so they are handed out again.
 */
export async function dispatch(services: Deps, accountId: string, poll: DispatchPoll, signal: AbortSignal): Promise<DispatchAnswer | null> {
  const { store, clock, waiters, config } = services;
  const arrived = clock.now();
  const deadline = arrived + poll.waitMs;
  // The lease's last renewal, as its expiry less the TTL: never later than it was made, so the
  // host's count (its poll's sending time plus renewedAfterMs plus the TTL) ends by the expiry.
  const answer = (commands: DispatchedCommand[], leaseExpiresAt: number): DispatchAnswer => ({ commands, renewedAfterMs: leaseExpiresAt - config.leaseTtlMs - arrived });
  for (;;) {
    // Taken before the read: a command committed while the read was under way wakes this poll.
    const seen = waiters.seen(accountId);
    const read = await store.dispatchCommands(accountId, poll.epoch, poll.max, poll.holding, clock.now(), config.leaseTtlMs);
    if (read === null) return null;
    const remaining = deadline - clock.now();
    if (read.commands.length > 0 || remaining <= 0 || signal.aborted) {
      return answer(await Promise.all(read.commands.map((c) => dispatched(store, c))), read.leaseExpiresAt);
    }
    await waiters.wait(accountId, remaining, signal, seen);
    // Gone or closing: nothing is read again.
    if (signal.aborted) return answer([], read.leaseExpiresAt);
  }
}
