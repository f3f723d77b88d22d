// The breaking-change gate (`pnpm breaking`, and part of the tooling lint): compares the specs
// with their version at the base ref, prints every change that breaks clients, and fails unless
// a changeset bumps @switchboard/contracts or @switchboard/sdk by a major version, or (after
// `pnpm version-packages` consumed that changeset) the package's major version already went up.
//
// Base ref: --base <ref>, else $BREAKING_BASE, else the newest release tag
// (@switchboard/contracts@* or @switchboard/sdk@*, as `changeset publish` tags), else the merge
// base with origin/main, else HEAD (the uncommitted changes).
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs, styleText } from 'node:util';
import { parse } from 'yaml';
import { bundle, majorBumps, openApiBreakingChanges, streamAsOpenApi, type BreakingChange } from './breaking-changes.ts';
import { repoRoot, specs, type JsonObject } from './specs.ts';

const GATED = { '@switchboard/contracts': 'packages/contracts/package.json', '@switchboard/sdk': 'packages/sdk/package.json' } as const;

function git(...args: string[]): string | undefined {
  const result = spawnSync('git', args, { cwd: repoRoot, encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

function baseRef(explicit: string | undefined): string {
  if (explicit) return explicit;
  if (process.env.BREAKING_BASE) return process.env.BREAKING_BASE;
  const tags = ['@switchboard/contracts@*', '@switchboard/sdk@*'].flatMap((p) => (git('tag', '--list', p, '--sort=-creatordate') ?? '').split('\n').filter(Boolean));
  if (tags.length > 0) {
    // The newest of the release tags, by the date of the commit they point at.
    return tags.map((tag) => ({ tag, at: Number(git('log', '-1', '--format=%ct', tag) ?? 0) })).sort((a, b) => b.at - a.at)[0]!.tag;
  }
  return git('merge-base', 'HEAD', 'origin/main') ?? 'HEAD';
}

function atRef(ref: string, file: string): JsonObject | undefined {
  const relative = file.slice(repoRoot.length + 1);
  const text = git('show', `${ref}:${relative}`);
  return text === undefined ? undefined : (parse(text) as JsonObject);
}

const current = (file: string) => parse(readFileSync(file, 'utf8')) as JsonObject;

const { values } = parseArgs({ options: { base: { type: 'string' } } });
const ref = baseRef(values.base);
execFileSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], { cwd: repoRoot, stdio: 'ignore' });

const changes: Array<BreakingChange & { spec: string }> = [];
const compare = (spec: string, before: JsonObject | undefined, after: JsonObject) => {
  // A spec that did not exist at the base adds everything and breaks nothing.
  if (before) changes.push(...openApiBreakingChanges(before, after).map((c) => ({ ...c, spec })));
};
const apiBefore = atRef(ref, specs.api);
const apiAfter = current(specs.api);
compare('specs/openapi/switchboard.yaml', apiBefore, apiAfter);
const connectorBefore = atRef(ref, specs.connector);
compare(
  'specs/openapi/connector.yaml',
  connectorBefore && apiBefore ? bundle(connectorBefore, { 'switchboard.yaml': apiBefore }) : undefined,
  bundle(current(specs.connector), { 'switchboard.yaml': apiAfter }),
);
const adminBefore = atRef(ref, specs.admin);
compare(
  'specs/openapi/admin.yaml',
  adminBefore && apiBefore ? bundle(adminBefore, { 'switchboard.yaml': apiBefore }) : undefined,
  bundle(current(specs.admin), { 'switchboard.yaml': apiAfter }),
);
const streamBefore = atRef(ref, specs.events);
compare('specs/asyncapi/stream.yaml', streamBefore && streamAsOpenApi(streamBefore), streamAsOpenApi(current(specs.events)));

if (changes.length === 0) {
  console.log(styleText('green', `No breaking changes in specs/ since ${ref}.`));
  if (ref === 'HEAD') {
    // No release tag and no origin/main: only what is not committed yet was compared.
    console.log(styleText('yellow', 'No release tag (@switchboard/contracts@* or @switchboard/sdk@*) to hold the specs against yet: only uncommitted changes were checked.'));
  }
} else {
  console.log(styleText('bold', `${changes.length} breaking change(s) in specs/ since ${ref}:`));
  for (const change of changes) console.log(`  ${change.spec}: ${change.where}: ${change.description}`);
  const dir = join(repoRoot, '.changeset');
  const changesets = readdirSync(dir).filter((f) => f.endsWith('.md') && f !== 'README.md').map((f) => readFileSync(join(dir, f), 'utf8'));
  const majors = majorBumps(changesets).filter((name) => name in GATED);
  const bumped = Object.entries(GATED).filter(([, file]) => {
    const major = (text: string | undefined) => Number((JSON.parse(text ?? '{"version":"0"}') as { version: string }).version.split('.')[0]);
    return major(readFileSync(join(repoRoot, file), 'utf8')) > major(git('show', `${ref}:${file}`));
  });
  if (majors.length > 0) {
    console.log(styleText('yellow', `Accepted: a changeset bumps ${majors.join(' and ')} by a major version.`));
  } else if (bumped.length > 0) {
    console.log(styleText('yellow', `Accepted: ${bumped.map(([name]) => name).join(' and ')} went up a major version since ${ref}.`));
  } else {
    console.error(styleText('red', `These break clients. Revert them, or add a changeset with a major bump of ${Object.keys(GATED).join(' or ')} (pnpm changeset).`));
    process.exitCode = 1;
  }
}
