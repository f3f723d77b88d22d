import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { errorCatalog, settlementCodes } from '../src/index.ts';

const readme = readFileSync(resolve(import.meta.dirname, '../README.md'), 'utf8');

function table(name: string): string[][] {
  const block = new RegExp(`<!-- ${name}:start -->([\\s\\S]*?)<!-- ${name}:end -->`).exec(readme)?.[1] ?? '';
  return block
    .trim()
    .split('\n')
    .slice(2)
    .map((row) => row.split('|').slice(1, -1).map((cell) => cell.trim().replace(/^`|`$/g, '')));
}

describe('README', () => {
  it('lists every error code with the status and retry guidance of the catalog', () => {
    const rows = table('error-codes');
    expect(rows.map(([code]) => code)).toEqual(Object.keys(errorCatalog));
    for (const [code, status, retry, todo] of rows) {
      const entry = errorCatalog[code as keyof typeof errorCatalog];
      expect([status, retry], code).toEqual([String(entry.status), entry.retry]);
      expect(todo, code).not.toBe('');
    }
  });

  it('lists every settlement code with what to do', () => {
    const rows = table('settlement-codes');
    expect(rows.map(([code]) => code)).toEqual([...settlementCodes]);
    for (const [code, todo] of rows) expect(todo, code).not.toBe('');
  });
});
