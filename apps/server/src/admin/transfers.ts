import { adminSchemas } from '@switchboard/contracts';
import { ApiError } from '../errors.ts';
import { err, ok, type Result } from '../result.ts';
import type { TransferLimits } from '../store/types.ts';
import { findAccountById } from './accounts.ts';
import { audited, type Admin, type AdminDeps } from './audit.ts';

/** The account's transfer limits (the defaults until set); 404 `account_not_found`. */
export async function getTransferLimits(deps: Pick<AdminDeps, 'store'>, accountId: string): Promise<Result<TransferLimits, ApiError>> {
  const found = await findAccountById(deps, accountId);
  if (!found.ok) return found;
  return ok(await deps.store.getTransferLimits(found.value.id));
}

/**
 * Replaces the account's transfer limits with `body`, checked against the spec's TransferLimits:
 * a body that does not fit is 400 `invalid_body` naming the `field`, and changes nothing. The
 * next upload is held to them; transfers already stored stay usable.
 */
export function setTransferLimits(admin: Admin, accountId: string, body: unknown): Promise<Result<TransferLimits, ApiError>> {
  let account = '';
  return audited(admin, 'account.transfer_limits', async () => {
    const found = await findAccountById(admin, accountId);
    if (!found.ok) return found;
    const checked = adminSchemas.zTransferLimits.safeParse(body);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      // An unknown key's path is its parent; name the key itself.
      const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]!] : issue.path;
      const field = path.join('.') || 'body';
      return err(new ApiError('invalid_body', checked.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '), { field }));
    }
    // A type listed twice is kept once.
    const limits: TransferLimits = { maxBytes: checked.data.maxBytes, allowedTypes: [...new Set(checked.data.allowedTypes)] };
    await admin.store.setTransferLimits(found.value.id, limits, admin.clock.now());
    account = found.value.id;
    return ok(limits);
  }, (limits) => ({ accountId: account, subject: null, detail: { ...limits } }));
}
