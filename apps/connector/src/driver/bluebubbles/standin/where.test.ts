import { describe, expect, test } from 'vitest';
import { matchesWhere } from './where.ts';

const columns = { guid: 'G-1', is_from_me: 1, is_sent: 0, is_delivered: 0, error: 0 };

describe('the stand-in\'s `where` of the message query', () => {
  test('the driver\'s proof statements: a guid by parameter, and sent, delivered or failed', () => {
    expect(matchesWhere({ statement: 'message.guid = :guid', args: { guid: 'G-1' } }, columns)).toBe(true);
    expect(matchesWhere({ statement: 'message.guid = :guid', args: { guid: 'G-2' } }, columns)).toBe(false);
    const proof = { statement: '(message.is_sent = 1 OR message.is_delivered = 1 OR message.error != 0)', args: {} };
    expect(matchesWhere(proof, columns)).toBe(false);
    expect(matchesWhere(proof, { ...columns, is_sent: 1 })).toBe(true);
    expect(matchesWhere(proof, { ...columns, error: 22 })).toBe(true);
  });

  test('AND binds tighter than OR; quoted strings compare', () => {
    expect(matchesWhere({ statement: "message.is_from_me = 0 OR message.guid = 'G-1' AND message.error = 0", args: null }, columns)).toBe(true);
    expect(matchesWhere({ statement: "(message.is_from_me = 0 OR message.guid = 'G-1') AND message.error > 0", args: null }, columns)).toBe(false);
  });

  test('an unknown column, a missing parameter or bad syntax is an error, as SQLite\'s is', () => {
    expect(() => matchesWhere({ statement: 'message.nope = 1', args: {} }, columns)).toThrow(/no such column/);
    expect(() => matchesWhere({ statement: 'message.guid = :guid', args: {} }, columns)).toThrow(/parameter/);
    expect(() => matchesWhere({ statement: 'message.guid = = 1', args: {} }, columns)).toThrow(/syntax/);
  });
});
