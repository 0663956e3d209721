// GET /metrics: the service's counters in Prometheus text format, for a scraper holding the bearer
// token SVC_METRICS_TOKEN. Without a configured token the route does not exist (404, as any unknown
// route); with one, a request without it or with another is refused 401. Not in the API document:
// it is for operators, not API clients (docs/operations.md describes it).
import type { FastifyPluginAsync } from 'fastify';
import { AppError, UnauthenticatedError } from '../core/errors.js';
import { SURFACE_POLICY } from '../http/route-policy.js';
import type { Services } from '../services.js';
import { operatorTokenCheck } from './operator-token.js';

export const metricsRoutes: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  const authorised = operatorTokenCheck(services.config.metricsToken);

  app.get('/metrics', { config: SURFACE_POLICY.public, schema: { hide: true } }, async (request, reply) => {
    if (!services.config.metricsToken) throw new AppError(404, 'route_not_found', `No route for ${request.method} /metrics`);
    if (!authorised(request)) throw new UnauthenticatedError("GET /metrics needs 'Authorization: Bearer <SVC_METRICS_TOKEN>'", 'invalid_metrics_token');
    const text = await services.metrics.registry.metrics();
    return reply.type(services.metrics.registry.contentType).send(text);
  });
};
