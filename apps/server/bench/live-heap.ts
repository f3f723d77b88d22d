/**
 * What a process holds after a full collection, read through its inspector (`--inspect`): the
 * live JS heap and array buffers, free of when the collector last ran, so two builds compare by
 * one run each on a noisy machine where RSS does not. Sizes in MB of 2^20 bytes, as the bench's RSS.
 */
import { createServer } from 'node:net';

export interface LiveHeap { heapMb: number; arrayBuffersMb: number; rssMb: number }

const MB = 2 ** 20;
const TIMEOUT_MS = 60_000;

/** A loopback port free now, for a child's `--inspect`. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The NODE_OPTIONS that open a child's inspector on `port`, after this process's own and `extra`. */
export function inspectOn(port: number, extra = ''): Record<string, string> {
  return { NODE_OPTIONS: [process.env.NODE_OPTIONS ?? '', extra, `--inspect=127.0.0.1:${port}`].join(' ').trim() };
}

/** The inspector's WebSocket address on `port`; throws at once when nothing listens there (another process took the port). */
export async function inspectorUrl(port: number): Promise<string> {
  const answer = await fetch(`http://127.0.0.1:${port}/json/list`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  const [target] = (await answer.json()) as Array<{ webSocketDebuggerUrl: string }>;
  if (!target) throw new Error(`no inspector target on port ${port}`);
  return target.webSocketDebuggerUrl;
}

/** Collects garbage in the process whose inspector listens on `port` (twice: weak references die on the first), then reads what is left. */
export async function liveHeap(port: number): Promise<LiveHeap> {
  const socket = new WebSocket(await inspectorUrl(port));
  const pending = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  const failAll = (error: Error) => {
    for (const call of pending.values()) call.reject(error);
    pending.clear();
  };
  let closedBecause = `the inspector on port ${port} closed`;
  // Past the time, the socket is closed: whatever waits (the opening, a call) fails with this.
  const timer = setTimeout(() => {
    closedBecause = `the inspector on port ${port} did not answer within ${TIMEOUT_MS / 1000} s`;
    socket.close();
  }, TIMEOUT_MS);
  socket.addEventListener('close', () => failAll(new Error(closedBecause)));
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
    const call = message.id === undefined ? undefined : pending.get(message.id);
    if (!call) return;
    pending.delete(message.id!);
    if (message.error) call.reject(new Error(`inspector: ${message.error.message}`));
    else call.resolve(message.result);
  });
  let id = 0;
  const call = (method: string, params: object = {}) => new Promise<unknown>((resolve, reject) => {
    pending.set(++id, { resolve, reject });
    socket.send(JSON.stringify({ id, method, params }));
  });
  try {
    await new Promise((resolve, reject) => {
      socket.addEventListener('open', resolve, { once: true });
      socket.addEventListener('close', () => reject(new Error(closedBecause)), { once: true });
    });
    await call('HeapProfiler.collectGarbage');
    await call('HeapProfiler.collectGarbage');
    const read = (await call('Runtime.evaluate', { expression: 'JSON.stringify(process.memoryUsage())', returnByValue: true })) as { result?: { value?: string }; exceptionDetails?: { text: string } };
    if (read.exceptionDetails || typeof read.result?.value !== 'string') throw new Error(`reading process.memoryUsage() failed: ${read.exceptionDetails?.text ?? 'no value'}`);
    const usage = JSON.parse(read.result.value) as NodeJS.MemoryUsage;
    return { heapMb: usage.heapUsed / MB, arrayBuffersMb: usage.arrayBuffers / MB, rssMb: usage.rss / MB };
  } finally {
    clearTimeout(timer);
    socket.close();
  }
}
