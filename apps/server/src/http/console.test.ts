import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { consolePolicy, registerConsoleRoutes } from './console.ts';

// The built console (turbo builds @switchboard/console before these tests: turbo.json).
const app = Fastify();
registerConsoleRoutes(app);
afterAll(() => app.close());

describe('/console', () => {
  it('serves index.html under a strict policy: only its own script and style, nothing inline', async () => {
    const page = await app.inject('/console');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.body).not.toMatch(/<script>|<style|style=/);
    const sources = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    // Order by kind, not by name: the content hash decides how names sort.
    const kind = (s: string) => (s.endsWith('.css') ? 0 : s.endsWith('.js') ? 1 : 2);
    sources.sort((a, b) => kind(a) - kind(b));
    expect(sources).toEqual([expect.stringMatching(/^\/console\/assets\/console-[A-Z0-9]{8}\.css$/), expect.stringMatching(/^\/console\/assets\/console-[A-Z0-9]{8}\.js$/), 'data:,']);

    for (const source of sources.filter((s) => s.startsWith('/console/'))) {
      const asset = await app.inject(source);
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['content-type']).toBe(source.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8');
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(asset.headers['content-security-policy']).toBe(consolePolicy);
      expect(asset.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it("answers index.html for the console's own routes, so a reload keeps the page", async () => {
    for (const path of ['/console/', '/console/accounts/0190a4b2-0000-7000-8000-000000000000/keys', '/console/commands?status=failed']) {
      const page = await app.inject(path);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<div id="app">');
    }
  });

  it('answers 404 with the one error body for an asset it does not have, and reads nothing outside assets/', async () => {
    for (const path of ['/console/assets/console-AAAAAAAA.js', '/console/assets/..%2F..%2Fpackage.json', '/console/assets/index.html']) {
      const answer = await app.inject(path);
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toMatchObject({ error: 'not_found' });
    }
  });

  it('says how to build the console when it is not built', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'switchboard-console-'));
    const bare = Fastify();
    registerConsoleRoutes(bare, empty);
    try {
      const answer = await bare.inject('/console');
      expect(answer.statusCode).toBe(404);
      expect(answer.json().message).toContain('pnpm --filter @switchboard/console build');
    } finally {
      await bare.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
