// The console's files are served at its page paths with security headers, never shadowing the API; a
// missing build answers a page saying how to build it, and the API keeps working.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { CLIENT_ROUTES } from '../src/surfaces/web/client-routes.js';
import { ensureConsoleBuilt } from './browser/harness.js';
import { startTestApp, type TestApp } from './helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  ensureConsoleBuilt();
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('with the console built', () => {
  it('answers every page path with the HTML, a nonce on its tags and the same nonce in the CSP', async () => {
    for (const { path: url } of CLIENT_ROUTES) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      const nonce = /'nonce-([^']+)'/.exec(String(response.headers['content-security-policy']))![1]!;
      expect(response.body).toContain(`<script nonce="${nonce}" type="module"`);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });

  it('serves the built files with their type, and refuses names outside the assets folder', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/' });
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(page.body)![1]!;
    const asset = await t.app.inject({ method: 'GET', url: script });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toMatch(/^text\/javascript/);
    expect(asset.headers['cache-control']).toMatch(/immutable/);
    for (const url of ['/assets/..%2Fpackage.json', '/assets/nope.js', '/assets/..%2F..%2Fweb%2Fdist%2Findex.html']) {
      const refused = await t.app.inject({ method: 'GET', url });
      expect(refused.statusCode).toBe(404);
      expect(refused.json().error).toBeTypeOf('string');
    }
  });

  it('never shadows the API: unknown /api and /v1 paths stay JSON 404s, and old entry points redirect', async () => {
    for (const url of ['/api/nope', '/v1/nope', '/api/v1/nope', '/api', '/v1', '/api/keys/nope/more']) {
      const response = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
      expect(response.statusCode).toBe(404);
      expect(response.json().code).toBe('route_not_found');
    }
    // A key surface's unknown path still spends the address's budget, and says so.
    const keyed = await t.app.inject({ method: 'GET', url: '/v1/nope', headers: { accept: 'text/html' } });
    expect(keyed.headers['x-ratelimit-limit']).toBeDefined();
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json().status).toBe('ok');
    const studio = await t.app.inject({ method: 'GET', url: '/studio' });
    expect(studio.statusCode).toBe(302);
    expect(studio.headers.location).toBe('/sql');
  });
});

describe('an unknown page', () => {
  const browser = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

  it("answers a browser the console's own not-found page: 404, HTML, the policy and its nonce", async () => {
    for (const url of ['/nope', '/keys/nope', '/sql/history/1', '/Keys', '/assets', '/nope?x=1']) {
      const response = await t.app.inject({ method: 'GET', url, headers: browser });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      const nonce = /'nonce-([^']+)'/.exec(String(response.headers['content-security-policy']))![1]!;
      expect(response.body).toContain(`<script nonce="${nonce}" type="module"`);
    }
    const head = await t.app.inject({ method: 'HEAD', url: '/nope', headers: browser });
    expect([head.statusCode, head.headers['content-type']]).toEqual([404, expect.stringMatching(/^text\/html/)]);
  });

  it("answers anything but a browser's page request with the JSON 404", async () => {
    for (const headers of [{}, { accept: 'application/json' }, { accept: '*/*' }]) {
      const response = await t.app.inject({ method: 'GET', url: '/nope', headers });
      expect([response.statusCode, response.json().code]).toEqual([404, 'route_not_found']);
    }
    const post = await t.app.inject({ method: 'POST', url: '/nope', headers: { ...browser, 'content-type': 'application/json' }, payload: '{}' });
    expect([post.statusCode, post.json().code]).toEqual([404, 'route_not_found']);
  });
});

describe('without a build', () => {
  it('answers a plain page saying how to build, and the API still works', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'svc-no-console-'));
    const app = await buildApp({ services: t.services, consoleDir: empty });
    try {
      const page = await app.inject({ method: 'GET', url: '/' });
      expect(page.statusCode).toBe(503);
      expect(page.body).toContain('npm run build:console');
      expect(page.headers['content-security-policy']).toMatch(/default-src 'self'/);
      expect((await app.inject({ method: 'GET', url: '/assets/index.js' })).statusCode).toBe(404);
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
      // An unknown page: a plain not-found page, still under the policy.
      const missing = await app.inject({ method: 'GET', url: '/nope', headers: { accept: 'text/html' } });
      expect([missing.statusCode, missing.headers['content-type']]).toEqual([404, expect.stringMatching(/^text\/html/)]);
      expect(missing.body).toMatch(/No page at/);
      expect(missing.headers['content-security-policy']).toMatch(/default-src 'self'/);
    } finally {
      await app.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
