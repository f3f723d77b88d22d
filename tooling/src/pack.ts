import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';

/**
 * How to run pnpm from a script: the pnpm that runs this script (npm_execpath, set by pnpm for
 * the scripts it runs) or else the one on PATH. `pnpm pack` is what applies publishConfig and
 * rewrites `workspace:` ranges, so only its tarball is what the registry would get.
 */
export function pnpmCommand(): [string, string[]] {
  const execpath = process.env.npm_execpath;
  if (execpath && basename(execpath).startsWith('pnpm')) {
    return /\.c?js$/.test(execpath) ? [process.execPath, [execpath]] : [execpath, []];
  }
  return ['pnpm', []];
}

/** Packs the package in `dir` (as `pnpm pack` would publish it) into `outDir`; returns the tarball's path. */
export function packPackage(dir: string, outDir = mkdtempSync(join(tmpdir(), 'switchboard-pack-'))): string {
  const [command, prefix] = pnpmCommand();
  const before = new Set(readdirSync(outDir));
  execFileSync(command, [...prefix, 'pack', '--pack-destination', outDir], { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] });
  const tarball = readdirSync(outDir).find((name) => name.endsWith('.tgz') && !before.has(name));
  if (!tarball) throw new Error(`pnpm pack wrote no tarball for ${dir}`);
  return join(outDir, tarball);
}

/** The newest modification time of the files under `dir`. */
function newest(dir: string): number {
  return Math.max(...readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => statSync(join(e.parentPath, e.name)).mtimeMs));
}

/**
 * Builds the package unless dist/ is newer than src/. Under turbo, `test` depends on `build`, so
 * this finds dist/ fresh and leaves it alone (a lint task may be packing it at the same time).
 */
export function ensureBuilt(dir: string): void {
  const entry = join(dir, 'dist/index.js');
  if (existsSync(entry) && statSync(entry).mtimeMs >= newest(join(dir, 'src'))) return;
  const [pnpm, prefix] = pnpmCommand();
  execFileSync(pnpm, [...prefix, 'run', 'build'], { cwd: dir, stdio: 'ignore' });
}

/**
 * The source maps (`*.map`) under `dir`, an installed package, that name a source file the
 * package does not hold and do not embed (`sourcesContent`): a debugger or an editor's "go to
 * definition" would land on nothing. Each as `map -> source`.
 */
export function brokenSourceMaps(dir: string): string[] {
  const broken: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.map') || entry.parentPath.includes('node_modules')) continue;
    const file = join(entry.parentPath, entry.name);
    const map = JSON.parse(readFileSync(file, 'utf8')) as { sources: string[]; sourcesContent?: Array<string | null> };
    map.sources.forEach((source, i) => {
      if (map.sourcesContent?.[i] == null && !existsSync(resolve(entry.parentPath, source))) broken.push(`${relative(dir, file)} -> ${source}`);
    });
  }
  return broken;
}
