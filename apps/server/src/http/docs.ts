import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import openapi from '@switchboard/contracts/openapi.json' with { type: 'json' };
import adminOpenapi from '@switchboard/contracts/admin.openapi.json' with { type: 'json' };

/** Redoc's self-contained browser bundle, from its npm package: nothing comes from a CDN. */
export const redocBundle = createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js');

/**
 * The bundle as the pages load it. Redoc's sidebar footer ("API docs by Redocly") shows a logo
 * from its CDN, with no option to turn it off; the page's policy would refuse that request, so it
 * is never made: the address becomes an empty `data:` URI, which is no image, and Redoc drops an
 * image that fails to load (as it did when the policy refused it). The footer keeps its text.
 */
export function redocScript(): string {
  return readFileSync(redocBundle, 'utf8').replaceAll('https://cdn.redoc.ly/redoc/logo-mini.svg', 'data:,');
}

const TITLE = 'Switchboard API reference';
const head = (title = TITLE) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="data:,">
<style>body { margin: 0; }</style>`;

// Redoc injects its styles and runs its search index in a blob worker; nothing else is allowed, so
// nothing loads from elsewhere (nor is anything asked for: see redocScript).
const policy = (scripts: string) =>
  [`default-src 'none'`, `script-src ${scripts}`, 'worker-src blob:', `style-src 'self' 'unsafe-inline'`, `img-src 'self' data:`, `font-src 'self' data:`, `connect-src 'self'`, `base-uri 'none'`, `form-action 'none'`].join('; ');

const servedPage = (specUrl: string, title?: string) => `${head(title)}
</head>
<body>
<redoc spec-url="${specUrl}"></redoc>
<script src="/docs/redoc.standalone.js"></script>
</body>
</html>
`;

/** One HTML file holding the document and Redoc, for `pnpm docs`: it opens from disk, offline. */
export function staticReference(): string {
  // Inside <script>, "</script" would end the element; "<\/script" means the same to JavaScript.
  const inline = (text: string) => text.replace(/<\/(script)/gi, '<\\/$1');
  return `${head()}
<meta http-equiv="Content-Security-Policy" content="${policy(`'unsafe-inline'`)}">
</head>
<body>
<div id="reference"></div>
<script>${inline(redocScript())}</script>
<script>Redoc.init(${inline(JSON.stringify(openapi))}, {}, document.getElementById('reference'));</script>
</body>
</html>
`;
}

/**
 * `/docs` and `/docs/admin` (the rendered references of the public API and the admin API) and
 * their documents, `/openapi.json` and `/admin.openapi.json`. No key needed.
 */
export function registerDocsRoutes(app: FastifyInstance): void {
  let bundle: string | undefined;
  const pages = [
    { page: '/docs', specUrl: '/openapi.json', document: JSON.stringify(openapi), title: TITLE },
    { page: '/docs/admin', specUrl: '/admin.openapi.json', document: JSON.stringify(adminOpenapi), title: 'Switchboard admin API reference' },
  ];
  for (const { page, specUrl, document, title } of pages) {
    const html = servedPage(specUrl, title);
    app.get(specUrl, async (_request, reply) => reply.type('application/json; charset=utf-8').header('cache-control', 'no-cache').send(document));
    app.get(page, async (_request, reply) =>
      reply.type('text/html; charset=utf-8').header('content-security-policy', `${policy(`'self'`)}; frame-ancestors 'none'`).header('cache-control', 'no-cache').send(html),
    );
  }
  app.get('/docs/redoc.standalone.js', async (_request, reply) => {
    bundle ??= redocScript();
    return reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=86400').send(bundle);
  });
}
