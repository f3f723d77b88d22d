import { setTimeout as sleep } from 'node:timers/promises';
import { paint, UsageError } from './format.ts';
import type { Account, Operator } from './operator.ts';
import type { Interrupt } from './terminal.ts';

/**
 * `switchboard tail`: follows the account's response stream until Ctrl-C, which is how a user
 * ends it: it stops following, says so in one line on stderr and exits 0. `interrupt` is Ctrl-C,
 * taken when the CLI started (terminal.ts says how, and why).
 */
export async function tailCommand(open: () => Promise<{ operator: Operator; target: Account }>, from: string, json: boolean, interrupt: Interrupt): Promise<void> {
  if (from !== 'now' && !/^\d{1,15}$/.test(from)) throw new UsageError('--after takes an event id or now');
  const { signal } = interrupt;
  const ready = (async () => {
    const { operator, target } = await open();
    try {
      return { operator, target, after: from === 'now' ? await operator.newestEventId(target.id) : String(Number(from)) };
    } catch (error) {
      await operator.close();
      throw error;
    }
  })();
  const stopped = new Promise<null>((resolve) => (signal.aborted ? resolve(null) : signal.addEventListener('abort', () => resolve(null), { once: true })));
  // Ctrl-C while the store opens or the server answers: what it waits for may take long (an
  // unreachable database), so the process ends there, once the line is out.
  ready.catch(() => undefined);
  const started = await Promise.race([ready, stopped]);
  if (started === null) {
    console.error(paint('dim', 'stopped before following the stream'));
    await linger();
    process.exit(0);
  }
  const { operator, target } = started;
  let after = started.after;
  try {
    console.error(paint('dim', `following ${target.name}'s stream after ${after} (Ctrl-C to stop)`));
    for await (const event of operator.events(target.id, after, signal)) {
      console.log(json ? JSON.stringify(event) : `${paint('dim', event.id.padStart(6))} ${paint('cyan', event.type.padEnd(26))} ${JSON.stringify(event.data)}`);
      after = event.id;
    }
  } finally {
    interrupt.release();
    await operator.close();
  }
  console.error(paint('dim', `stopped (--after ${after} goes on from here)`));
  if (signal.aborted) await linger();
}

/**
 * A second signal sent with the first (pnpm passes the group's SIGINT on) may arrive once the
 * process has begun to exit, when Node has put the default action back: it would end it by
 * SIGINT. Lingering a moment with the handlers in place takes it in.
 */
const linger = () => sleep(200);
