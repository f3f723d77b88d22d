import pino, { type Logger } from 'pino';

/**
 * pino's destination for the server: the lines of one event-loop turn are handed to the
 * asynchronous stdout writer (sonic-boom) together, once, at the end of the turn. sonic-boom
 * measures the text it holds on every write, so a line written alone while a write was in flight
 * cost 4-10 µs; a turn's lines joined cost it once. Order is kept, and nothing waits on stdout.
 */
class TurnBatch {
  private lines: string[] = [];
  private scheduled = false;
  private readonly out: ReturnType<typeof pino.destination>;

  constructor(out: ReturnType<typeof pino.destination>) {
    this.out = out;
  }

  write(line: string): void {
    this.lines.push(line);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.pass());
  }

  /** Hands what this turn logged to the writer; also before an exit, which sonic-boom then flushes. */
  pass(): void {
    this.scheduled = false;
    if (this.lines.length === 0) return;
    const text = this.lines.length === 1 ? this.lines[0]! : this.lines.join('');
    this.lines = [];
    this.out.write(text);
  }

  /** pino's `logger.flush(cb)`. */
  flush(cb?: (error?: Error) => void): void {
    this.pass();
    this.out.flush(cb as (error?: Error) => void);
  }
}

/** The server's logger: JSON lines on stdout, written asynchronously, a turn's lines at a time. */
export function createLog(level: string): Logger {
  const batch = new TurnBatch(pino.destination({ dest: 1, sync: false }));
  // pino.destination flushes sonic-boom synchronously on exit; the turn's pending lines must
  // reach it before, so this listener goes ahead of that one.
  process.prependListener('exit', () => batch.pass());
  return pino({ level, base: { service: 'switchboard' } }, batch);
}
