import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { once } from 'node:events';

/** A child process whose stdout lines (JSON where they parse) the test can await. */
export class Child {
  readonly process: ChildProcess;
  readonly lines: unknown[] = [];
  readonly stderr: string[] = [];
  private waiters: Array<{ match: (line: unknown) => boolean; resolve: (line: unknown) => void }> = [];

  /** Runs `file` on this Node, or with `executable` (e.g. `bash` with `-c`) when given. */
  constructor(file: string, args: string[], env: Record<string, string>, cwd: string, executable = process.execPath) {
    this.process = spawn(executable, [file, ...args], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    this.process.stderr!.on('data', (chunk: Buffer) => this.stderr.push(chunk.toString()));
    createInterface({ input: this.process.stdout! }).on('line', (text) => {
      let line: unknown = text;
      try {
        line = JSON.parse(text);
      } catch {
        // a plain line
      }
      this.lines.push(line);
      this.waiters = this.waiters.filter((w) => (w.match(line) ? (w.resolve(line), false) : true));
    });
  }

  /** Resolves with the first line (past or future) that matches. */
  line<T = Record<string, unknown>>(match: (line: Record<string, unknown>) => boolean): Promise<T> {
    const test = (line: unknown) => typeof line === 'object' && line !== null && match(line as Record<string, unknown>);
    const seen = this.lines.find(test);
    if (seen) return Promise.resolve(seen as T);
    return new Promise((resolve) => this.waiters.push({ match: test, resolve: resolve as (line: unknown) => void }));
  }

  /** Resolves with the exit code. */
  async exit(): Promise<number | null> {
    if (this.process.exitCode !== null) return this.process.exitCode;
    const [code] = await once(this.process, 'exit');
    return code as number | null;
  }

  /** SIGTERM to this child's PID, then its exit code. */
  async stop(): Promise<number | null> {
    this.process.kill('SIGTERM');
    return this.exit();
  }
}
