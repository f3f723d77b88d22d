import { writeSync } from 'node:fs';
import pino, { type Logger } from 'pino';

/** How long a line may wait to be batched with the next ones, and how many lines go at most in one write. */
const BATCH_MS = 10;
const BATCH_LINES = 512;

/**
 * pino's destination for the server: lines are handed to the asynchronous stdout writer
 * (sonic-boom) together, at most BATCH_MS after the first of them or once BATCH_LINES wait.
 * sonic-boom measures the text it holds on every write, and each write is a hop to the thread
 * pool: with a write per event-loop turn, the request log line was 15-17 % of the server's CPU per
 * command at intake; by time, 5 % (compare.ts, 2026-11-24). Order is kept, nothing waits on stdout.
 */
class LineBatch {
  private lines: string[] = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly fd: number;
  private readonly out: ReturnType<typeof pino.destination>;

  constructor(fd: number) {
    this.fd = fd;
    this.out = pino.destination({ dest: fd, sync: false });
  }

  write(line: string): void {
    this.lines.push(line);
    if (this.lines.length >= BATCH_LINES) this.pass();
    else if (this.timer === null) this.timer = setTimeout(() => this.pass(), BATCH_MS).unref();
  }

  /** Hands the waiting lines to the writer. */
  pass(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.lines.length === 0) return;
    const text = this.lines.length === 1 ? this.lines[0]! : this.lines.join('');
    this.lines = [];
    this.out.write(text);
  }

  /** At exit: the writer's own bytes, then the waiting lines, written before the process ends. */
  passSync(): void {
    const text = this.lines.join('');
    this.lines = [];
    try {
      // Throws once pino has ended the writer (after a write made on beforeExit): nothing is left in it.
      this.out.flushSync();
    } catch {
      // nothing to flush, or stdout is closed
    }
    if (text === '') return;
    try {
      writeSync(this.fd, text);
    } catch {
      // stdout is closed: there is nowhere left to write to.
    }
  }

  /** pino's `logger.flush(cb)`. */
  flush(cb?: (error?: Error) => void): void {
    this.pass();
    this.out.flush(cb as (error?: Error) => void);
  }
}

/** The request line's own writer for each logger made by `createLog`. */
const requestLines = new WeakMap<Logger, (line: object) => void>();

/** The server's logger: JSON lines on stdout, written asynchronously, in batches. */
export function createLog(level: string): Logger {
  const batch = new LineBatch(1);
  // pino.destination ends sonic-boom on beforeExit, and on exit flushes only what no write holds;
  // the waiting lines go ahead of the first and are written synchronously on the second.
  process.prependListener('beforeExit', () => batch.pass());
  process.prependListener('exit', () => batch.passSync());
  const log = pino({ level, base: { service: 'switchboard' } }, batch);
  // pino's line, made by one JSON.stringify of the fields: pino quotes every key and value on its
  // own, and the request line was a tenth of the bytes allocated per command.
  requestLines.set(log, (line) => {
    if (log.isLevelEnabled('info')) batch.write(`{"level":30,"time":${Date.now()},"service":"switchboard",${JSON.stringify(line).slice(1, -1)},"msg":"request"}\n`);
  });
  return log;
}

/** `log.info(line, 'request')`: the same line, made more cheaply when `log` is the server's. */
export function logRequest(log: Pick<Logger, 'info'>, line: object): void {
  const write = requestLines.get(log as Logger);
  if (write) write(line);
  else log.info(line, 'request');
}
