import { createHook } from 'node:async_hooks';

/** Tick objects made at start-up, held for the life of the process. */
const kept: object[] = [];

/**
 * Keeps `process.nextTick` on V8's fast path. node:http calls it five or six times a request, and
 * each call builds an object literal with symbol keys. In the server's process (not in a small
 * one), V8 came to build each of those objects through its runtime, a map transition per
 * property, about 3 µs of a command's CPU. Two tick objects held from start-up keep their hidden
 * classes alive, and with them the fast path. The README has the figures.
 */
export function keepTickObjects(): void {
  const noop = () => undefined;
  // The init hook is the one public way to reach a tick object; it is on for these two calls only.
  const hook = createHook({ init: (_id, type, _trigger, resource) => { if (type === 'TickObject') kept.push(resource); } }).enable();
  process.nextTick(noop);
  process.nextTick(noop, noop);
  hook.disable();
}
