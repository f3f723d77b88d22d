// Where the built console is, for the server to serve: packages/console/dist when the server runs
// from source, or `console/` beside the bundle when it runs bundled (tooling/src/bundle-app.ts and
// switchboard-package.ts copy the assets there, so a deployed server serves them too).
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const candidates = [join(import.meta.dirname, '../dist'), join(import.meta.dirname, 'console')];

/** The directory holding index.html and assets/; the first candidate when none is built yet. */
export const consoleDir: string = candidates.find((dir) => existsSync(join(dir, 'index.html'))) ?? candidates[0]!;
