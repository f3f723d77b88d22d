// Every command a reader can paste from README.md or docs/ is run by a test. The quick-start test
// (readme.test.ts) walks the sections that use the running demo; this file runs the PostgreSQL
// guide's operator commands on a real database, and holds each other command to the test or CI
// step that runs it. A command added to the docs and run nowhere fails here.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { commandsOf, commandsOutsideShellBlocks, documentedCommands } from './readme.ts';
import { database } from './start-replicas.ts';

const root = resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const docs = ['README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** The sections readme.test.ts walks on the running demo, command by command. */
const walked = new Set([
  ...commandsOf(read('README.md'), 'Quick start'),
  ...commandsOf(read('docs/operating.md'), 'The operator CLI'),
  ...commandsOf(read('docs/sending-and-reading.md'), 'Sending'),
  ...commandsOf(read('docs/sending-and-reading.md'), 'Reading'),
  ...commandsOf(read('docs/stream-and-webhooks.md'), 'The stream'),
  ...commandsOf(read('docs/stream-and-webhooks.md'), 'Webhooks'),
  ...commandsOf(read('docs/console.md'), 'Open it'),
  ...commandsOf(read('docs/console.md'), 'The CLI against a remote server'),
  ...commandsOf(read('docs/line-policies.md'), 'The policies'),
].map((step) => step.command));

/** Sections another test walks as written, command by command, reading them from the page: [file, section, the test]. */
const walkedElsewhere: Array<[string, string, string]> = [
  ['docs/bluebubbles.md', 'Steps', 'apps/connector/test/bluebubbles-stand-in.e2e.test.ts'],
  ['docs/bluebubbles.md', 'Without a Mac', 'apps/connector/test/bluebubbles-stand-in.e2e.test.ts'],
  ['docs/media.md', 'Turning them on', 'tooling/src/media-docs.test.ts'],
  ['docs/media.md', 'Send a file', 'tooling/src/media-docs.test.ts'],
];
for (const [file, heading] of walkedElsewhere) for (const { command } of commandsOf(read(file), heading)) walked.add(command);

/** Commands run elsewhere, by what runs them. */
const elsewhere: Array<[RegExp, string]> = [
  [/ pnpm@[\d.]+ (generate|drift)\b/, '.ci/run (the drift check regenerates and compares)'],
  [/ run docs\b/, '.ci/run: docs:check builds the reference and renders it in chromium'],
  [/ run console:check\b/, '.ci/run runs console:check after docs:check (it needs chromium)'],
  [/ pnpm@[\d.]+ crash\b/, 'packages/testkit/src/crash/crash.test.ts runs the campaign (fewer rounds)'],
  [/ pnpm@[\d.]+ fuzz\b/, 'apps/server/test/fuzz.http.test.ts sends the fuzzer\'s requests (fewer)'],
  [/ pnpm@[\d.]+ (changeset|version-packages|release:dry|release)\b/, 'releases: tooling/src/release.ts, run by hand (release:dry publishes nothing)'],
  [/ install && npx -y pnpm@[\d.]+ bench$/, 'docs/benchmarks.md: about ten minutes, run by hand; its figures are on that page'],
  [/apps\/server\/bench\/(scale|growth)\.ts(?! --help$)/, 'docs/benchmarks.md: ten to thirty minutes, run by hand; their figures are on that page (their --help runs here)'],
  [/ pnpm@[\d.]+ build$/, 'tooling/src/start.ts builds the apps (turbo run build) before every start, which readme.test.ts runs'],
  [/ run package\b|npm install -g --prefix|\/opt\/switchboard\/bin\/switchboard /, 'tooling/src/switchboard-package.test.ts installs the package and runs it'],
  [/ pnpm@[\d.]+ start\b/, 'tooling/src/start-replicas.test.ts runs two starts on one database; readme.test.ts the first start'],
];

/** The benchmarks page's `--help` commands, run by the test below. */
const benchHelp = () => documentedCommands(read('docs/benchmarks.md')).filter((command) => command.endsWith(' --help'));

const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-docs-'));
let drop: (() => Promise<void>) | undefined;
afterAll(async () => {
  await drop?.();
  rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describe('every documented command is run by a test', () => {
  it('each command of README.md and docs/ is walked on the demo, run here, or run by the test or CI step named for it', () => {
    const runHere = new Set([...commandsOf(read('docs/postgresql.md'), 'One database for every server').map((s) => s.command), ...benchHelp()]);
    const orphans = docs.flatMap((file) =>
      documentedCommands(read(file))
        .filter((command) => !walked.has(command) && !runHere.has(command) && !elsewhere.some(([pattern]) => pattern.test(command)))
        .map((command) => `${file}: ${command}`));
    expect(orphans).toEqual([]);
  });

  it('every shell command of README.md and docs/ is in a ```sh block, where the tests find it (not in ```text, nor in a block of no language)', () => {
    const hidden = docs.flatMap((file) => commandsOutsideShellBlocks(read(file)).map((command) => `${file}: ${command}`));
    expect(hidden).toEqual([]);
  });

  it('the benchmarks\' --help runs as written and says how to use the bench', { timeout: 60_000 }, async () => {
    expect(benchHelp().length).toBeGreaterThan(0);
    for (const command of benchHelp()) {
      const [bin, ...args] = command.split(' ');
      const { stdout } = await promisify(execFile)(join(root, bin!), args, { cwd: root });
      expect(stdout, command).toMatch(/usage: /i);
    }
  });

  it('the PostgreSQL guide\'s operator commands run as written on a PostgreSQL database', { timeout: 240_000 }, async () => {
    const db = await database(join(dataDir, 'pg'));
    drop = db.drop;
    const steps = commandsOf(read('docs/postgresql.md'), 'One database for every server');
    expect(steps.map((s) => s.command.replace(/\s+#.*$/, ''))).toEqual([
      expect.stringMatching(/^export SWITCHBOARD_DATABASE_URL=postgres:\/\//),
      'npx pnpm@10.34.9 switchboard migrate',
      'npx pnpm@10.34.9 switchboard accounts create acme',
      'npx pnpm@10.34.9 switchboard accounts list',
    ]);
    // The guide's URL names the reader's server; here it is this test's database.
    const script = steps.map((s) => (s.command.startsWith('export SWITCHBOARD_DATABASE_URL=') ? `export SWITCHBOARD_DATABASE_URL='${db.url}'` : s.command)).join('\n');
    const { stdout } = await promisify(execFile)('bash', ['-ec', script], { cwd: root, env: { ...process.env, NO_COLOR: '1', SWITCHBOARD_DATA_DIR: dataDir }, timeout: 200_000 });
    expect(stdout).toMatch(/schema migrated|up to date|version \d+/i);
    expect(stdout).toContain('acme');
  });
});
