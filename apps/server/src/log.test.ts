import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/** Runs `body` in a fresh Node process with the server's logger as `log`; its stdout, one record a line. */
async function written(body: string, level = 'info'): Promise<string> {
  const script = `import { createLog, logRequest } from ${JSON.stringify(join(import.meta.dirname, 'log.ts'))};\nconst log = createLog('${level}');\n${body}`;
  return (await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })).stdout;
}

async function logged(body: string, level?: string): Promise<Array<Record<string, unknown>>> {
  return (await written(body, level)).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('the server log', () => {
  it('writes every line, in order, across turns', async () => {
    const lines = await logged(`
      log.info({ n: 1 }, 'request');
      log.info({ n: 2 }, 'request');
      await new Promise((resolve) => setImmediate(resolve));
      log.info({ n: 3 }, 'request');
      await new Promise((resolve) => setTimeout(resolve, 20));
    `);
    expect(lines.map((line) => line.n)).toEqual([1, 2, 3]);
    expect(lines[0]).toMatchObject({ level: 30, service: 'switchboard', msg: 'request' });
  });

  it('writes a line within moments while the process runs on, not only at exit', async () => {
    const lines = await logged(`
      log.info({ n: 1 }, 'request');
      await new Promise((resolve) => setTimeout(resolve, 200));
      (await import('node:fs')).writeSync(1, JSON.stringify({ msg: 'written directly, 200 ms later' }) + '\\n');
      await new Promise((resolve) => setTimeout(resolve, 50));
    `);
    expect(lines.map((line) => line.msg)).toEqual(['request', 'written directly, 200 ms later']);
  });

  it('writes the lines of the turn in which the process exits', async () => {
    const lines = await logged(`
      log.info({ n: 1 }, 'request');
      log.error('last words');
      process.exit(0);
    `);
    expect(lines.map((line) => line.msg)).toEqual(['request', 'last words']);
  });

  it("writes the request line as pino writes it: the same fields, in the same order, the same bytes", async () => {
    const out = await written(`
      const lines = [
        { reqId: 'r1', method: 'POST', url: '/v1/commands/message.send', status: 202, accountId: 'a1', commandId: 'c1', routingPath: 'agent-turn' },
        { reqId: 'r2', method: 'POST', url: '/v1/commands/x?q="\\\\\\u0001é' + 'y'.repeat(120), status: 401, error: 'unauthenticated', accountId: undefined },
        { method: 'GET', url: '/v1/commands/1', status: 200, ms: 0.25 },
      ];
      for (const line of lines) {
        log.info(line, 'request');
        logRequest(log, line);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    `);
    const lines = out.trim().split('\n').map((line) => line.replace(/"time":\d+/, '"time":0'));
    expect(lines).toHaveLength(6);
    for (let i = 0; i < 6; i += 2) expect(lines[i + 1]).toBe(lines[i]);
    expect(JSON.parse(lines[2]!)).toMatchObject({ level: 30, service: 'switchboard', status: 401, error: 'unauthenticated', msg: 'request' });
  });

  it('writes the waiting lines when the process ends on its own, every time', async () => {
    // The lines wait for their batch when the event loop empties; a write begun on 'exit' was lost in about a third of runs.
    const runs = await Promise.all(Array.from({ length: 12 }, () => logged(`log.info({ n: 1 }, 'request'); log.warn('last');`)));
    for (const lines of runs) expect(lines.map((line) => line.msg)).toEqual(['request', 'last']);
  });

  it('writes no request line when info is off', async () => {
    expect((await logged(`logRequest(log, { status: 202 }); log.warn('only this');`, 'warn')).map((line) => line.msg)).toEqual(['only this']);
  });
});
