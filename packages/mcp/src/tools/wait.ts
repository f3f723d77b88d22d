import * as z from 'zod';
import { SettlementTimeoutError, type Acknowledgement, type SwitchboardClient } from '@switchboard/sdk';
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

export const waitInput = {
  wait: z.boolean().optional().describe('Wait for the command to settle (succeeded, or failed with a settlement code) before answering. Default false: answer at acknowledgement (queued).'),
  timeoutMs,
};

/**
 * The command's outcome as a tool reports it: settled or still queued, with the code's meaning
 * and why on failure. The command was accepted, so whatever goes wrong while waiting (the service
 * unreachable, the call cancelled by `signal`) answers with the command still to read, never an
 * error a model would answer by sending it again.
 */
export async function outcomeOf(
  client: SwitchboardClient, ack: Acknowledgement, wait: boolean | undefined, waitMs: number | undefined, signal?: AbortSignal,
): Promise<Record<string, unknown>> {
  // An adopted command can already be settled: its outcome costs one read.
  if (!wait && ack.status === 'queued') return { status: 'queued', settled: false };
  try {
    const outcome = await client.settled(ack.commandId, { timeoutMs: waitMs ?? waitBounds.default, ...(signal ? { signal } : {}) });
    if (outcome.status === 'succeeded') return { status: 'succeeded', settled: true };
    // errorMessage and errorPath say what went wrong with this command, in words a model can act on.
    const { errorCode, errorMessage, errorPath } = outcome;
    return { status: 'failed', settled: true, errorCode, errorMeaning: settlementMeaning(errorCode), errorMessage, errorPath };
  } catch (error) {
    if (error instanceof SettlementTimeoutError) {
      return { status: 'queued', settled: false, note: `not settled within ${error.timeoutMs} ms; it may still settle: read it with command_status` };
    }
    const why = error instanceof Error ? error.message : String(error);
    return { status: 'queued', settled: false, note: `accepted, but its outcome could not be read (${why}); do not send it again: read it with command_status` };
  }
}
