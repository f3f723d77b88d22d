// `pnpm docs [file]`: writes the public API's reference as one HTML file that opens offline.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { staticReference } from './http/docs.ts';

const file = resolve(process.argv[2] ?? 'dist/api-reference.html');
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, staticReference());
console.log(`wrote ${file}`);
