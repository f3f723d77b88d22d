import { describe, expect, it } from 'vitest';
import { adminSchemas } from '@switchboard/contracts';
import type { CommandRecord, TransferRecord } from '../types.ts';
import {
  chunkCount, DEFAULT_TRANSFER_LIMITS, TRANSFER_CHUNK_BYTES, transferBody, transferFetchable, transferLimitsOf, typeAllowed,
} from './transfers.ts';

const ready: TransferRecord = {
  id: 't1', accountId: 'a1', fileName: 'a.png', mimeType: 'image/png', byteSize: 10, sha256: 'ab'.repeat(32), state: 'ready', createdAt: 0, expiresAt: 1_000,
};
const command = (payload: Record<string, unknown>, accountId = 'a1', createdAt = 0) => ({ id: 'c1', accountId, payload, createdAt }) as CommandRecord;
const naming = command({ kind: 'attachment', transferId: 't1' });

describe('the default limits', () => {
  it('are 100,000,000 bytes and the media families the spec names, and fit the admin API\'s TransferLimits', () => {
    expect(DEFAULT_TRANSFER_LIMITS).toEqual({ maxBytes: 100_000_000, allowedTypes: ['image/*', 'video/*', 'audio/*', 'application/pdf', 'text/plain', 'text/vcard'] });
    expect(adminSchemas.zTransferLimits.safeParse(DEFAULT_TRANSFER_LIMITS).success).toBe(true);
  });

  it('apply to an account with no row; a row is the limits as stored (SQLite text, PostgreSQL jsonb)', () => {
    expect(transferLimitsOf(undefined)).toEqual(DEFAULT_TRANSFER_LIMITS);
    const limits = { maxBytes: 5, allowedTypes: ['text/plain'] };
    expect(transferLimitsOf({ limits: JSON.stringify(limits) })).toEqual(limits);
    expect(transferLimitsOf({ limits })).toEqual(limits);
  });
});

describe('typeAllowed', () => {
  it('allows a type listed exactly, or its whole family', () => {
    expect(typeAllowed('application/pdf', ['application/pdf'])).toBe(true);
    expect(typeAllowed('image/heic', ['image/*'])).toBe(true);
    expect(typeAllowed('application/zip', ['application/pdf', 'image/*'])).toBe(false);
    expect(typeAllowed('image/png', ['image/jpeg'])).toBe(false);
    expect(typeAllowed('text/plain', ['text/plain', 'text/vcard'])).toBe(true);
  });

  it('allows nothing with an empty list, and a family does not reach into another', () => {
    expect(typeAllowed('image/png', [])).toBe(false);
    expect(typeAllowed('imagex/png', ['image/*'])).toBe(false);
    expect(typeAllowed('video/mp4', ['image/*', 'audio/*'])).toBe(false);
  });
});

describe('transferFetchable', () => {
  it('a ready transfer of the account, named by a command accepted before it expired', () => {
    expect(transferFetchable(ready, naming, false)).toBe(true);
    expect(transferFetchable(ready, command({ action: 'set_photo', transferId: 't1' }), false)).toBe(true);
    expect(transferFetchable(ready, command({ kind: 'attachment', transferId: 't1' }, 'a1', 999), false)).toBe(true);
  });

  it('expiry is judged at acceptance: not for a command accepted at or after it, unless this command used it already', () => {
    const late = command({ kind: 'attachment', transferId: 't1' }, 'a1', 1_000);
    expect(transferFetchable(ready, late, false)).toBe(false);
    expect(transferFetchable(ready, late, true)).toBe(true);
  });

  it('never an upload under way, an unknown transfer or command, another account\'s, or one the command does not name', () => {
    expect(transferFetchable({ ...ready, state: 'uploading' }, naming, false)).toBe(false);
    expect(transferFetchable({ ...ready, state: 'uploading' }, naming, true)).toBe(false);
    expect(transferFetchable(null, naming, false)).toBe(false);
    expect(transferFetchable(ready, null, false)).toBe(false);
    expect(transferFetchable(ready, command({ kind: 'attachment', transferId: 't1' }, 'a2'), false)).toBe(false);
    expect(transferFetchable(ready, command({ kind: 'attachment', transferId: 't2' }), false)).toBe(false);
    expect(transferFetchable(ready, command({ text: 'hi' }), false)).toBe(false);
  });
});

describe('chunks and the body', () => {
  it('a transfer takes one chunk per MiB begun, none when empty', () => {
    expect(TRANSFER_CHUNK_BYTES).toBe(1 << 20);
    expect([0, 1, TRANSFER_CHUNK_BYTES, TRANSFER_CHUNK_BYTES + 1, 100_000_000].map(chunkCount)).toEqual([0, 1, 1, 2, 96]);
  });

  it('the Transfer body carries the record with ISO times', () => {
    expect(transferBody(ready)).toEqual({
      transferId: 't1', fileName: 'a.png', mimeType: 'image/png', byteSize: 10, sha256: 'ab'.repeat(32),
      createdAt: '1970-01-01T00:00:00.000Z', expiresAt: '1970-01-01T00:00:01.000Z',
    });
  });
});
