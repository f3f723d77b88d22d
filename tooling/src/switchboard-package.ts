// Packs the `switchboard` executable an operator installs outside the monorepo:
//   npm install -g ./switchboard-server-<version>.tgz
// One package, @switchboard/server, holding the server, the operator CLI and the connector host
// as bundled JavaScript (workspace packages inlined, as bundle-app.ts does), their npm
// dependencies, the Node it runs on (the npm `node` package, pinned like the root's), and
// bin/switchboard, a shell launcher that execs that Node (docs/deploying.md says why).
// Usage: node tooling/src/switchboard-package.ts [--out DIR]   (prints the tarball's path)
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { bundleEntries } from './bundle-app.ts';
import { buildConsole, copyConsoleAssets } from './console-assets.ts';

const root = resolve(import.meta.dirname, '../..');
const readJson = (path: string) => JSON.parse(readFileSync(join(root, path), 'utf8'));

/** The app's entries bundled into `outdir`, as bundle-app.ts bundles them. */
const bundle = (app: string, entries: string[], outdir: string) => bundleEntries(entries.map((entry) => join(root, app, entry)), outdir, join(root, app, 'src'));

/** The npm package an import names (`pino/file` -> `pino`, `@scope/x/y` -> `@scope/x`). */
const packageOf = (specifier: string) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

/** The sh launcher: finds the package's own Node and execs it, so the supervisor's process is the server. */
function launcher(serverNodeFlags: string[]): string {
  return `#!/bin/sh
# switchboard: the Switchboard server (serve), a connector host (connector ...) and the operator
# CLI (anything else), each run with exec on the Node this package pins (the npm package "node"),
# so a signal to this process reaches the server itself. SWITCHBOARD_NODE names another node
# (>= 22.13) instead.
self=$0
while [ -L "$self" ]; do
  link=$(readlink "$self")
  case $link in
    /*) self=$link ;;
    *) self=$(dirname "$self")/$link ;;
  esac
done
home=$(cd "$(dirname "$self")/.." && pwd -P)
node=\${SWITCHBOARD_NODE:-}
if [ -z "$node" ]; then
  # Where npm puts the dependency: nested (npm install -g), or hoisted beside the package.
  for candidate in "$home/node_modules/node/bin/node" "$home/../../node/bin/node" "$home/../node/bin/node"; do
    if [ -x "$candidate" ]; then node=$candidate; break; fi
  done
fi
if [ -z "$node" ]; then
  echo "switchboard: its Node (the npm package node, a dependency) is missing under $home/node_modules; reinstall the package (npm runs the node package's install script: not with --ignore-scripts), or set SWITCHBOARD_NODE to a node >= 22.13" >&2
  exit 69
fi
case \${1:-} in
  serve)
    shift
    exec "$node" ${serverNodeFlags.join(' ')} "$home/dist/main.js" "$@" ;;
  connector)
    shift
    exec "$node" "$home/dist/connector/main.js" "$@" ;;
  *)
    exec "$node" "$home/dist/cli/main.js" "$@" ;;
esac
`;
}

/** Packs the package into `outDir`; returns the tarball's path. */
export async function packSwitchboard(outDir: string): Promise<string> {
  const stage = mkdtempSync(join(tmpdir(), 'switchboard-package-'));
  try {
    const server = readJson('apps/server/package.json');
    const metafiles = [
      await bundle('apps/server', ['src/main.ts', 'src/cli/main.ts'], join(stage, 'dist')),
      await bundle('apps/connector', ['src/main.ts'], join(stage, 'dist/connector')),
    ];
    // The operator console (/console): its static files, built now, beside the server's bundle.
    buildConsole();
    copyConsoleAssets(metafiles[0]!, join(stage, 'dist'));

    // The npm packages the bundles import, at the versions the workspace pins them to.
    const pinned: Record<string, string> = {};
    for (const dir of ['apps/server', 'apps/connector', ...readdirSync(join(root, 'packages')).map((name) => `packages/${name}`)]) {
      if (!existsSync(join(root, dir, 'package.json'))) continue;
      for (const [name, version] of Object.entries<string>(readJson(`${dir}/package.json`).dependencies ?? {})) {
        if (!version.startsWith('workspace:')) pinned[name] ??= version;
      }
    }
    // Imported at run time by name, which esbuild does not see: libphonenumber-js (@switchboard/addresses).
    const imported = new Set(['libphonenumber-js']);
    for (const metafile of metafiles) {
      for (const output of Object.values(metafile.outputs)) {
        for (const { path, external } of output.imports) if (external && !isBuiltin(path)) imported.add(packageOf(path));
      }
    }
    const dependencies: Record<string, string> = {};
    for (const name of [...imported].sort()) {
      if (!pinned[name]) throw new Error(`the bundles import ${name}, which no workspace package depends on`);
      dependencies[name] = pinned[name]!;
    }

    // redoc: the server serves its standalone bundle (one self-contained file) at /docs, and
    // resolves it at start-up. Only that file goes along, as a bundled dependency: redoc's own
    // dependencies (React and more) are for building pages, which the server does not do.
    const redocFile = createRequire(join(root, 'apps/server/package.json')).resolve('redoc/bundles/redoc.standalone.js');
    const redocHome = resolve(dirname(redocFile), '..');
    const redoc = JSON.parse(readFileSync(join(redocHome, 'package.json'), 'utf8'));
    mkdirSync(join(stage, 'node_modules/redoc/bundles'), { recursive: true });
    copyFileSync(redocFile, join(stage, 'node_modules/redoc/bundles/redoc.standalone.js'));
    if (existsSync(`${redocFile}.LICENSE.txt`)) copyFileSync(`${redocFile}.LICENSE.txt`, join(stage, 'node_modules/redoc/bundles/redoc.standalone.js.LICENSE.txt'));
    if (existsSync(join(redocHome, 'LICENSE'))) copyFileSync(join(redocHome, 'LICENSE'), join(stage, 'node_modules/redoc/LICENSE'));
    writeFileSync(join(stage, 'node_modules/redoc/package.json'), `${JSON.stringify({ name: 'redoc', version: redoc.version, license: redoc.license, description: 'redoc.standalone.js alone, as the Switchboard server serves it' }, null, 2)}\n`);
    dependencies.redoc = redoc.version;

    // The Node it runs on: the one the monorepo pins (node:sqlite needs >= 22.13).
    const nodeVersion: string = readJson('package.json').devDependencies.node;
    dependencies.node = nodeVersion;

    mkdirSync(join(stage, 'bin'));
    writeFileSync(join(stage, 'bin/switchboard'), launcher(server.switchboard.nodeFlags));
    chmodSync(join(stage, 'bin/switchboard'), 0o755);
    const manifest = {
      name: server.name,
      version: server.version,
      description: 'Switchboard: the server, its operator CLI and the connector host, as one switchboard executable',
      type: 'module',
      bin: { switchboard: 'bin/switchboard' },
      files: ['bin', 'dist'],
      os: ['darwin', 'linux'],
      dependencies,
      bundleDependencies: ['redoc'],
    };
    writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);

    mkdirSync(outDir, { recursive: true });
    const before = new Set(readdirSync(outDir));
    execFileSync('npm', ['pack', '--pack-destination', resolve(outDir)], { cwd: stage, stdio: ['ignore', 'ignore', 'pipe'] });
    const tarball = readdirSync(outDir).find((name) => /^switchboard-server-.*\.tgz$/.test(name) && !before.has(name));
    if (tarball) return join(resolve(outDir), tarball);
    const same = join(resolve(outDir), `switchboard-server-${server.version}.tgz`);
    if (existsSync(same)) return same; // packed again over an earlier one
    throw new Error('npm pack wrote no tarball');
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { out: { type: 'string', default: '.' } } });
  console.log(await packSwitchboard(values.out));
}
