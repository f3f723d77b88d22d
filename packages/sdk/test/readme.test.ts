import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { errorCatalog, settlementCodes } from '../src/index.ts';
import { initOptions, readmeBlocks, typecheckBlocks } from './support/readme.ts';

const readme = readFileSync(resolve(import.meta.dirname, '../README.md'), 'utf8');
const { version } = JSON.parse(readFileSync(resolve(import.meta.dirname, '../package.json'), 'utf8')) as { version: string };

/** The README's prose: what is left with the fenced code blocks taken out. */
const prose = readme.replace(/^```[\s\S]*?^```/gm, '');

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

  it('every TypeScript block compiles alone, as pasted into a module of a project depending on the SDK (tsc --init: strict, exactOptionalPropertyTypes, nodenext)', () => {
    const options = initOptions();
    expect([options.strict, options.exactOptionalPropertyTypes, options.noEmit]).toEqual([true, true, undefined]);
    const blocks = readmeBlocks();
    expect(blocks.length).toBeGreaterThanOrEqual(10);
    expect(typecheckBlocks(blocks, options).join('\n')).toBe('');
  }, 120_000);

  it("names no version of the SDK but package.json's (Node's are Node's)", () => {
    // A dotted number standing alone: not part of an address, `HTTP/1.1` or `pnpm@10.34.9`.
    const numbers = [...prose.matchAll(/(?<![\w.@/])\d+\.\d+(?:\.\d+)?(?![\w.])/g)];
    const claims = numbers.filter((m) => !/Node(?:\.js)? (?:>= )?$/.test(prose.slice(Math.max(0, m.index - 12), m.index))).map((m) => m[0]);
    expect(claims.filter((claim) => !`${version}.`.startsWith(`${claim}.`))).toEqual([]);
  });

  it('says where Idempotency-Key is explained, and on the option, that a reused key answers the first command and does not send the new text', () => {
    const section = /### Routing paths, Idempotency-Key and retries([\s\S]*?)\n## /.exec(readme)?.[1] ?? '';
    expect(section).toMatch(/reusing a key for a different message returns the first command, and the new text is\s+not sent/i);
    expect(section).toMatch(/use a new key for new content/i);
    const option = /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*idempotencyKey\?: string/.exec(readFileSync(resolve(import.meta.dirname, '../src/types.ts'), 'utf8'))?.[1] ?? '';
    expect(option.replace(/\s*\*\s*/g, ' ')).toMatch(/reusing a key for a different message returns the first command, and the new text is not sent/i);
  });
});
