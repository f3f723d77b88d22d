import * as z from 'zod';
import { CommandFailedError, SettlementTimeoutError, type Acknowledgement, type Delivery, type SwitchboardClient } from '@switchboard/sdk';
import { settlementMeaning } from '../results.ts';

/** Bounds of every wait a tool does; an MCP call should not hang on a model's turn. */
export const waitBounds = { min: 1_000, max: 120_000, default: 30_000 };

export const timeoutMs = z
  .number()
  .int()
  .min(waitBounds.min)
  .max(waitBounds.max)
  .optional()
  .describe(`How long to wait, in ms (${waitBounds.min}-${waitBounds.max}, default ${waitBounds.default}).`);

/** What a tool can wait for before answering; `true` is `'settled'`, `false` (the default) nothing. */
export type Wait = boolean | 'settled' | 'delivered' | 'read';

const SETTLED = 'Wait for the command to settle (succeeded, or failed with a settlement code) before answering: "settled" (or true). Default false: answer at acknowledgement (queued).';

/** The `wait` input of a command that sends no message: the settlement only. */
export const waitInput = {
  wait: z.union([z.boolean(), z.enum(['settled'])]).optional().describe(SETTLED),
  timeoutMs,
};

/** The `wait` input of a command that sends a message: the settlement, or what became of the message. */
export const messageWaitInput = {
  wait: z
    .union([z.boolean(), z.enum(['settled', 'delivered', 'read'])])
    .optional()
    .describe(
      [
        SETTLED,
        '"delivered" or "read" waits for the message to be delivered or read (read receipts exist in direct conversations only; in a group "read" answers at delivered) and answers messageState: queued (not sent yet), sent, delivered, read, or failed (the platform took it and it never left the device).',
        'A message that is queued or sent when the wait ends may still go out and arrive: do not send it again; read it later with command_status.',
      ].join(' '),
    ),
  timeoutMs,
};

function unreadable(error: unknown): Record<string, unknown> {
  const why = error instanceof Error ? error.message : String(error);
  return { status: 'queued', settled: false, note: `accepted, but its outcome could not be read (${why}); do not send it again: read it with command_status` };
}

function failed(outcome: { errorCode: CommandFailedError['errorCode']; errorMessage: string | null; errorPath?: string | null }): Record<string, unknown> {
  // errorMessage and errorPath say what went wrong with this command, in words a model can act on.
  const { errorCode, errorMessage, errorPath = null } = outcome;
  return { status: 'failed', settled: true, errorCode, errorMeaning: settlementMeaning(errorCode), errorMessage, errorPath };
}

/** What the answer says of a delivery, so a model reads whether to wait, look later or send again. */
function deliveryNote(d: Delivery, until: 'delivered' | 'read', waitMs: number): string | undefined {
  if (d.state === 'failed') {
    const { reason, platformMessage } = d.message.failure;
    const again = reason === 'recipient_unreachable'
      ? 'the recipient cannot receive messages on this service: sending again fails the same way'
      : 'to try again, send it anew: an agent-turn tool needs a new idempotencyKey, since the same call is adopted and sends nothing';
    return `the platform took the message but it never left the device (${reason}${platformMessage ? `: ${platformMessage}` : ''}); the recipient did not get it. The command stays succeeded; ${again}`;
  }
  if (d.reached) return undefined;
  if (!d.timedOut) return 'delivered; a group has no read receipts, so it will not be marked read';
  const still = { queued: 'not sent yet', sent: 'sent, not delivered yet', delivered: 'delivered, not read yet' }[d.state as 'queued' | 'sent' | 'delivered'];
  return `${still} after ${waitMs} ms; it may still be ${until}: do not send it again; read it later with command_status (its message shows when it was delivered and read)`;
}

/**
 * The command's outcome as a tool reports it: settled or still queued, with the code's meaning
 * and why on failure; with `wait: 'delivered' | 'read'`, also how far its message got
 * (`messageState`), whether that is what was waited for (`reached`), and the message. The command
 * was accepted, so whatever goes wrong while waiting (the service unreachable, the call cancelled
 * by `signal`) answers with the command still to read, never an error a model would answer by
 * sending it again.
 */
export async function outcomeOf(
  client: SwitchboardClient, ack: Acknowledgement, wait: Wait | undefined, waitMs: number | undefined, signal?: AbortSignal,
): Promise<Record<string, unknown>> {
  const ms = waitMs ?? waitBounds.default;
  // An adopted command can already be settled: its outcome costs one read.
  if (!wait && ack.status === 'queued') return { status: 'queued', settled: false };
  // A hold can last hours: answer at once, with the policy, rather than wait it out.
  if (ack.status === 'held') return held(client, ack.commandId);
  if (wait === 'delivered' || wait === 'read') {
    try {
      const d = await client.delivered(ack.commandId, { until: wait, timeoutMs: ms, ...(signal ? { signal } : {}) });
      const note = deliveryNote(d, wait, ms);
      return { status: d.state === 'queued' ? 'queued' : 'succeeded', settled: d.state !== 'queued', waitedFor: wait, messageState: d.state, reached: d.reached, message: d.message, ...(note ? { note } : {}) };
    } catch (error) {
      if (error instanceof CommandFailedError) return { ...failed(error), waitedFor: wait, messageState: 'not_sent', reached: false };
      return unreadable(error);
    }
  }
  try {
    const outcome = await client.settled(ack.commandId, { timeoutMs: ms, ...(signal ? { signal } : {}) });
    return outcome.status === 'succeeded' ? { status: 'succeeded', settled: true } : failed(outcome);
  } catch (error) {
    if (error instanceof SettlementTimeoutError) {
      return { status: 'queued', settled: false, note: `not settled within ${error.timeoutMs} ms; it may still settle: read it with command_status` };
    }
    return unreadable(error);
  }
}

const HOLDS = {
  quietHours: 'the account\'s quiet hours hold it: it goes out by itself when they end',
  firstContactApproval: 'it is the account\'s first message to this address, and an operator must approve it first (or reject it: then it settles failed first_contact_rejected)',
} as const;

/** A held command's answer: accepted, not sent, why, and not to send it again. */
async function held(client: SwitchboardClient, commandId: string): Promise<Record<string, unknown>> {
  let heldBy: keyof typeof HOLDS | null = null;
  try {
    heldBy = (await client.getCommand(commandId)).heldBy;
  } catch {
    // The acknowledgement said held; which policy is only detail.
  }
  const why = heldBy ? HOLDS[heldBy] : 'a line policy of the account holds it (quiet hours or first-contact approval)';
  return { status: 'held', settled: false, heldBy, note: `accepted and held, not sent yet: ${why}. Do not send it again: read it later with command_status` };
}
