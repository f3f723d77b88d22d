// docs/media.md as a newcomer follows it: its start command (transfers on) in one terminal, then
// its upload and its send, pasted as written into a second, the transferId the upload printed put
// in place of <transferId>. The upload answers 201 with the file's SHA-256, the send 202, and the
// send settles succeeded.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './ports.ts';
import { commandsOf } from './readme.ts';

const root = resolve(import.meta.dirname, '../..');
const guide = readFileSync(join(root, 'docs/media.md'), 'utf8');
const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-media-docs-'));
let start: ChildProcess | undefined;

afterAll(async () => {
  // Ctrl-C for the start and everything in its process group; SIGKILL if it has not stopped in 15 s.
  if (start && start.exitCode === null && start.signalCode === null) {
    const exited = new Promise((r) => start!.once('exit', r));
    process.kill(-start.pid!, 'SIGINT');
    const timer = setTimeout(() => process.kill(-start!.pid!, 'SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }
  rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

/** Resolves once `text()` contains `marker`; rejects if the child exits first or in `ms`. */
function whenOutput(child: ChildProcess, text: () => string, marker: string, ms: number): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "${marker}" within ${ms} ms:\n${text()}`)), ms);
    const check = () => {
      if (!text().includes(marker)) return;
      clearTimeout(timer);
      child.stdout!.off('data', check);
      resolvePromise();
    };
    child.stdout!.on('data', check);
    child.once('exit', () => (clearTimeout(timer), reject(new Error(`exited before "${marker}":\n${text()}`))));
    check();
  });
}

let runs = 0;
/** Runs one documented command through bash after the `source` lines; curl's response headers go to a file (curl 7.88 crashes writing them to a pipe). */
function shell(command: string, sources: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string; status: number }> {
  const headers = join(dataDir, `headers-${++runs}.txt`);
  const script = [`curl() { command curl --dump-header "${headers}" "$@"; }`, ...sources, command].join('\n');
  const child = spawn('bash', ['-c', script], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((r) =>
    child.once('exit', (code) => {
      const status = Number([...(existsSync(headers) ? readFileSync(headers, 'utf8') : '').matchAll(/^HTTP\/[\d.]+ (\d{3})/gm)].at(-1)?.[1]);
      r({ code, stdout, stderr, status });
    }));
}

/** The first `command.settled` of `commandId` on the account's stream (SSE, from the start of the log). */
async function settlementOf(url: string, apiKey: string, commandId: string): Promise<{ status: string; errorCode: string | null }> {
  const response = await fetch(`${url}/v1/events?after=0`, { headers: { authorization: `Bearer ${apiKey}`, accept: 'text/event-stream' }, signal: AbortSignal.timeout(30_000) });
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body!) {
    buffer += decoder.decode(chunk as Uint8Array, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const data = buffer.slice(0, end).split('\n').find((line) => line.startsWith('data: '));
      buffer = buffer.slice(end + 2);
      const event = data ? (JSON.parse(data.slice(6)) as { type: string; data: { commandId?: string; status: string; errorCode: string | null } }) : undefined;
      // Returning from the loop cancels the stream.
      if (event?.type === 'command.settled' && event.data.commandId === commandId) return event.data;
    }
  }
  throw new Error(`the stream ended before command ${commandId} settled`);
}

describe('docs/media.md, as written', () => {
  it('starts with transfers on; the upload answers 201 with the file\'s SHA-256, the send 202, and it settles succeeded', { timeout: 300_000 }, async () => {
    const [startStep, ...others] = commandsOf(guide, 'Turning them on');
    expect(others).toEqual([]);
    expect(startStep!.command).toMatch(/^SWITCHBOARD_TRANSFERS=enabled npx -y pnpm@[\d.]+ start$/);
    const steps = commandsOf(guide, 'Send a file');
    expect(steps.map((s) => s.command.split(' ')[0])).toEqual(['source', 'curl', 'curl']);

    // The guide's ./.switchboard is this test's data directory, on a port of its own.
    const env = { ...process.env, SWITCHBOARD_DATA_DIR: dataDir, SWITCHBOARD_PORT: String(await freePort()), NO_COLOR: '1' };
    start = spawn('bash', ['-c', startStep!.command], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    start.stdout!.on('data', (d) => (output += d));
    start.stderr!.on('data', (d) => (output += d));
    await whenOutput(start, () => output, 'Switchboard is running', 180_000);
    await whenOutput(start, () => output, 'Media uploads   on', 10_000);

    const asWritten = (command: string) => command.replaceAll(/(^|\s)\.switchboard\//g, `$1${dataDir}/`);
    const [source, upload, send] = steps.map((s) => asWritten(s.command));
    const demo = Object.fromEntries([...readFileSync(join(dataDir, 'demo.env'), 'utf8').matchAll(/export (\w+)=(\S+)/g)].map((m) => [m[1]!, m[2]!]));

    const uploaded = await shell(upload!, [source!], env);
    expect(uploaded.code, uploaded.stderr).toBe(0);
    expect(uploaded.status, uploaded.stdout).toBe(201);
    const file = /--data-binary @(\S+)/.exec(upload!)![1]!;
    const transfer = JSON.parse(uploaded.stdout) as { transferId: string; sha256: string; mimeType: string; fileName: string };
    expect(transfer).toMatchObject({ fileName: 'overview.png', mimeType: 'image/png', sha256: createHash('sha256').update(readFileSync(join(root, file))).digest('hex') });

    expect(send).toContain('<transferId>');
    const sent = await shell(send!.replaceAll('<transferId>', transfer.transferId), [source!], env);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.status, sent.stdout).toBe(202);
    const { commandId } = JSON.parse(sent.stdout) as { commandId: string };
    expect(await settlementOf(demo.SWITCHBOARD_URL!, demo.SWITCHBOARD_API_KEY!, commandId)).toMatchObject({ status: 'succeeded', errorCode: null });
  });
});
