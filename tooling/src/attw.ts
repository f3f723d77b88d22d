// Run from a package directory (its `lint` script): packs it with pnpm, as it would be
// published, and checks the tarball with Are The Types Wrong for ESM-only consumers.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { packPackage } from './pack.ts';

const tarball = packPackage(process.cwd());
try {
  // `attw` comes from the package's own devDependencies, which pnpm puts on PATH for its scripts.
  const result = spawnSync('attw', [tarball, '--profile', 'esm-only'], { stdio: 'inherit' });
  if (result.error) throw result.error;
  process.exitCode = result.status ?? 1;
} finally {
  rmSync(dirname(tarball), { recursive: true, force: true });
}
