import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SURFACE_POLICY } from '../http/route-policy.js';
import type { Services } from '../services.js';

/** Liveness, readiness and the OpenAPI document: unauthenticated. */
export const healthRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.get(
    '/healthz',
    { config: SURFACE_POLICY.public, schema: { tags: ['operations'], operationId: 'checkLiveness', summary: 'The process is up' } },
    async () => ({ status: 'ok' }),
  );

  app.get(
    '/readyz',
    { config: SURFACE_POLICY.public, schema: { tags: ['operations'], operationId: 'checkReadiness', summary: 'The metadata store answers', errors: { 503: 'The metadata store does not answer (`store_unreachable`)' } } },
    async (_request, reply) => {
      if (await services.store.ping()) return { status: 'ready', store: services.store.kind };
      return reply.code(503).send({ error: 'Metadata store is unreachable', code: 'store_unreachable' });
    },
  );

  app.get(
    '/openapi.json',
    { config: SURFACE_POLICY.public, schema: { hide: true, response: { 200: z.any() } } },
    async () => app.swagger(),
  );
};
