import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandTools } from '../src/index.ts';
import { listedTools } from './support/memory.ts';

const readme = readFileSync(resolve(import.meta.dirname, '../README.md'), 'utf8');

function rows(): string[][] {
  const block = /<!-- tools:start -->([\s\S]*?)<!-- tools:end -->/.exec(readme)?.[1] ?? '';
  return block
    .trim()
    .split('\n')
    .slice(2)
    .map((row) => row.split('|').slice(1, -1).map((cell) => cell.trim().replace(/^`|`$/g, '')));
}

describe('README', () => {
  it('lists every tool the server registers, with its command type', async () => {
    const tools = await listedTools();
    expect(rows().map(([name]) => name).sort()).toEqual(tools.map((t) => t.name).sort());
    for (const tool of commandTools) expect(rows().find(([name]) => name === tool.name)?.[1], tool.name).toBe(tool.type);
  });

  it('says where its Idempotency-Keys are explained that a key reused for a different message answers the first command and sends nothing new', async () => {
    const section = /## Idempotency\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? '';
    expect(section).toMatch(/reusing a key for a different message returns the first command[^.]*and the new text is not sent/i);
    expect(section).toMatch(/use a new key for new content/i);
    // The model reads the tool's schema, not the README: the idempotencyKey input says it too.
    const send = (await listedTools()).find((t) => t.name === 'message_send')!;
    expect((send.inputSchema.properties!.idempotencyKey as { description: string }).description).toMatch(/reusing a key for a different message returns the first command .* not sent/i);
  });
});
