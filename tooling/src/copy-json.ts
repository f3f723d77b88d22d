// Usage: node copy-json.ts <from> <to>. Copies the *.json files of <from> (not recursive) into <to>;
// used by the contracts build to ship generated/*.json next to the compiled code.
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const [from, to] = process.argv.slice(2);
if (!from || !to) throw new Error('usage: node copy-json.ts <from> <to>');
mkdirSync(to, { recursive: true });
for (const name of readdirSync(from).filter((n) => n.endsWith('.json'))) copyFileSync(join(from, name), join(to, name));
