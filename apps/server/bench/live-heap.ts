/**
 * What a process holds after a full collection, read through its inspector (`--inspect`): the
 * live JS heap and array buffers, free of when the collector last ran, so two builds compare by
 * one run each on a noisy machine where RSS does not.
 */
import { createServer } from 'node:net';

export interface LiveHeap { heapMb: number; arrayBuffersMb: number }

/** A loopback port free now, for a child's `--inspect`. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The NODE_OPTIONS that open a child's inspector on `port`, after any given already. */
export function inspectOn(port: number, nodeOptions = ''): Record<string, string> {
  return { NODE_OPTIONS: `${nodeOptions} --inspect=127.0.0.1:${port}`.trim() };
}

/** Collects garbage in the process whose inspector listens on `port` (twice: weak references die on the first), then reads what is left. */
export async function liveHeap(port: number): Promise<LiveHeap> {
  const [target] = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{ webSocketDebuggerUrl: string }>;
  const socket = new WebSocket(target!.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  let id = 0;
  const pending = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
    const call = message.id === undefined ? undefined : pending.get(message.id);
    if (!call) return;
    pending.delete(message.id!);
    if (message.error) call.reject(new Error(`inspector: ${message.error.message}`));
    else call.resolve(message.result);
  });
  const call = (method: string, params: object = {}) => new Promise<unknown>((resolve, reject) => {
    pending.set(++id, { resolve, reject });
    socket.send(JSON.stringify({ id, method, params }));
  });
  try {
    await call('HeapProfiler.collectGarbage');
    await call('HeapProfiler.collectGarbage');
    const read = (await call('Runtime.evaluate', { expression: 'JSON.stringify(process.memoryUsage())', returnByValue: true })) as { result: { value: string } };
    const usage = JSON.parse(read.result.value) as NodeJS.MemoryUsage;
    return { heapMb: usage.heapUsed / 1e6, arrayBuffersMb: usage.arrayBuffers / 1e6 };
  } finally {
    socket.close();
  }
}
