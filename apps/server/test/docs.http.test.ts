import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import openapi from '@switchboard/contracts/openapi.json' with { type: 'json' };
import adminOpenapi from '@switchboard/contracts/admin.openapi.json' with { type: 'json' };
import { startTestServer, type TestServer } from './helpers.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stopAndClean());

describe('the API reference', () => {
  it('serves the public OpenAPI document at /openapi.json, without a key', async () => {
    const response = await fetch(`${server.url}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual(openapi);
  });

  it('serves /docs as a page whose every asset comes from this server', async () => {
    const response = await fetch(`${server.url}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self'");
    const html = await response.text();
    expect(html).toContain('<redoc spec-url="/openapi.json">');
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    // The page's own assets, and an empty inline icon so the browser asks for no /favicon.ico.
    expect(sources.sort()).toEqual(['/docs/redoc.standalone.js', 'data:,']);

    const script = await fetch(`${server.url}/docs/redoc.standalone.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await script.text()).length).toBeGreaterThan(100_000);
  });

  it('serves the admin API\'s document at /admin.openapi.json and its reference at /docs/admin, without a key', async () => {
    const document = await fetch(`${server.url}/admin.openapi.json`);
    expect(document.status).toBe(200);
    expect(await document.json()).toEqual(adminOpenapi);
    const page = await fetch(`${server.url}/docs/admin`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain('<redoc spec-url="/admin.openapi.json">');
    expect(html).toContain('<title>Switchboard admin API reference</title>');
  });
});
