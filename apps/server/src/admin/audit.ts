import type { AdminComponents } from '@switchboard/contracts';
import { iso } from '../clock.ts';
import type { Config } from '../config.ts';
import { ApiError } from '../errors.ts';
import { err, ok, type Result } from '../result.ts';
import type { AuditRecord } from '../store/types.ts';
import type { WebhookDeps } from '../webhooks/endpoints.ts';

/** What the admin domain reads and writes with; the server's Services fit it, and so does the CLI on the store. */
export interface AdminDeps extends WebhookDeps {
  config: Pick<Config, 'leaseTtlMs' | 'webhooks'>;
}

/** An operator making changes: `operatorKeyId` null is the CLI where the store is (no key is needed there). */
export interface Admin extends AdminDeps {
  operatorKeyId: string | null;
}

/** The spec's AuditRecord.action values. */
export type AuditAction =
  | 'account.create' | 'account.pause' | 'account.resume' | 'outbound.pause' | 'outbound.resume'
  | 'key.create' | 'key.revoke' | 'operator_key.create' | 'operator_key.revoke' | 'account.policies' | 'account.transfer_limits'
  | 'command.release' | 'command.reject'
  | 'webhook_endpoint.enable' | 'webhook_endpoint.disable' | 'webhook_endpoint.rotate_secret'
  | 'webhook_endpoint.resend' | 'webhook_endpoint.replay' | 'webhook_endpoint.test';

/** What a change named: the account, the thing within it, and what changed (never a secret). */
export interface AuditEntry {
  accountId: string | null;
  subject: string | null;
  detail?: Record<string, unknown>;
}

/**
 * Makes a change and, when it succeeded, records it in the audit log: every write of the admin
 * domain goes through here. The record is written after the change commits (the spec: a crash in
 * between loses the record, never the change).
 */
export async function audited<T>(admin: Admin, action: AuditAction, change: () => Promise<Result<T, ApiError>>, entry: (value: T) => AuditEntry): Promise<Result<T, ApiError>> {
  const result = await change();
  if (!result.ok) return result;
  const { accountId, subject, detail = {} } = entry(result.value);
  await admin.store.appendAudit({ at: admin.clock.now(), operatorKeyId: admin.operatorKeyId, action, accountId, subject, detail });
  return result;
}

export function auditBody(r: AuditRecord): AdminComponents['schemas']['AuditRecord'] {
  return { id: String(r.id), at: iso(r.at), operatorKeyId: r.operatorKeyId, action: r.action, accountId: r.accountId, subject: r.subject, detail: r.detail };
}

/** The audit log, newest first; a cursor this API did not give is 400 `invalid_query`. */
export async function listAudit(deps: Pick<AdminDeps, 'store'>, limit: number, cursor: string | null): Promise<Result<AdminComponents['schemas']['AuditPage'], ApiError>> {
  if (cursor !== null && !/^[1-9]\d{0,14}$/.test(cursor)) return err(new ApiError('invalid_query', 'cursor must be the nextCursor of a previous page'));
  const page = await deps.store.listAudit(limit, cursor);
  return ok({ records: page.items.map(auditBody), nextCursor: page.nextCursor });
}
