// Builds the console into dist/: index.html, one JS bundle and one CSS file under assets/, their
// names carrying a hash of their content (the server lets browsers keep them for good). No inline
// script or style, nothing from elsewhere: the page's policy allows only its own origin.
// Usage: node build.ts [--watch]
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const here = import.meta.dirname;
const dist = join(here, 'dist');
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

const { metafile } = await build({
  entryPoints: { console: join(here, 'src/app/main.tsx') },
  outdir: join(dist, 'assets'),
  entryNames: '[name]-[hash]',
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022', 'chrome110', 'firefox110', 'safari16'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  sourcemap: 'linked',
  legalComments: 'linked',
  metafile: true,
  logLevel: 'warning',
});

const outputs = Object.entries(metafile.outputs);
const script = outputs.find(([path, output]) => path.endsWith('.js') && output.entryPoint);
if (!script) throw new Error('esbuild wrote no script');
const style = script[1].cssBundle;
if (!style) throw new Error('esbuild wrote no stylesheet');

const template = readFileSync(join(here, 'src/index.html'), 'utf8');
const page = template.replace('%SCRIPT%', `/console/assets/${basename(script[0])}`).replace('%STYLE%', `/console/assets/${basename(style)}`);
writeFileSync(join(dist, 'index.html'), page);
console.log(`console built in ${dist}: ${basename(script[0])}, ${basename(style)}`);
