// Usage: node tooling/src/release.ts [--dry-run]   (root scripts `release` and `release:dry`)
//
// Builds and lints the publishable packages, packs them with `changeset pack` (pnpm pack under
// the hood: publishConfig applied, `workspace:` ranges rewritten) into .release/, and shows what
// would go out. Without --dry-run it then publishes exactly those tarballs with
// `changeset publish --from-pack-dir`, which needs registry credentials (NPM_TOKEN), and tags
// the release. Run `pnpm version-packages` and commit before releasing.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { styleText } from 'node:util';
import { repoRoot } from './specs.ts';

const dryRun = process.argv.includes('--dry-run');
const outDir = join(repoRoot, '.release');

function step(command: string, args: string[]): void {
  console.log(styleText('dim', `$ ${command} ${args.join(' ')}`));
  const result = spawnSync(command, args, { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

step('turbo', ['run', 'build', 'lint', '--filter=./packages/*', '--output-logs=errors-only']);
rmSync(outDir, { recursive: true, force: true });
step('changeset', ['pack', '--out-dir', outDir]);

interface Release { kind: string; name: string; version: string; tag?: string; tarball?: { path: string } }
const plan = JSON.parse(readFileSync(join(outDir, 'publish-plan.json'), 'utf8')) as { plan: Release[][] };
const releases = plan.plan.flat().filter((r) => r.kind === 'publish' && r.tarball);
for (const release of releases) {
  const tarball = join(outDir, release.tarball!.path);
  const files = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).trim().split('\n');
  const manifest = JSON.parse(execFileSync('tar', ['xzf', tarball, '-O', 'package/package.json'], { encoding: 'utf8' })) as { dependencies?: Record<string, string> };
  console.log(`\n${styleText('bold', `${release.name}@${release.version}`)} (${release.tag ?? 'latest'}): ${release.tarball!.path}, ${files.length} files`);
  console.log(`  dependencies: ${JSON.stringify(manifest.dependencies ?? {})}`);
}

if (dryRun) {
  console.log(styleText('green', `\nDry run: ${releases.length} package(s) packed in .release/; nothing published.`));
} else {
  step('changeset', ['publish', '--from-pack-dir', outDir]);
}
