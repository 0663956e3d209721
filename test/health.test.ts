import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('operations routes', () => {
  it('/healthz answers while the process is up', async () => {
    const response = await t.app.inject('/healthz');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('/readyz answers 200 while the store answers, naming what it checked', async () => {
    const response = await t.app.inject('/readyz');
    expect(response.statusCode).toBe(200);
    // Without REDIS_URL there is no Redis to check.
    expect(response.json()).toEqual({ status: 'ready', store: 'pglite', dependencies: { store: 'up' }, instance: hostname(), duckdb_files: { checked: 0, missing: 0 } });
  });

  it('/openapi.json describes the routes from their zod schemas', async () => {
    const doc = (await t.app.inject('/openapi.json')).json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/auth/login', '/api/keys', '/api/keys/{id}/revoke', '/api/v1/workspace']));
    const create = doc.paths['/api/keys'].post;
    expect(create.requestBody.content['application/json'].schema.required).toEqual(['name', 'surface']);
    expect(create.requestBody.content['application/json'].schema.properties.surface.enum).toEqual(['question', 'workspace', 'structured']);
  });

  it('/docs serves the API docs page', async () => {
    const response = await t.app.inject('/docs/');
    expect(response.statusCode).toBe(200);
    expect(response.body).toMatch(/swagger/i);
  });
});
