import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../dependency-unavailable.js';
import { SURFACE_POLICY } from '../http/route-policy.js';
import type { Services } from '../services.js';
import { operatorTokenCheck } from './operator-token.js';

type Health = 'up' | 'down';

/** Liveness, readiness and the OpenAPI document: unauthenticated. */
export const healthRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const operator = operatorTokenCheck(services.config.metricsToken);

  // Liveness never looks at a dependency: an orchestrator restarting a healthy process because Redis
  // is down would only add an outage to the outage.
  app.get(
    '/healthz',
    { config: SURFACE_POLICY.public, schema: { tags: ['operations'], operationId: 'checkLiveness', summary: 'The process is up' } },
    async () => ({ status: 'ok' }),
  );

  app.get(
    '/readyz',
    {
      config: SURFACE_POLICY.public,
      schema: {
        tags: ['operations'],
        operationId: 'checkReadiness',
        summary:
          "The metadata store (and Redis, when configured) answer; a 503 names the one that does not. Also names this instance and counts the DuckDB connections whose file it lacks (listed with the operator's token), which does not fail readiness",
        errors: { 503: 'The metadata store or Redis does not answer (`service_unavailable`)' },
      },
    },
    async (request, reply) => {
      // Both checks run at once, each bounded by its client's own time limits (a few seconds at worst).
      const [store, redis] = await Promise.all([
        services.store.ping().then(health),
        services.shared.kind === 'redis' ? services.shared.ping().then(health) : undefined,
      ]);
      const dependencies = { store, ...(redis ? { redis } : {}) };
      const instance = services.config.instanceName;
      if (store === 'up' && redis !== 'down') {
        // Read once the store answered, so that an outage's answer never waits on it. A missing DuckDB
        // file fails that connection's runs only: reported, not a reason to take the instance out.
        // Which ones, by workspace and connection, is for the operator's eyes.
        const files = await services.duckDbFiles.report().catch(() => undefined);
        const duckdbFiles = files && { checked: files.checked, missing: files.missing.length, ...(operator(request) ? { missing_files: files.missing } : {}) };
        return { status: 'ready', store: services.store.kind, dependencies, instance, ...(duckdbFiles ? { duckdb_files: duckdbFiles } : {}) };
      }
      const down = [store === 'down' ? 'the metadata store' : '', redis === 'down' ? 'Redis' : ''].filter(Boolean);
      return reply
        .code(503)
        .header('Retry-After', UNAVAILABLE_RETRY_AFTER_SECONDS)
        .send({ error: `Not ready: ${down.join(' and ')} ${down.length > 1 ? 'do' : 'does'} not answer`, code: 'service_unavailable', dependencies, instance });
    },
  );

  app.get(
    '/openapi.json',
    { config: SURFACE_POLICY.public, schema: { hide: true, response: { 200: z.any() } } },
    async () => app.swagger(),
  );
};

function health(answers: boolean): Health {
  return answers ? 'up' : 'down';
}
