import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** How often the event loop's utilisation is sampled. */
const EVERY_MS = 1_000;
/**
 * A second busier than this counts as activity; a quieter one counts towards a quiet spell. An
 * idle server's own timers take 0.3-2 % of a second on a busy machine (PostgreSQL's pings and
 * polls), so the line is well above that.
 */
const QUIET_BELOW = 0.05;

/**
 * Decides, one sample of event-loop utilisation at a time, when to give memory back: at the first
 * quiet sample after start-up, and after traffic once `quietSamples` samples in a row were quiet;
 * then not again until the server was busy once more. Traffic that pauses for less keeps the
 * memory it grew: giving it back costs the next 100-200 ms of load a slow start (README, "the
 * tail after a quiet spell").
 */
export function idleReducer(collect: () => void, quietSamples: number): (utilisation: number) => void {
  let armed = true;
  /** Quiet samples in a row needed: one until the first collection (start-up's). */
  let spell = 1;
  let quiet = 0;
  return (utilisation) => {
    if (utilisation >= QUIET_BELOW) {
      armed = true;
      quiet = 0;
    } else if (armed && ++quiet >= spell) {
      armed = false;
      spell = Math.max(1, quietSamples);
      collect();
    }
  };
}

/** V8's `gc` taken from a new context, so the server's own global scope has none. */
function memoryReducingGc(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (options: object) => void;
  setFlagsFromString('--no-expose-gc');
  return () => gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}

/**
 * Gives memory back once the server goes quiet. Under load V8 grows the young generation to its
 * full size (16 MB a semi-space here) and keeps it: capping it at 4 MB costs intake 4-8 % more CPU a
 * command, keeping it costs an idle server ~9 MB (README, "Idle RSS"). A memory-reducing
 * collection once the server is quiet (see `idleReducer`) shrinks it again, so the server runs
 * with the large young generation and idles without it. `quietMs`: how long a quiet spell after traffic
 * must last. `onCollected`: how long the collection took, and the RSS.
 *
 * A server that never goes quiet (10,000 idle accounts keep it above the quiet line) relies on
 * V8's own major collections instead: `--heap-growing-percent=50` (package.json, nodeFlags) lets
 * the old generation grow by half of what is live before the next one, where V8 let it grow to
 * three or four times that (docs/benchmarks.md, "Ten thousand accounts").
 */
export function reduceMemoryWhenIdle(quietMs: number, onCollected: (ms: number, rssBefore: number, rssAfter: number) => void): void {
  const gc = memoryReducingGc();
  const step = idleReducer(() => {
    const before = process.memoryUsage.rss();
    const started = performance.now();
    gc();
    onCollected(performance.now() - started, before, process.memoryUsage.rss());
  }, Math.ceil(quietMs / EVERY_MS));
  let last = performance.eventLoopUtilization();
  setInterval(() => {
    step(performance.eventLoopUtilization(last).utilization);
    // Taken after the step: a collection's own time is not activity.
    last = performance.eventLoopUtilization();
  }, EVERY_MS).unref();
}
