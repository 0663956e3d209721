// Console sign-in: POST /api/auth/login, POST /api/auth/logout, GET /api/auth/me.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Principal } from '../../identity/principal.js';
import { SESSION_COOKIE } from '../../http/auth.js';
import { SURFACE_POLICY } from '../../http/route-policy.js';
import type { Services } from '../../services.js';
import { meSchema } from './schemas.js';

const loginBody = z.object({
  email: z.string().trim().min(1).max(320),
  password: z.string().min(1).max(1024),
  workspace_id: z.uuid().optional(),
});

function describePrincipal(principal: Principal) {
  return {
    user: principal.user,
    workspace: { id: principal.workspace.id, name: principal.workspace.name, plan: principal.workspace.plan },
    role: principal.role,
    attributes: principal.attributes,
  };
}

export const authRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.post(
    '/auth/login',
    {
      config: { ...SURFACE_POLICY.public, sameOrigin: true },
      schema: {
        tags: ['console'],
        operationId: 'signIn',
        summary: 'Sign in to the console; sets the session cookie',
        body: loginBody,
        response: { 200: meSchema },
        errors: {
          401: 'Wrong e-mail or password (`invalid_credentials`), the same for an unknown e-mail',
          429: 'Too many failed attempts for this e-mail or from this address (`rate_limited`); see `Retry-After`',
          503: 'A dependency (the metadata store, or Redis when configured) does not answer (`service_unavailable`); see `Retry-After`',
        },
      },
    },
    async (request, reply) => {
      const signIn = await services.sessions.login({
        email: request.body.email,
        password: request.body.password,
        workspaceId: request.body.workspace_id,
        clientAddress: request.ip,
      });
      reply.setCookie(SESSION_COOKIE, signIn.token, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: request.protocol === 'https',
        // Relative, never an absolute Expires: the browser judges a date by its own clock, and a service
        // whose clock differs from it (drift, an injected clock) would hand out a cookie already expired.
        // The store's expires_at still ends the session at the absolute limit.
        maxAge: signIn.maxAgeSeconds,
      });
      return describePrincipal(signIn.principal);
    },
  );

  app.post(
    '/auth/logout',
    {
      config: SURFACE_POLICY.console,
      schema: { tags: ['console'], operationId: 'signOut', summary: 'Sign out: ends the session', response: { 204: z.null() } },
    },
    async (request, reply) => {
      await services.sessions.logout(request.principal!.sessionId!);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/auth/me',
    {
      config: SURFACE_POLICY.console,
      schema: { tags: ['console'], operationId: 'getSignedInUser', summary: 'The signed-in user, workspace and role', response: { 200: meSchema } },
    },
    async (request) => describePrincipal(request.principal!),
  );
};
