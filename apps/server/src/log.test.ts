import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Runs `body` in a fresh Node process with the server's logger as `log`; its stdout, one record a line. */
function logged(body: string): Array<Record<string, unknown>> {
  const script = `import { createLog } from ${JSON.stringify(join(import.meta.dirname, 'log.ts'))};\nconst log = createLog('info');\n${body}`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  return out.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('the server log', () => {
  it('writes every line, in order, across turns', () => {
    const lines = logged(`
      log.info({ n: 1 }, 'request');
      log.info({ n: 2 }, 'request');
      await new Promise((resolve) => setImmediate(resolve));
      log.info({ n: 3 }, 'request');
      await new Promise((resolve) => setTimeout(resolve, 20));
    `);
    expect(lines.map((line) => line.n)).toEqual([1, 2, 3]);
    expect(lines[0]).toMatchObject({ level: 30, service: 'switchboard', msg: 'request' });
  });

  it('writes a line within moments while the process runs on, not only at exit', () => {
    const lines = logged(`
      log.info({ n: 1 }, 'request');
      await new Promise((resolve) => setTimeout(resolve, 200));
      (await import('node:fs')).writeSync(1, JSON.stringify({ msg: 'written directly, 200 ms later' }) + '\\n');
      await new Promise((resolve) => setTimeout(resolve, 50));
    `);
    expect(lines.map((line) => line.msg)).toEqual(['request', 'written directly, 200 ms later']);
  });

  it('writes the lines of the turn in which the process exits', () => {
    const lines = logged(`
      log.info({ n: 1 }, 'request');
      log.error('last words');
      process.exit(0);
    `);
    expect(lines.map((line) => line.msg)).toEqual(['request', 'last words']);
  });
});
