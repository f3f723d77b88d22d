import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import openapi from '@switchboard/contracts/openapi.json' with { type: 'json' };
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
    expect(sources).toEqual(['/docs/redoc.standalone.js']);

    const script = await fetch(`${server.url}${sources[0]}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await script.text()).length).toBeGreaterThan(100_000);
  });
});
