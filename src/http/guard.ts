// The shared request guard. For every route, in this order: HTTPS rule → authentication → rate limit
// → authorization (role, plan, scope), as the route's config says. The guard is attached to each
// route when it is registered, closed over that route's policy, so public routes pay nothing for it.
// On key routes, a request refused before its key is accepted spends its client address's budget
// instead of a key's (see rate-limit.ts), and so does an unknown route under a key surface's prefix.
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, ForbiddenError, RateLimitedError } from '../core/errors.js';
import { planIncludesApi, roleAtLeast } from '../identity/roles.js';
import { grantedScopes } from '../identity/principal.js';
import type { Services } from '../services.js';
import { authenticateSession, refuseCrossSiteWrite } from './auth.js';
import { admitAgent } from './agent-admission.js';
import { admitKey, spenderOf, type Admission } from './key-admission.js';
import { applyRateLimit, countRequest, spendUnauthenticated } from './rate-limit.js';
import { KEY_SURFACE_PREFIXES, type RateLimitPolicyName, type RoutePolicy } from './route-policy.js';

export const DOCS_PREFIX = '/docs';

export const guardPlugin = fp(
  async (app: FastifyInstance, { services }: { services: Services }) => {
    app.decorateRequest('principal', undefined);

    // An unknown route under a key surface's prefix is answered without looking at any key (a 404
    // costs nothing to look up), so it spends the address's budget and carries its headers.
    // (Callback-style: the requests that match a route, nearly all, pass without a microtask turn.)
    app.addHook('onRequest', (request, reply, done) => {
      if (!(request.is404 && onKeySurface(request.url))) return done();
      spendUnauthenticated(services.shared, reply, request.ip, services.clock.now().getTime()).then(() => done(), done);
    });

    app.addHook('onRoute', (route) => {
      let policy = route.config as Partial<RoutePolicy> | undefined;
      if (!policy?.auth) {
        // Fail closed: a route that forgot to declare who may call it refuses to start. The API docs
        // pages, registered by their own plugin under /docs, are public.
        if (route.prefix !== DOCS_PREFIX) throw new Error(`Route ${String(route.method)} ${route.url} declares no auth policy`);
        policy = { ...policy, auth: 'public' };
        route.config = policy;
      }
      const guard = guardFor(policy as RoutePolicy, services);
      if (guard) route.onRequest = [guard, ...(route.onRequest ? [route.onRequest].flat() : [])];
    });
  },
  { name: 'guard' },
);

/** A refusal the client caused (not a spent budget, which was counted already, nor our failure). */
function isRefusal(error: unknown): boolean {
  return error instanceof AppError && error.status < 500 && !(error instanceof RateLimitedError);
}

function onKeySurface(url: string): boolean {
  const path = url.split('?', 1)[0]!;
  return KEY_SURFACE_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

function guardFor(policy: RoutePolicy, services: Services): onRequestAsyncHookHandler | undefined {
  if (policy.auth === 'public') {
    if (!policy.sameOrigin) return undefined;
    return async (request: FastifyRequest) => refuseCrossSiteWrite(request);
  }
  const { auth } = policy;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    let admission: Admission;
    try {
      if (policy.https === 'required' && request.protocol !== 'https') {
        throw new ForbiddenError('HTTPS is required', 'https_required');
      }
      admission =
        auth === 'session'
          ? await admitSession(request, reply, policy.rateLimit, services)
          : auth === 'agent'
            ? await admitAgent(request, policy.rateLimit, services)
            : await admitKey(request, auth, policy.rateLimit, services);
    } catch (error) {
      // On a key route, an answer given before a key was accepted spends the address's budget, whose
      // headers it carries (spec section 8: every response). Sessions have their sign-in throttle.
      if (auth !== 'session' && isRefusal(error)) await spendUnauthenticated(services.shared, reply, request.ip, services.clock.now().getTime());
      throw error;
    }
    const { principal, window } = admission;
    request.principal = principal;
    // From here on, every line logged for the request names who made it (the key's id, never its value).
    request.log = reply.log = request.log.child({ workspaceId: principal.workspace.id, ...(principal.key ? { keyId: principal.key.id } : { userId: principal.user.id }) });
    const now = services.clock.now();
    if (principal.key) services.lastUsed.touch(principal.key.id, now);
    if (policy.rateLimit && window) applyRateLimit(reply, policy.rateLimit, spenderOf(principal), window, now.getTime());

    if (policy.plan === 'team' && !planIncludesApi(principal.workspace.plan)) {
      throw new ForbiddenError('API access requires the Team plan', 'plan_required');
    }
    if (policy.role && !roleAtLeast(principal.role, policy.role)) {
      throw new ForbiddenError(`This action needs the ${policy.role} role or above; yours is ${principal.role}`, 'role_required');
    }
    if (policy.scope && !grantedScopes(principal).includes(policy.scope)) {
      throw new ForbiddenError(`This key lacks the ${policy.scope} scope`, 'scope_required');
    }
  };
}

async function admitSession(
  request: FastifyRequest,
  reply: FastifyReply,
  rateLimit: RateLimitPolicyName | undefined,
  services: Services,
): Promise<Admission> {
  const principal = await authenticateSession(request, reply, services.sessions);
  return rateLimit ? { principal, window: await countRequest(services.shared, rateLimit, spenderOf(principal)) } : { principal };
}
