import { describe, expect, it } from 'vitest';
import type { AuditRecord, CommandRecord } from '../types.ts';
import { auditBefore, auditPage, commandConditions, commandPage, failureCounts, minuteCounts } from './admin.ts';

const commandWith = (id: string) => ({ id }) as CommandRecord;
const auditWith = (id: number) => ({ id }) as AuditRecord;

describe('commandConditions', () => {
  it('asks for nothing without a filter or cursor', () => {
    expect(commandConditions({}, null)).toEqual([]);
  });

  it('combines every filter given, and goes on below the cursor', () => {
    expect(commandConditions({ accountId: 'a', status: 'failed', errorCode: 'stale_target', type: 'message.send', createdFrom: 10, createdBefore: 20 }, 'c9')).toEqual([
      { column: 'account_id', op: '=', value: 'a' },
      { column: 'status', op: '=', value: 'failed' },
      { column: 'error_code', op: '=', value: 'stale_target' },
      { column: 'type', op: '=', value: 'message.send' },
      { column: 'created_at', op: '>=', value: 10 },
      { column: 'created_at', op: '<', value: 20 },
      { column: 'id', op: '<', value: 'c9' },
    ]);
  });
});

describe('pages', () => {
  it('a command page has a next cursor (its last id) only when a row beyond the limit was read', () => {
    expect(commandPage(['c3', 'c2', 'c1'].map(commandWith), 2)).toEqual({ items: ['c3', 'c2'].map(commandWith), nextCursor: 'c2' });
    expect(commandPage(['c2', 'c1'].map(commandWith), 2)).toEqual({ items: ['c2', 'c1'].map(commandWith), nextCursor: null });
  });

  it('an audit page likewise, its cursor the last id as a string', () => {
    expect(auditPage([3, 2, 1].map(auditWith), 2)).toEqual({ items: [3, 2].map(auditWith), nextCursor: '2' });
    expect(auditPage([1].map(auditWith), 2)).toEqual({ items: [auditWith(1)], nextCursor: null });
  });

  it('an audit cursor reads below its id; no cursor reads from the newest; a malformed one reads nothing', () => {
    expect(auditBefore(null)).toBe(Number.MAX_SAFE_INTEGER);
    expect(auditBefore('42')).toBe(42);
    expect(auditBefore('x')).toBe(0);
    expect(auditBefore('-1')).toBe(0);
  });
});

describe('minuteCounts', () => {
  it('merges the accepted and settled minutes, oldest first, counting only succeeded and failed', () => {
    const counts = minuteCounts(
      [{ minute: 120_000, count: 2 }, { minute: 60_000, count: '3' }],
      [{ minute: 120_000, status: 'succeeded', count: 1 }, { minute: 180_000, status: 'failed', count: 4 }, { minute: 180_000, status: 'queued', count: 9 }],
    );
    expect(counts).toEqual([
      { minute: 60_000, accepted: 3, succeeded: 0, failed: 0 },
      { minute: 120_000, accepted: 2, succeeded: 1, failed: 0 },
      { minute: 180_000, accepted: 0, succeeded: 0, failed: 4 },
    ]);
  });

  it('is empty when nothing happened', () => {
    expect(minuteCounts([], [])).toEqual([]);
  });
});

describe('failureCounts', () => {
  it('most frequent first, ties by code', () => {
    expect(failureCounts([{ code: 'stale_target', count: 1 }, { code: 'gateway_rejected', count: '3' }, { code: 'invalid_target', count: 1 }])).toEqual([
      { code: 'gateway_rejected', count: 3 },
      { code: 'invalid_target', count: 1 },
      { code: 'stale_target', count: 1 },
    ]);
  });
});
