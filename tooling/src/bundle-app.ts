// Bundles an app's entry points into dist/ as plain JavaScript: workspace packages are inlined
// (their sources are TypeScript), npm dependencies stay external. Running JS rather than
// stripping types at start-up saves the stripper's memory (~20 MB RSS) and start-up time.
// Usage: node bundle-app.ts <entry.ts>... (run from the app's folder)
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { copyConsoleAssets } from './console-assets.ts';

const entries = process.argv.slice(2);
if (entries.length === 0) {
  console.error('usage: bundle-app.ts <entry.ts>...');
  process.exit(2);
}
rmSync('dist', { recursive: true, force: true });
const { metafile } = await build({
  entryPoints: entries,
  outdir: 'dist',
  outbase: 'src',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  sourcemap: true,
  logLevel: 'warning',
  metafile: true,
  // npm packages stay external; @switchboard/* workspace packages are bundled from source.
  plugins: [{
    name: 'externals',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@switchboard/') ? undefined : { path: args.path, external: true }));
    },
  }],
});
// A bundle that serves the operator console gets its built files beside it (dist/console).
copyConsoleAssets(metafile, 'dist');
