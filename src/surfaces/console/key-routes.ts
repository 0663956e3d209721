// API key management for the console: GET /api/keys, POST /api/keys, POST /api/keys/:id/revoke.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SURFACE_POLICY } from '../../http/route-policy.js';
import { KEY_SURFACES } from '../../store/schema.js';
import type { Services } from '../../services.js';
import { PAGE_QUERY_ERRORS, pageQuery } from './schemas.js';

const keySchema = z.object({
  id: z.string(),
  name: z.string(),
  surface: z.enum(KEY_SURFACES),
  prefix: z.string(),
  scopes: z.array(z.string()),
  rate_limit: z.number().int().nullable(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  expires_at: z.string().nullable(),
  status: z.enum(['active', 'revoked', 'expired']),
});

const createBody = z.object({
  name: z.string().trim().min(1).max(200),
  surface: z.enum(KEY_SURFACES),
  expires_at: z.iso.datetime({ offset: true }).optional(),
  scopes: z.array(z.string()).max(20).optional(),
  rate_limit: z.number().int().min(1).max(1_000_000).optional(),
});

export const keyRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/keys',
    {
      config: SURFACE_POLICY.console,
      schema: {
        tags: ['console'],
        operationId: 'listKeys',
        summary: "Lists API keys, newest first: a luminary sees the workspace's keys, others their own; pass next_cursor back as cursor",
        querystring: pageQuery,
        errors: PAGE_QUERY_ERRORS,
        response: { 200: z.object({ keys: z.array(keySchema), next_cursor: z.string().nullable() }) },
      },
    },
    async (request) => {
      const { keys, nextCursor } = await services.keys.listPage(request.principal!, request.query);
      return { keys, next_cursor: nextCursor };
    },
  );

  app.post(
    '/keys',
    {
      config: SURFACE_POLICY.console,
      schema: {
        tags: ['console'],
        operationId: 'createKey',
        summary: 'Creates an API key acting for the signed-in user; the full value is shown only in this response',
        body: createBody,
        response: { 201: z.object({ key: keySchema, value: z.string() }) },
        errors: { 403: 'A scope beyond your role, a `rate_limit` set by a non-luminary, a workspace key on a plan without API access, or a write from another origin' },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const created = await services.keys.create(request.principal!, {
        name: body.name,
        surface: body.surface,
        expiresAt: body.expires_at ? new Date(body.expires_at) : undefined,
        scopes: body.scopes,
        rateLimit: body.rate_limit,
      });
      return reply.code(201).send(created);
    },
  );

  app.post(
    '/keys/:id/revoke',
    {
      config: SURFACE_POLICY.console,
      schema: {
        tags: ['console'],
        operationId: 'revokeKey',
        summary: 'Revokes an API key; the next request with it answers 401, on every instance',
        params: z.object({ id: z.string() }),
        response: { 200: z.object({ key: keySchema }) },
        errors: { 404: 'No such key in your workspace, or another member’s key for a non-luminary (`not_found`)' },
      },
    },
    async (request) => ({ key: await services.keys.revoke(request.principal!, request.params.id) }),
  );
};
