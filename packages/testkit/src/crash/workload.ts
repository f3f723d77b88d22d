import { setTimeout as sleep } from 'node:timers/promises';
import type { Random } from './random.ts';

/** What a client asked for. */
export type Operation =
  | { kind: 'conversation-send'; conversationId: string; idempotencyKey: string; text: string }
  | { kind: 'recipient-send'; recipientExternalId: string; text: string }
  | { kind: 'group-rename'; conversationId: string; name: string };

/** A request a client made, and what it learnt. */
export interface Attempt {
  client: number;
  index: number;
  operation: Operation;
  /** accepted: a 202; rejected: another final answer; unknown: the request may have reached the server, and retrying an admin command could send twice. */
  outcome: 'accepted' | 'rejected' | 'unknown';
  commandId?: string;
  disposition?: string;
  /** The command's status in the 202 body: `queued`, or `held` where a line policy holds it (an adopted retry answers the status it has now). */
  ackStatus?: string;
  status?: number;
  error?: string;
  tries: number;
}

export interface WorkloadTargets {
  dm: string;
  group: string;
  /** A prefix unique to the round for the addresses of recipient sends. */
  addressPrefix: string;
}

/** The operations one client will make, chosen up front from its own generator. */
export function planClient(random: Random, client: number, count: number, targets: WorkloadTargets, roundTag: string): Operation[] {
  const operations: Operation[] = [];
  for (let index = 0; index < count; index++) {
    const roll = random.next();
    if (roll < 0.65) {
      operations.push({
        kind: 'conversation-send',
        conversationId: random.chance(0.6) ? targets.dm : targets.group,
        idempotencyKey: `crash-${roundTag}-${client}-${index}`,
        text: `client ${client} message ${index}`,
      });
    } else if (roll < 0.9) {
      // example.com is reserved for documentation (RFC 2606): never a real person.
      operations.push({ kind: 'recipient-send', recipientExternalId: `${targets.addressPrefix}${client}-${index}@example.com`, text: `hello from client ${client} (${index})` });
    } else {
      operations.push({ kind: 'group-rename', conversationId: targets.group, name: `Team ${client}.${index}` });
    }
  }
  return operations;
}

/** Statuses that mean nothing was written and a later try may succeed. */
const RETRYABLE = new Set([429, 500, 502, 503]);

/** The error code of a failed fetch (ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET, ...). */
function networkCode(error: unknown): string {
  const cause = (error as { cause?: { code?: string } })?.cause;
  return cause?.code ?? (error as Error)?.name ?? 'unknown';
}

/**
 * Sends one operation until it is answered for good. A conversation send carries its
 * Idempotency-Key and is retried after any network error (the key makes the retry safe). An
 * admin command is retried only when the connection was refused, i.e. the request never reached
 * a server; after any other network error its outcome is unknown.
 */
export async function perform(operation: Operation, server: { url: string }, apiKey: string, deadline: number): Promise<Omit<Attempt, 'client' | 'index' | 'operation'>> {
  const { type, body, headers } = request(operation);
  const idempotent = operation.kind === 'conversation-send';
  let tries = 0;
  for (;;) {
    tries++;
    try {
      const response = await fetch(`${server.url}/v1/commands/${type}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(Math.max(100, deadline - Date.now())),
      });
      const text = await response.text();
      const answer = text ? (JSON.parse(text) as Record<string, string>) : {};
      if (response.status === 202) return { outcome: 'accepted', commandId: answer.commandId!, disposition: answer.disposition!, ackStatus: answer.status!, status: 202, tries };
      if (!RETRYABLE.has(response.status) || Date.now() > deadline) return { outcome: 'rejected', status: response.status, error: answer.error ?? '', tries };
    } catch (error) {
      const code = networkCode(error);
      if (Date.now() > deadline) return { outcome: idempotent ? 'rejected' : 'unknown', error: `gave up: ${code}`, tries };
      if (!idempotent && code !== 'ECONNREFUSED') return { outcome: 'unknown', error: code, tries };
    }
    await sleep(Math.min(25 * 2 ** Math.min(tries, 5), 500));
  }
}

function request(operation: Operation): { type: string; body: unknown; headers: Record<string, string> } {
  switch (operation.kind) {
    case 'conversation-send':
      return {
        type: 'message.send',
        body: { target: { kind: 'conversation', conversationId: operation.conversationId }, payload: { text: operation.text } },
        headers: { 'idempotency-key': operation.idempotencyKey },
      };
    case 'recipient-send':
      return { type: 'message.send', body: { target: { kind: 'recipient', recipientExternalId: operation.recipientExternalId }, payload: { text: operation.text } }, headers: {} };
    case 'group-rename':
      return { type: 'group.update', body: { target: { kind: 'conversation', conversationId: operation.conversationId }, payload: { action: 'rename', name: operation.name } }, headers: {} };
  }
}

/**
 * Runs every client's plan at once, each client one request at a time with a short random pause;
 * `onAnswer` hears how many requests were answered so far, after each one.
 */
export async function runClients(
  plans: Operation[][],
  pauses: Random[],
  server: { url: string },
  apiKey: string,
  requestDeadlineMs: number,
  onAnswer?: (answered: number) => void,
): Promise<Attempt[]> {
  const attempts: Attempt[] = [];
  await Promise.all(
    plans.map(async (plan, client) => {
      for (const [index, operation] of plan.entries()) {
        const result = await perform(operation, server, apiKey, Date.now() + requestDeadlineMs);
        attempts.push({ client, index, operation, ...result });
        onAnswer?.(attempts.length);
        await sleep(pauses[client]!.int(0, 6));
      }
    }),
  );
  return attempts;
}
