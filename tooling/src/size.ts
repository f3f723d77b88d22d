// Usage: node size.ts <entry.js> <budget bytes> [node]. Bundles the entry as a browser app would
// (its dependencies included, minified, code-split) and fails when what loads up front, gzipped,
// is over the budget. Chunks reached only through import() load on first use and are reported
// apart. The bundle targets the neutral platform, so a Node built-in reaching it fails the build;
// with `node` (a package that only runs on Node, such as the MCP server) it targets Node and
// leaves the built-ins out.
import { gzipSync } from 'node:zlib';
import { resolve } from 'node:path';
import { styleText } from 'node:util';
import { build } from 'esbuild';

const [entry, budgetArg, platformArg] = process.argv.slice(2);
const platform = platformArg === 'node' ? 'node' : 'neutral';
const budget = Number(budgetArg);
if (!entry || !Number.isInteger(budget) || budget <= 0 || (platformArg !== undefined && platformArg !== 'node')) throw new Error('usage: node size.ts <entry.js> <budget bytes> [node]');

const outdir = resolve('.size');
const result = await build({
  entryPoints: [entry],
  bundle: true,
  minify: true,
  splitting: true,
  format: 'esm',
  platform,
  mainFields: ['module', 'main'],
  target: 'es2022',
  outdir,
  write: false,
  metafile: true,
  logLevel: 'silent',
});

const files = new Map(result.outputFiles.map((f) => [f.path, f.contents]));
const outputs = result.metafile.outputs;
const relative = (path: string) => resolve(path);
const entryOut = Object.keys(outputs).find((o) => outputs[o]!.entryPoint !== undefined)!;

// Everything the entry chunk imports statically loads with it.
const eager = new Set<string>();
const visit = (out: string) => {
  if (eager.has(out)) return;
  eager.add(out);
  for (const imported of outputs[out]!.imports) if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
};
visit(entryOut);

const gz = (out: string) => gzipSync(files.get(relative(out))!, { level: 9 }).length;
const eagerBytes = [...eager].reduce((sum, out) => sum + gz(out), 0);
const lazy = Object.keys(outputs).filter((o) => !eager.has(o) && o.endsWith('.js'));
const lazyBytes = lazy.reduce((sum, out) => sum + gz(out), 0);

const line = `${entry}: ${eagerBytes} B min+gzip up front (budget ${budget} B); ${lazyBytes} B more on demand`;
if (eagerBytes > budget) {
  console.error(styleText('red', `Over the size budget. ${line}`));
  process.exitCode = 1;
} else {
  console.log(styleText('green', line));
}
