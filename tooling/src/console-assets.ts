// The operator console's built files (packages/console/dist) go beside a server bundle that
// serves them: @switchboard/console's dir.ts, bundled into it, looks for them in `console/` next
// to the bundle. Used by bundle-app.ts (apps/server/dist) and switchboard-package.ts (the tarball).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Metafile } from 'esbuild';

const root = resolve(import.meta.dirname, '../..');
const consoleDist = join(root, 'packages/console/dist');

/** Builds packages/console (its build script: esbuild, well under a second). */
export function buildConsole(): void {
  execFileSync(process.execPath, [join(root, 'packages/console/build.ts')], { stdio: ['ignore', 'ignore', 'inherit'] });
}

/** Copies the built console into `<outdir>/console` when the bundle includes @switchboard/console. */
export function copyConsoleAssets(metafile: Metafile, outdir: string): void {
  const serves = Object.keys(metafile.inputs).some((input) => resolve(input).startsWith(join(root, 'packages/console/src')));
  if (!serves) return;
  if (!existsSync(join(consoleDist, 'index.html'))) {
    throw new Error('the bundle serves the console, which is not built: run `pnpm --filter @switchboard/console build` first (turbo builds it before @switchboard/server)');
  }
  const target = join(outdir, 'console');
  rmSync(target, { recursive: true, force: true });
  cpSync(consoleDist, target, { recursive: true });
}
