import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { consoleDir } from '@switchboard/console';
import { sendError } from './errors.ts';

/**
 * The page may run only its own script and style, and talk only to this origin: the operator key
 * it holds in sessionStorage is as safe as this policy keeps other script out.
 */
export const consolePolicy = [
  `default-src 'none'`,
  `script-src 'self'`,
  `style-src 'self'`,
  `img-src 'self' data:`,
  `connect-src 'self'`,
  `base-uri 'none'`,
  `form-action 'none'`,
  `frame-ancestors 'none'`,
].join('; ');

const assetTypes: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  map: 'application/json; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
};
// A built asset's name: esbuild's `[name]-[hash]`, one extension (and `.map` after it), nothing else.
const assetName = /^[A-Za-z0-9_-]+-[A-Z0-9]{8}\.(js|css)(\.map|\.LEGAL\.txt)?$/;

const guarded = (reply: FastifyReply): FastifyReply =>
  reply
    .header('content-security-policy', consolePolicy)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cross-origin-opener-policy', 'same-origin')
    .header('cross-origin-resource-policy', 'same-origin');

/**
 * `/console`: the operator's web console (packages/console), static files built by its `build`.
 * Every other `/console/*` path answers index.html, so the console's own routes survive a reload;
 * the assets under /console/assets/ have hashed names and are kept by browsers for good. The page
 * needs no key to load; every call it makes goes to the admin API with the operator key.
 */
export function registerConsoleRoutes(app: FastifyInstance, dir: string = consoleDir): void {
  const page = async (_request: unknown, reply: FastifyReply) => {
    let html: Buffer;
    try {
      html = await readFile(join(dir, 'index.html'));
    } catch {
      return sendError(reply, 'not_found', 'the console is not built: run `pnpm --filter @switchboard/console build` (pnpm start and pnpm test build it)');
    }
    return guarded(reply).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
  };
  app.get('/console', page);
  app.get('/console/*', async (request, reply) => {
    const rest = (request.params as { '*': string })['*'];
    if (!rest.startsWith('assets/')) return page(request, reply);
    const name = rest.slice('assets/'.length);
    const match = assetName.exec(name);
    let body: Buffer | undefined;
    if (match) body = await readFile(join(dir, 'assets', name)).catch(() => undefined);
    if (!match || !body) return sendError(reply, 'not_found', `no console asset ${name}`);
    const type = match[3] === '.map' ? assetTypes.map! : match[3] ? assetTypes.txt! : assetTypes[match[1]!]!;
    return guarded(reply).type(type).header('cache-control', 'public, max-age=31536000, immutable').send(body);
  });
}
