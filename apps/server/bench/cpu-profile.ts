/**
 * The top self-time entries of a `--cpu-prof` profile of the built server, over a window of it:
 * functions, files and packages, and the server's own functions with what they call.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join, relative, resolve } from 'node:path';
import { paths } from '@switchboard/testkit';

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; children?: number[] }
interface Profile { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] }

/** The profile `dir` holds of process `pid` (the operator CLI may have written others with the same NODE_OPTIONS). */
export function profileOf(dir: string, pid: number): string {
  const file = readdirSync(dir).find((name) => name.includes(`.${pid}.`) && name.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no profile of pid ${pid} in ${dir}`);
  return join(dir, file);
}

/**
 * Prints where the time went between `start` and `end` (performance.now() of the caller), given
 * when the profiled process exited (`exitedAt`, the same clock): the window is found from the
 * profile's end.
 */
export function printProfile(file: string, entry: string, window: { start: number; end: number; exitedAt: number }, topCount: number): void {
  const { start: loadStart, end: loadEnd, exitedAt } = window;
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  // Profile times are µs; a 100 ms margin on both sides keeps the ramp-up and the tail out.
  const from = profile.endTime - (exitedAt - loadStart - 100) * 1000;
  const to = profile.endTime - (exitedAt - loadEnd + 100) * 1000;
  // Every sample weighs the usual interval, not the time since the previous one: on a busy machine
  // the process is descheduled for milliseconds, and that wait would land on whatever it ran last
  // (a system call, mostly), not on what used the CPU.
  const interval = [...profile.timeDeltas].sort((a, b) => a - b)[Math.floor(profile.timeDeltas.length / 2)]!;
  let clock = profile.startTime;
  profile.samples.forEach((id, i) => {
    clock += profile.timeDeltas[i] ?? 0;
    if (clock >= from && clock <= to) self.set(id, (self.get(id) ?? 0) + interval);
  });

  const bundle = new SourceMap(JSON.parse(readFileSync(`${entry}.map`, 'utf8')));
  const bundleUrl = pathToFileURL(resolve(entry)).href;

  /** A frame's file, short: the package for node_modules, the internal module for Node's own, the source file for the bundle. */
  function where(url: string): string {
    if (url === '') return '';
    const pkg = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
    if (pkg) return pkg[1]!;
    if (url.startsWith('node:')) return url;
    return relative(paths.root, url.startsWith('file:') ? fileURLToPath(url) : url);
  }

  /** Where a function is: its source file and line (through the bundle's source map), else its file. */
  function source(frame: ProfileNode['callFrame']): string {
    const file = where(frame.url);
    if (frame.url === bundleUrl) {
      const mapped = bundle.findEntry(frame.lineNumber, frame.columnNumber);
      if ('originalSource' in mapped && mapped.originalSource) return `${relative(paths.root, fileURLToPath(new URL(mapped.originalSource, frame.url)))}:${mapped.originalLine + 1}`;
    }
    return file ? `${file}:${frame.lineNumber + 1}` : '';
  }

  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);

  const stack = (id: number) => {
    const frames: ProfileNode['callFrame'][] = [];
    for (let node: number | undefined = id; node !== undefined; node = parents.get(node)) frames.push(byId.get(node)!.callFrame);
    return frames;
  };
  const ours = (frame: ProfileNode['callFrame']) => frame.url.includes('/apps/server/');

  const functions = new Map<string, number>();
  /** Time with the function anywhere on the stack, for the server's own functions. */
  const inclusive = new Map<string, number>();
  const files = new Map<string, number>();
  let total = 0;
  let committing = 0;
  for (const [id, us] of self) {
    const frames = stack(id);
    const { functionName, url } = frames[0]!;
    if (functionName === '(idle)') continue;
    // The group commit's own time (the store's and the floor's `commit`, where SQLite's COMMIT
    // runs): mostly the wait for fsync. What it calls (the answers, in the floor) is work.
    if (ours(frames[0]!) && functionName === 'commit') {
      committing += us;
      continue;
    }
    total += us;
    const fn = `${functionName || '(anonymous)'}  ${source(frames[0]!)}`;
    functions.set(fn, (functions.get(fn) ?? 0) + us);
    const group = where(url) || functionName;
    files.set(group, (files.get(group) ?? 0) + us);
    const seen = new Set<string>();
    for (const frame of frames.filter(ours)) {
      const name = `${frame.functionName || '(anonymous)'}  ${source(frame)}`;
      if (!seen.has(name)) inclusive.set(name, (inclusive.get(name) ?? 0) + us);
      seen.add(name);
    }
  }

  const top = (entries: Map<string, number>) => {
    for (const [name, us] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, topCount)) {
      console.log(`${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${name}`);
    }
  };
  const table = (title: string, entries: Map<string, number>) => {
    console.log(`\n${title} (self time, % of ${(total / 1e6).toFixed(2)} s busy outside COMMIT)`);
    top(entries);
  };
  console.log(`COMMIT (the fsync wait with the WAL write): ${(committing / 1e6).toFixed(2)} s; busy outside it: ${(total / 1e6).toFixed(2)} s`);
  table('functions', functions);
  table('files and packages', files);
  console.log(`\nSwitchboard's own functions, with what they call (% of ${(total / 1e6).toFixed(2)} s)`);
  top(inclusive);
  console.log(`\nprofile: ${file}`);
}
