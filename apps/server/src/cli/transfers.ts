import { paint, UsageError } from './format.ts';
import type { Account, Operator, TransferLimits } from './operator.ts';

type Out = (human: string, json: unknown) => void;

/** The changes `transfer-limits set` names: --max-bytes N, --types a/b,c/*|none. The service checks the values. */
export function transferLimitChanges(maxBytes: string | undefined, types: string | undefined): Partial<TransferLimits> {
  const changes: Partial<TransferLimits> = {};
  if (maxBytes !== undefined) {
    if (!/^\d+$/.test(maxBytes)) throw new UsageError(`--max-bytes takes a whole number of bytes, not "${maxBytes}"`);
    changes.maxBytes = Number(maxBytes);
  }
  if (types !== undefined) {
    // Only the word none refuses every upload: an empty list by mistake must not.
    const listed = types.split(',').map((t) => t.trim()).filter((t) => t !== '');
    if (types.trim() !== 'none' && listed.length === 0) throw new UsageError('--types takes media types separated by commas (image/*,application/pdf), or none');
    changes.allowedTypes = types.trim() === 'none' ? [] : listed;
  }
  return changes;
}

/** `transfer-limits <account>` shows the limits; `transfer-limits set` changes the named ones and keeps the other. */
export async function transferLimitsCommand(operator: Operator, target: Account, changes: Partial<TransferLimits> | null, out: Out): Promise<void> {
  let limits = await operator.getTransferLimits(target.id);
  if (changes) limits = await operator.setTransferLimits(target.id, { ...limits, ...changes });
  const types = limits.allowedTypes.length === 0 ? paint('yellow', 'none (every upload is refused)') : limits.allowedTypes.join(', ');
  out(
    `${changes ? `${paint('green', '✔')} ` : ''}transfer limits of ${paint('bold', target.name)}\n  max bytes      ${limits.maxBytes.toLocaleString('en-US')}\n  allowed types  ${types}\n` +
      paint('dim', 'Uploads (POST /v1/transfers) need a server started with SWITCHBOARD_TRANSFERS=enabled.'),
    { accountId: target.id, ...limits },
  );
}
