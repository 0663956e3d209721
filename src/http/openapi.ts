// OpenAPI generated from the routes' zod schemas and policies, served at /openapi.json, with a docs
// page at /docs. The test suite validates it strictly and lints it (test/openapi.test.ts).
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { filterSchema } from '../core/semantic/query.js';
import { DOCS_PREFIX } from './guard.js';
import { ERROR_RESPONSES_KEY, operationFacts, type ErrorStatus } from './openapi-operations.js';
import { errorSchema } from './schemas.js';

type JsonObject = Record<string, unknown>;

/**
 * Schemas emitted once under components and referenced by `$ref`. The filter schema is recursive, so
 * it cannot be inlined; the error schema is shared by every error answer. Input schemas are named
 * with an `Input` suffix by the transform (`FilterInput`); unused variants are dropped. The ids go in
 * zod's global registry because the descriptions (`.describe()`) live there too.
 */
const COMPONENTS: ReadonlyArray<[z.ZodType, string]> = [
  [filterSchema, 'Filter'],
  [errorSchema, 'Error'],
];

function registerComponents(): void {
  for (const [schema, id] of COMPONENTS) {
    const meta = z.globalRegistry.get(schema);
    if (meta?.id !== id) z.globalRegistry.add(schema, { ...meta, id });
  }
}

const TAGS = [
  { name: 'A. question', description: 'Questions in plain language, answered from governed reveals (`/api/v1`, question keys)' },
  { name: 'B. workspace', description: 'Workspace, projects, nodes and read-only raw SQL (`/api/v1`, workspace keys, HTTPS, Team plan)' },
  { name: 'C. structured', description: 'Structured queries, nodes, model writes and users (`/v1` on the API host, structured keys with scopes)' },
  { name: 'D. studio', description: 'The SQL editor backend (`/api/studio`, console session, tracer role or above)' },
  { name: 'console', description: 'Sign-in, API keys, connections, members, history, webhooks and content, and the question and structured routes for the signed-in user (`/api`, console session)' },
  { name: 'operations', description: 'Liveness and readiness probes' },
  { name: 'MCP', description: 'The Model Context Protocol endpoint for agents (`/mcp`, Streamable HTTP, structured keys with scopes); see docs/mcp.md' },
];

const RETRY_AFTER = { 'Retry-After': { description: 'Seconds until a retry may succeed', schema: { type: 'integer' } } };
const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { description: 'The budget of the window', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in this window', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'End of this window, in Unix epoch seconds', schema: { type: 'integer' } },
};

export const openapiPlugin = fp(
  async (app: FastifyInstance) => {
    registerComponents();
    const zodTransform = createJsonSchemaTransform({ skipList: [] });
    const zodTransformObject = createJsonSchemaTransformObject({});
    const defaultBodyLimit = app.initialConfig.bodyLimit ?? 1024 * 1024;

    await app.register(swagger, {
      openapi: {
        openapi: '3.0.3',
        info: {
          title: 'Governed Analytics Service',
          version: '1',
          description:
            'A: question API (/api/v1, svc_sk_ keys). B: workspace API (/api/v1, svc_ + 64 hex keys, HTTPS, Team plan). ' +
            'C: structured API (/v1 on the API host, svc_api_ keys). D: SQL editor backend (/api/studio, session). Console: /api (session). ' +
            'Every error is JSON `{"error", "code"}` (the Error schema).',
        },
        servers: [{ url: '/', description: 'The application host (the one that served this document): the console at /api, A and B at /api/v1, D at /api/studio' }],
        tags: TAGS,
        components: {
          securitySchemes: {
            questionKey: { type: 'http', scheme: 'bearer', description: 'A question key: svc_sk_…' },
            workspaceKey: { type: 'http', scheme: 'bearer', description: 'A workspace key: svc_ followed by 64 hex characters' },
            structuredKey: { type: 'http', scheme: 'bearer', description: 'A structured key: svc_api_…, with scopes' },
            session: { type: 'apiKey', in: 'cookie', name: 'svc_session', description: 'The console session cookie, set by POST /api/auth/login' },
          },
        },
      },
      // Paths are documented in full (/api/…, /v1/…): the two hosts are told apart by servers.
      stripBasePath: false,
      transform: (document) => {
        const { schema, url } = zodTransform(document);
        if (!schema || schema.hide) return { schema, url };
        const { errors, ...rest } = schema as JsonObject & { errors?: Partial<Record<ErrorStatus, string>> };
        const route = document.route;
        const facts = operationFacts({
          url: route.url,
          method: route.method,
          config: route.config,
          bodyLimit: route.bodyLimit,
          hasPathParams: /\/:/.test(route.url),
          declaredErrors: errors ?? {},
          defaultBodyLimit,
        });
        return { schema: { ...rest, ...facts }, url };
      },
      transformObject: (document) => {
        const openapi = zodTransformObject(document) as JsonObject;
        addErrorResponses(openapi);
        dropUnusedSchemas(openapi);
        typeNullableUnions(openapi);
        return openapi;
      },
    });
    await app.register(swaggerUi, { routePrefix: DOCS_PREFIX });
  },
  { name: 'openapi' },
);

/** Turns each operation's error list into responses that share the Error schema. */
function addErrorResponses(openapi: JsonObject): void {
  for (const operation of operationsOf(openapi)) {
    const errors = (operation[ERROR_RESPONSES_KEY] ?? {}) as Record<string, string>;
    delete operation[ERROR_RESPONSES_KEY];
    const responses = (operation.responses ??= {}) as Record<string, JsonObject>;
    const rateLimited = '429' in errors;
    if (rateLimited) {
      for (const [status, response] of Object.entries(responses)) if (status.startsWith('2')) response.headers = { ...RATE_LIMIT_HEADERS };
    }
    for (const [status, description] of Object.entries(errors)) {
      responses[status] = {
        description,
        ...(status === '429' || status === '503' ? { headers: { ...RETRY_AFTER, ...(status === '429' ? RATE_LIMIT_HEADERS : {}) } } : {}),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
  }
}

/** Components nothing refers to (the other half of an input/output pair) are left out. */
function dropUnusedSchemas(openapi: JsonObject): void {
  const schemas = ((openapi.components as JsonObject | undefined)?.schemas ?? {}) as Record<string, unknown>;
  const used = new Set<string>();
  const pending = [JSON.stringify(openapi.paths)];
  while (pending.length > 0) {
    for (const [, name] of pending.pop()!.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      if (used.has(name!) || !(name! in schemas)) continue;
      used.add(name!);
      pending.push(JSON.stringify(schemas[name!]));
    }
  }
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
}

/**
 * OpenAPI 3.0 ignores `nullable` on a schema without `type`, so a union with null (a filter's value)
 * would document that null is refused. The null moves into the union as a branch of its own.
 */
function typeNullableUnions(openapi: JsonObject): void {
  const pending: unknown[] = [openapi.paths, openapi.components];
  while (pending.length > 0) {
    const node = pending.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      pending.push(...node);
      continue;
    }
    const schema = node as JsonObject;
    const union = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
    if (schema.nullable === true && !('type' in schema) && Array.isArray(union)) {
      delete schema.nullable;
      union.push({ type: 'string', nullable: true, enum: [null], description: 'null' });
    }
    pending.push(...Object.values(schema));
  }
}

function operationsOf(openapi: JsonObject): JsonObject[] {
  const paths = (openapi.paths ?? {}) as Record<string, Record<string, JsonObject>>;
  return Object.values(paths).flatMap((item) => Object.values(item));
}
