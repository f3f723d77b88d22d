/**
 * The service scripted, for tests of what the tools answer without a server: a fetch that answers
 * each request with the next step (and records it), and a clock whose time moves only when
 * nothing else is left to do, so a wait of seconds runs at once.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Clock } from '@switchboard/sdk';
import { createContext, createServer, readConfig } from '../../src/index.ts';

export type Step = Response | ((request: Request) => Response);

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** Answers the steps in order; a request beyond them is a 400 (fatal on every path), so a test that reads more than scripted fails loudly. */
export function scriptedFetch(...steps: Step[]) {
  const requests: Request[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    requests.push(request);
    const step = steps.shift();
    if (step === undefined) return json(400, { error: 'invalid_query', message: `unscripted request ${request.method} ${request.url}` });
    return typeof step === 'function' ? step(request) : step;
  };
  return { fetch, requests, paths: () => requests.map((r) => `${r.method} ${new URL(r.url).pathname}`) };
}

/** Lets every queued promise job and I/O callback run. */
const idle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Virtual time: `run` lets everything else settle, then fires the earliest sleep. `fired` lists the sleeps that ran out. */
export class TestClock implements Clock {
  time = 1_767_225_600_000;
  readonly fired: number[] = [];
  private timers: Array<{ at: number; ms: number; resolve: () => void }> = [];

  now(): number {
    return this.time;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = { at: this.time + ms, ms, resolve };
      this.timers.push(timer);
      signal?.addEventListener('abort', () => {
        this.timers = this.timers.filter((t) => t !== timer);
        reject(signal.reason);
      }, { once: true });
    });
  }

  async run<T>(promise: Promise<T>): Promise<T> {
    let settled = false;
    promise.then(() => (settled = true), () => (settled = true));
    for (let steps = 0; steps < 10_000; steps++) {
      await idle();
      if (settled) return promise;
      if (this.timers.length === 0) {
        // Nothing to fire: something else is under way (a module loading on first use, I/O).
        for (let wait = 0; wait < 200 && !settled && this.timers.length === 0; wait++) await new Promise((resolve) => setTimeout(resolve, 5));
        if (settled) return promise;
        if (this.timers.length === 0) throw new Error('stuck: the promise is waiting on something other than the clock');
        continue;
      }
      const next = this.timers.reduce((a, b) => (b.at < a.at ? b : a));
      this.timers = this.timers.filter((t) => t !== next);
      this.time = Math.max(this.time, next.at);
      this.fired.push(next.ms);
      next.resolve();
    }
    throw new Error('still unsettled after 10,000 timers');
  }
}

/** The MCP server in this process over the in-memory transport, its client talking to `fetch`. */
export async function scriptedAgent(fetch: (request: Request) => Promise<Response>, clock?: Clock) {
  const config = readConfig({ SWITCHBOARD_API_KEY: 'sb_scripted', SWITCHBOARD_URL: 'http://switchboard.test' });
  const server = createServer(config, createContext(config, { fetch, ...(clock ? { clock } : {}) }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'scripted', version: '0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return {
    async call(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; body: Record<string, any> }> {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
      let body: Record<string, any>;
      try {
        body = JSON.parse(text) as Record<string, any>;
      } catch {
        body = { text };
      }
      return { isError: result.isError === true, body };
    },
    close: () => client.close(),
  };
}
