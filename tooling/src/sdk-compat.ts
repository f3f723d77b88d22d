// Run by `pnpm version-packages`, after `changeset version` has set the new versions: copies the
// SDK's type-level API test, as released in this version, to packages/sdk/test/compat/<version>/
// and drops the previous copy. From then on CI typechecks that copy against the SDK as it changes
// (it is a *.test-d.ts file, so `vitest` typechecks it and `tsc` includes it): a change that
// breaks code written against the last release fails it. A major release replaces it.
import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const sdk = resolve(import.meta.dirname, '../../packages/sdk');
const compat = join(sdk, 'test/compat');
const { version } = JSON.parse(readFileSync(join(sdk, 'package.json'), 'utf8')) as { version: string };
const target = join(compat, version);

if (existsSync(target)) {
  console.log(`test/compat/${version} exists; nothing to do.`);
} else {
  for (const entry of readdirSync(compat, { withFileTypes: true })) {
    if (entry.isDirectory()) rmSync(join(compat, entry.name), { recursive: true });
  }
  cpSync(join(sdk, 'test/api.test-d.ts'), join(target, 'api.test-d.ts'));
  console.log(`Copied test/api.test-d.ts to test/compat/${version}/: later SDKs must keep compiling it.`);
}
