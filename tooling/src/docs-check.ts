// `pnpm run docs:check`: opens the API reference in headless Chromium (Debian's `chromium`, or
// CHROMIUM=path) from the built server's /docs and from the file `pnpm run docs` writes, and fails
// unless each page opens with the operations (the introduction above them, the long sections
// after them), renders every command operation, asks for nothing outside its origin (not even
// what its policy would refuse) and logs no error to the console. Run by CI; the test command
// needs no browser.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import puppeteer from 'puppeteer-core';

const root = resolve(import.meta.dirname, '../..');
const openapi = JSON.parse(readFileSync(join(root, 'packages/contracts/src/generated/openapi.json'), 'utf8'));
const commandOperations: string[] = Object.entries(openapi.paths as Record<string, Record<string, { summary: string }>>)
  .filter(([path]) => /^\/v1\/commands\/[a-z_]+\.[a-z_]+$/.test(path))
  .map(([, item]) => item.post!.summary);
// The tags operations are filed under: Redoc renders each as a section `tag/<name>` (these names
// are single words, which Redoc's slug leaves as they are).
const operationTags = new Set(
  Object.values(openapi.paths as Record<string, Record<string, { tags?: string[] }>>).flatMap((item) => Object.values(item).flatMap((operation) => operation.tags ?? [])),
);

const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-docs-'));
const server = spawn(process.execPath, [join(root, 'apps/server/dist/main.js')], {
  env: { ...process.env, SWITCHBOARD_DATA_DIR: dataDir, SWITCHBOARD_PORT: '0' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise<string>((done, fail) => {
  createInterface({ input: server.stdout! }).on('line', (line) => {
    if (line.includes('switchboard listening')) done(JSON.parse(line).url);
  });
  server.once('exit', () => fail(new Error('the server stopped before listening')));
});
const file = join(dataDir, 'api-reference.html');
execFileSync(process.execPath, [join(root, 'apps/server/src/docs-build.ts'), file], { stdio: 'ignore' });

let failures = 0;
const chromium = process.env.CHROMIUM ?? '/usr/bin/chromium';
const browser = await puppeteer.launch({ executablePath: chromium, args: ['--no-sandbox'] }).catch(async (error: unknown) => {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
  console.error(`docs:check could not start Chromium at ${chromium}: install Debian's chromium (apt-get install chromium) or set CHROMIUM=/path/to/chromium\n  ${(error as Error).message.split('\n')[0]}`);
  process.exit(1);
});
try {
  for (const address of [`${url}/docs`, pathToFileURL(file).href]) {
    const origin = new URL(address).origin;
    const page = await browser.newPage();
    const problems: string[] = [];
    const blocked: string[] = [];
    page.on('console', (message) => {
      const text = message.text();
      // The page's Content-Security-Policy at work: a request to elsewhere refused, not made.
      const refused = /^Loading the \w+ '([^']+)' violates the following Content Security Policy/.exec(text);
      if (refused) blocked.push(refused[1]!);
      else if (message.type() === 'error') problems.push(`console: ${text}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${String(error)}`));
    const foreign: string[] = [];
    page.on('request', (request) => {
      const target = request.url();
      if (!target.startsWith('data:') && !target.startsWith('blob:') && new URL(target).origin !== origin) foreign.push(target);
    });
    await page.goto(address, { waitUntil: 'networkidle0' });
    const rendered = `${JSON.stringify(commandOperations)}.every((name) => document.body.innerText.includes(name))`;
    await page.waitForFunction(rendered, { timeout: 20_000 }).catch(() => {
      problems.push(`did not render every command operation (${commandOperations.join(', ')})`);
    });
    // The first section after the introduction: one of the operations' tags, not a heading of
    // info.description nor a tag of prose alone (x-traitTag).
    const first = (await page.evaluate(`document.querySelector('[data-section-id]')?.getAttribute('data-section-id') ?? null`)) as string | null;
    if (!first || !/^tag\/[^/]+$/.test(first) || !operationTags.has(first.slice('tag/'.length))) problems.push(`opens with ${first ?? 'nothing'}, not with the operations`);
    for (const target of new Set([...foreign, ...blocked])) problems.push(`asked for ${target}, outside its origin${blocked.includes(target) ? " (the page's policy refused it)" : ''}`);
    console.log(`${problems.length ? 'FAIL' : 'ok  '} ${address.startsWith('file:') ? 'static file' : '/docs'}: ${commandOperations.length} command operations`);
    for (const problem of problems) console.log(`     ${problem}`);
    failures += problems.length;
    await page.close();
  }
} finally {
  await browser.close();
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failures ? 1 : 0);
