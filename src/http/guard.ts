// The shared onRequest hook: for every route, in this order, HTTPS rule → authentication → rate limit
// → authorization (role, plan, scope). The route's config says which steps apply.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ForbiddenError } from '../core/errors.js';
import { planIncludesApi, roleAtLeast } from '../identity/roles.js';
import type { Services } from '../services.js';
import { authenticateKey, authenticateSession, refuseCrossSiteWrite } from './auth.js';
import { enforceRateLimit } from './rate-limit.js';

export const DOCS_PREFIX = '/docs';

export const guardPlugin = fp(
  async (app: FastifyInstance, { services }: { services: Services }) => {
    app.decorateRequest('principal', undefined);

    // Fail closed: a route that forgot to declare who may call it refuses to start. The API docs
    // pages, registered by their own plugin under /docs, are public.
    app.addHook('onRoute', (route) => {
      if (route.config?.auth) return;
      if (route.prefix === DOCS_PREFIX) route.config = { ...route.config, auth: 'public' };
      else throw new Error(`Route ${String(route.method)} ${route.url} declares no auth policy`);
    });

    app.addHook('onRequest', async (request, reply) => {
      const policy = request.routeOptions.config;
      // Unknown routes have no policy; the not-found handler answers them.
      if (!policy?.auth) return;
      if (policy.https === 'required' && request.protocol !== 'https') {
        throw new ForbiddenError('HTTPS is required', 'https_required');
      }
      if (policy.auth === 'public') {
        if (policy.sameOrigin) refuseCrossSiteWrite(request);
        return;
      }

      const principal =
        policy.auth === 'session'
          ? await authenticateSession(request, reply, services.sessions)
          : await authenticateKey(request, policy.auth, services.keyResolver);
      request.principal = principal;
      if (principal.key) services.lastUsed.touch(principal.key.id, services.clock.now());

      if (policy.rateLimit) {
        await enforceRateLimit(services.shared, policy.rateLimit, principal, reply, services.clock.now().getTime());
      }

      if (policy.plan === 'team' && !planIncludesApi(principal.workspace.plan)) {
        throw new ForbiddenError('API access requires the Team plan', 'plan_required');
      }
      if (policy.role && !roleAtLeast(principal.role, policy.role)) {
        throw new ForbiddenError(`This action needs the ${policy.role} role or above; yours is ${principal.role}`, 'role_required');
      }
      if (policy.scope && !principal.key?.scopes.includes(policy.scope)) {
        throw new ForbiddenError(`This key lacks the ${policy.scope} scope`, 'scope_required');
      }
    });
  },
  { name: 'guard' },
);
