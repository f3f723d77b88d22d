import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bearerToken, hashSecret, keyHash, newSecret } from './keys.ts';

/** The header's grammar as a regular expression: what bearerToken must take, and nothing else. */
const BEARER = /^Bearer[ ]+(\S+)[ ]*$/i;
const expected = (header: string) => BEARER.exec(header)?.[1] ?? null;

describe('bearerToken', () => {
  it('takes the key of `Bearer <key>`, the scheme in any case, spaces around the key, and nothing else', () => {
    const piece = fc.constantFrom('Bearer', 'bearer', 'BEARER', 'BeArEr', 'Bearr', 'B', ' ', '  ', '\t', '\n', '\u00a0', '\u2028', 'sb_key', 'ſ', 'Ý');
    fc.assert(fc.property(fc.array(piece, { maxLength: 6 }).map((pieces) => pieces.join('')), (header) => bearerToken(header) === expected(header)), { numRuns: 5000 });
    fc.assert(fc.property(fc.string(), (rest) => bearerToken(`Bearer ${rest}`) === expected(`Bearer ${rest}`)));
    expect(bearerToken('bearer  sb_key ')).toBe('sb_key');
    expect(bearerToken(undefined)).toBeNull();
  });
});

describe('keyHash', () => {
  it('hashes the key of a connection once while its header stays the same, and again when it changes', () => {
    const connection = {};
    const first = keyHash('Bearer sb_one', connection)!;
    expect(first).toEqual(hashSecret('sb_one'));
    expect(keyHash('Bearer sb_one', connection)).toBe(first);
    expect(keyHash('Bearer sb_two', connection)).toEqual(hashSecret('sb_two'));
    // The same length, one character apart.
    expect(keyHash('Bearer sb_twp', connection)).toEqual(hashSecret('sb_twp'));
    expect(keyHash('Basic sb_two', connection)).toBeNull();
    expect(keyHash(undefined, connection)).toBeNull();
    expect(keyHash('Bearer sb_one', {})).not.toBe(first);
    expect(keyHash('Bearer sb_one', {})).toEqual(first);
  });
});

describe('newSecret', () => {
  it('marks each kind by its prefix (sb_, sbc_, sbo_), shows the prefix and six more characters, and keeps only the hash', () => {
    for (const [kind, prefix] of [['account', 'sb_'], ['connector', 'sbc_'], ['operator', 'sbo_']] as const) {
      const key = newSecret(kind);
      expect(key.secret.startsWith(prefix)).toBe(true);
      expect(key.prefix).toBe(key.secret.slice(0, prefix.length + 6));
      expect(key.hash).toEqual(hashSecret(key.secret));
    }
  });
});
