// Regenerates, then fails if packages/contracts/src/generated differs from what git has:
// a changed, deleted or new file means the committed output is stale (or was edited by hand).
import { execFileSync, spawnSync } from 'node:child_process';
import { relative } from 'node:path';
import { styleText } from 'node:util';
import { generate, outDir } from './generate.ts';
import { lintSpecs } from './lint-specs.ts';
import { repoRoot } from './specs.ts';

if (!(await lintSpecs())) process.exit(1);
await generate();

const folder = relative(repoRoot, outDir);
const git = (...args: string[]) => spawnSync('git', args, { cwd: repoRoot, encoding: 'utf8' });

// Intent-to-add makes new files show up in `git diff` as well.
execFileSync('git', ['add', '--intent-to-add', '--', folder], { cwd: repoRoot });
const diff = git('diff', '--exit-code', '--stat', '--', folder);
// Porcelain `XY path`: Y (the work tree column) or `??` means a difference from the index;
// X alone is a staged change that is simply not committed yet.
const status = git('status', '--porcelain', '--untracked-files=all', '--', folder);
const unstaged = status.stdout.split('\n').filter((line) => line.length > 3 && (line[1] !== ' ' || line.startsWith('??')));

if (diff.status === 0 && unstaged.length === 0) {
  console.log(styleText('green', `No drift: ${folder} matches the specs.`));
} else {
  if (diff.status !== 0 && diff.status !== 1) throw new Error(`git diff failed: ${diff.stderr}`);
  console.error(styleText('red', `Drift: ${folder} is out of date with specs/ (or was edited by hand).`));
  console.error(diff.stdout || unstaged.join('\n'));
  console.error(`Run \`pnpm generate\` and commit ${folder}. Full diff: git diff -- ${folder}`);
  process.exitCode = 1;
}
