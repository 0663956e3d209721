// /openapi.json is a valid OpenAPI 3.0 document that code generators can use: a strict validator
// accepts it, the recommended lint rules find nothing, every operation is named, tagged, secured as its
// route's policy says and documents its error answers with the shared Error schema.
import { compileErrors, validate } from '@readme/openapi-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/app.js';

interface Operation {
  operationId?: string;
  requestBody?: { content?: unknown };
  summary?: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  servers?: Array<{ url: string }>;
  parameters?: Array<{ in: string; name: string }>;
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}
interface Document {
  servers: Array<{ url: string }>;
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
}

let t: TestApp;
let document: Document;
let text: string;
let operations: Array<{ method: string; path: string; operation: Operation }>;

beforeAll(async () => {
  t = await startTestApp({ env: { TRUST_PROXY: 'true' } });
  const response = await t.app.inject({ method: 'GET', url: '/openapi.json' });
  text = response.body;
  document = response.json();
  operations = Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ method, path, operation })));
});
afterAll(async () => t.close());

describe('/openapi.json', () => {
  it('passes a strict OpenAPI validator ($refs resolved, schemas checked)', async () => {
    const result = await validate(JSON.parse(text));
    expect(result.valid ? 'valid' : compileErrors(result)).toBe('valid');
  });

  it('passes the recommended lint rules without an error or a warning', async () => {
    // A private service: there is no licence to name.
    const config = await createConfig({ extends: ['recommended'], rules: { 'info-license': 'off' } });
    const problems = await lintFromString({ source: text, absoluteRef: 'openapi.json', config });
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} (${p.location[0]?.pointer})`)).toEqual([]);
  });

  it('the recursive filter schema is a component that refers to itself, used by both query routes', () => {
    expect(JSON.stringify(document.components.schemas.FilterInput)).toContain('"$ref":"#/components/schemas/FilterInput"');
    const bodyOf = (path: string) => JSON.stringify(document.paths[path]!.post!);
    expect(bodyOf('/v1/query')).toContain('#/components/schemas/FilterInput');
    expect(bodyOf('/api/studio/query/cml')).toContain('#/components/schemas/FilterInput');
  });

  it('names, summarises and tags every operation, with tags the document declares', () => {
    const declared = new Set(document.tags.map((tag) => tag.name));
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { method, path, operation } of operations) {
      expect([method, path, typeof operation.operationId, typeof operation.summary]).toEqual([method, path, 'string', 'string']);
      expect(operation.tags!.every((tag) => declared.has(tag))).toBe(true);
    }
    expect(operations.length).toBeGreaterThanOrEqual(35);
  });

  // The one documented difference (docs/api.md): the console's answer may carry `sql`, the SQL behind a
  // governed answer; surface A's does not. Without that property the two answers are the same.
  function withoutAnswerSql(operation: Operation): Operation {
    const copy = structuredClone(operation);
    const schema = copy.responses['200']!.content!['application/json']!.schema as { properties: Record<string, unknown> };
    expect(schema.properties.sql).toMatchObject({ type: 'string' });
    delete schema.properties.sql;
    return copy;
  }

  it("shows the console's mirror of a key route (`consoleX` of `x`) with the key route's own parameters and bodies", () => {
    const byId = new Map(operations.map((o) => [o.operation.operationId!, o]));
    const mirrors = operations.filter(({ operation }) => {
      const id = operation.operationId!;
      return id.startsWith('console') && byId.has(id[7]!.toLowerCase() + id.slice(8));
    });
    const shape = (o: Operation) => JSON.stringify([o.parameters, o.requestBody?.content, o.responses['200']?.content]);
    for (const { path, operation } of mirrors) {
      const id = operation.operationId!;
      const twin = byId.get(id[7]!.toLowerCase() + id.slice(8))!;
      const own = id === 'consoleAskQuestion' ? withoutAnswerSql(operation) : operation;
      expect([path, twin.path, shape(own)]).toEqual([path, twin.path, shape(twin.operation)]);
    }
    // Scenes, mosaics, signals, questions, nodes, queries, the model and users.
    expect(mirrors.length).toBeGreaterThanOrEqual(30);
    const askAnswer = (id: string) => byId.get(id)!.operation.responses['200']!.content!['application/json']!.schema as { properties: Record<string, unknown> };
    expect(askAnswer('askQuestion').properties).not.toHaveProperty('sql');
  });

  it('documents the error answers of every operation with the one Error schema', () => {
    for (const { path, operation } of operations) {
      const errors = Object.entries(operation.responses).filter(([status]) => Number(status) >= 400);
      expect([path, errors.some(([status]) => status.startsWith('4')), errors.some(([status]) => status === '500')]).toEqual([path, true, true]);
      for (const [, response] of errors) expect(response.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/Error' });
    }
    expect(document.components.schemas.Error).toMatchObject({ required: ['error', 'code'] });
  });

  it('places surfaces on their hosts: the application host by default, C on the API host', () => {
    expect(document.servers.map((s) => s.url)).toEqual(['/']);
    for (const { path, operation } of operations) {
      expect([path, operation.servers?.[0]?.url]).toEqual([path, path.startsWith('/v1/') ? '{api_host}' : undefined]);
    }
  });

  it("declares each operation's security as its route's policy enforces it: without a credential, a secured one answers 401 and an open one does not", async () => {
    for (const { method, path, operation } of operations) {
      const url = path.replaceAll(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
      const response = await t.app.inject({
        method: method.toUpperCase() as 'GET',
        url,
        headers: { 'x-forwarded-proto': 'https', ...(method === 'get' ? {} : { 'content-type': 'application/json' }) },
        ...(method === 'get' ? {} : { payload: '{}' }),
      });
      const secured = (operation.security ?? []).length > 0;
      expect([method, path, secured, response.statusCode === 401]).toEqual([method, path, secured, secured]);
      for (const requirement of operation.security ?? []) {
        for (const scheme of Object.keys(requirement)) expect(document.components.securitySchemes).toHaveProperty(scheme);
      }
    }
  });
});
