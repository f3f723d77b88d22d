import type { components } from '@switchboard/contracts';
import { iso } from '../../clock.ts';
import type { CommandRecord, TransferLimits, TransferRecord } from '../types.ts';
import type { Row } from './rows.ts';

/** Transfers are stored in chunks of this many bytes (the last one shorter). */
export const TRANSFER_CHUNK_BYTES = 1 << 20;

/** An upload still 'uploading' this long after it began was cut off: retention drops it. */
export const STALE_UPLOAD_MS = 3_600_000;

/** An account's limits until an operator sets them (specs/openapi/switchboard.yaml, "Transfers"). */
export const DEFAULT_TRANSFER_LIMITS: Readonly<TransferLimits> = Object.freeze({
  maxBytes: 100_000_000,
  allowedTypes: Object.freeze(['image/*', 'video/*', 'audio/*', 'application/pdf', 'text/plain', 'text/vcard']) as string[],
});

/** Whether `type` (normalised) is one of `allowedTypes`, exactly or by its family (`image/*`). */
export function typeAllowed(type: string, allowedTypes: readonly string[]): boolean {
  const family = `${type.slice(0, type.indexOf('/'))}/*`;
  return allowedTypes.some((allowed) => allowed === type || allowed === family);
}

/** The stored limits of a `transfer_limits` row (SQLite: JSON text; PostgreSQL: jsonb), or the defaults when none is set. */
export function transferLimitsOf(row: Row | undefined): TransferLimits {
  if (!row) return { ...DEFAULT_TRANSFER_LIMITS, allowedTypes: [...DEFAULT_TRANSFER_LIMITS.allowedTypes] };
  const stored = (typeof row.limits === 'string' ? JSON.parse(row.limits) : row.limits) as TransferLimits;
  return { maxBytes: Number(stored.maxBytes), allowedTypes: [...stored.allowedTypes] };
}

/**
 * Whether a connector host may fetch `transfer` for `command`: the transfer is ready, both are
 * the account's, the command's payload names it, and the command was accepted before the
 * transfer expired (however long it waited to be sent), or used it already.
 */
export function transferFetchable(transfer: TransferRecord | null, command: CommandRecord | null, usedByCommand: boolean): boolean {
  if (!transfer || !command || transfer.state !== 'ready') return false;
  if (command.accountId !== transfer.accountId || command.payload.transferId !== transfer.id) return false;
  return usedByCommand || command.createdAt < transfer.expiresAt;
}

/** How many chunks a transfer of `byteSize` bytes is stored in. */
export function chunkCount(byteSize: number): number {
  return Math.ceil(byteSize / TRANSFER_CHUNK_BYTES);
}

export function transfer(row: Row): TransferRecord {
  return {
    id: row.id as string,
    accountId: row.account_id as string,
    fileName: row.file_name as string,
    mimeType: row.mime_type as string,
    byteSize: Number(row.byte_size),
    sha256: row.sha256 as string,
    state: row.state as TransferRecord['state'],
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
  };
}

/** The public API's Transfer body. */
export function transferBody(t: TransferRecord): components['schemas']['Transfer'] {
  return {
    transferId: t.id,
    fileName: t.fileName,
    mimeType: t.mimeType,
    byteSize: t.byteSize,
    sha256: t.sha256,
    createdAt: iso(t.createdAt),
    expiresAt: iso(t.expiresAt),
  };
}
