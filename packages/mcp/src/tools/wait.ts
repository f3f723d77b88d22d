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

/** The command's outcome as a tool reports it: settled or still queued, with the code's meaning and why on failure. */
export async function outcomeOf(client: SwitchboardClient, ack: Acknowledgement, wait: boolean | undefined, waitMs: number | undefined): Promise<Record<string, unknown>> {
  // An adopted command can already be settled: its outcome costs one read.
  if (!wait && ack.status === 'queued') return { status: 'queued', settled: false };
  try {
    const outcome = await client.settled(ack.commandId, { timeoutMs: waitMs ?? waitBounds.default });
    if (outcome.status === 'succeeded') return { status: 'succeeded', settled: true };
    // errorMessage and errorPath say what went wrong with this command, in words a model can act on.
    const { errorCode, errorMessage, errorPath } = outcome;
    return { status: 'failed', settled: true, errorCode, errorMeaning: settlementMeaning(errorCode), errorMessage, errorPath };
  } catch (error) {
    if (!(error instanceof SettlementTimeoutError)) throw error;
    return { status: 'queued', settled: false, note: `not settled within ${error.timeoutMs} ms; it may still settle: read it with command_status` };
  }
}
