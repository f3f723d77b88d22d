// Bundles an app's entry points into dist/ as plain JavaScript: workspace packages are inlined
// (their sources are TypeScript), npm dependencies stay external. Running JS rather than
// stripping types at start-up saves the stripper's memory (~20 MB RSS) and start-up time.
// Usage: node bundle-app.ts <entry.ts>... (run from the app's folder)
import { build, type Metafile, type Plugin } from 'esbuild';
import { rmSync } from 'node:fs';
import { copyConsoleAssets } from './console-assets.ts';

/** npm packages stay external; @switchboard/* workspace packages are bundled from source. */
const externals: Plugin = {
  name: 'externals',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@switchboard/') ? undefined : { path: args.path, external: true }));
  },
};

/**
 * Bundles each entry on its own, into `outdir` (mirroring `outbase`). What an entry imports with
 * `await import()` goes into chunks beside it, loaded only when that code runs: the operator CLI's
 * `--help` loads neither the store nor zod. Chunks sit at the top of `outdir`, as the server's
 * bundle does, so code that finds files beside itself (the console's) finds them from a chunk too.
 */
export async function bundleEntries(entries: string[], outdir: string, outbase: string): Promise<Metafile> {
  const merged: Metafile = { inputs: {}, outputs: {} };
  for (const entry of entries) {
    const { metafile } = await build({
      entryPoints: [entry],
      outdir,
      outbase,
      bundle: true,
      splitting: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      // With the sources' text (esbuild's default): the package holds no sources for a map to name.
      sourcemap: true,
      logLevel: 'warning',
      metafile: true,
      plugins: [externals],
    });
    Object.assign(merged.inputs, metafile.inputs);
    Object.assign(merged.outputs, metafile.outputs);
  }
  return merged;
}

if (import.meta.main) {
  const entries = process.argv.slice(2);
  if (entries.length === 0) {
    console.error('usage: bundle-app.ts <entry.ts>...');
    process.exit(2);
  }
  rmSync('dist', { recursive: true, force: true });
  const metafile = await bundleEntries(entries, 'dist', 'src');
  // A bundle that serves the operator console gets its built files beside it (dist/console).
  copyConsoleAssets(metafile, 'dist');
}
