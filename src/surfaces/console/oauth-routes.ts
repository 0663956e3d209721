// The console's side of OAuth: the consent page reads an authorization request (GET /api/oauth/consent)
// and sends the member's answer (POST /api/oauth/consent), as the signed-in member, under the console's
// CSRF rules; the keys page lists the applications holding tokens (GET /api/oauth/grants) and revokes
// one (POST /api/oauth/grants/:id/revoke).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SURFACE_POLICY } from '../../http/route-policy.js';
import type { Services } from '../../services.js';
import { PAGE_QUERY_ERRORS, pageQuery } from './schemas.js';
import { authorizationRequestSchema } from '../oauth/authorization-request.js';
import { issuerOf } from '../oauth/issuer.js';

const consentSchema = z.object({
  client_name: z.string(),
  redirect_host: z.string(),
  resource: z.string(),
  scopes: z.array(z.object({ name: z.string(), proposed: z.boolean() })),
});

const grantSchema = z.object({
  id: z.string(),
  client_name: z.string(),
  user_id: z.string(),
  scopes: z.array(z.string()),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  status: z.enum(['active', 'revoked', 'expired']),
});

const decisionBody = z.object({
  request: authorizationRequestSchema,
  approve: z.boolean(),
  scopes: z.array(z.string().max(100)).max(50).default([]),
});

const REQUEST_ERRORS = {
  400: 'The authorization request is not valid: unknown client, a redirect URI it did not register, no PKCE S256 challenge, an unknown scope or another resource (the `code` is OAuth’s error code)',
} as const;

export const oauthConsoleRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { authorization, grants } = services.oauth;

  app.get(
    '/oauth/consent',
    {
      config: SURFACE_POLICY.console,
      schema: {
        tags: ['console'],
        operationId: 'describeOauthConsent',
        summary: 'What the consent page shows of an authorization request: the application, its redirect host, and the scopes your role may grant',
        querystring: authorizationRequestSchema,
        errors: REQUEST_ERRORS,
        response: { 200: consentSchema },
      },
    },
    async (request) => {
      const checked = await authorization.check(request.query, issuerOf(request));
      return authorization.consentView(checked, request.principal!);
    },
  );

  app.post(
    '/oauth/consent',
    {
      config: SURFACE_POLICY.console,
      schema: {
        tags: ['console'],
        operationId: 'decideOauthConsent',
        summary: "Approves (with the scopes chosen) or denies an authorization request; answers where the browser goes next: the application's redirect URI with a code, or with access_denied",
        body: decisionBody,
        errors: { ...REQUEST_ERRORS, 403: 'A scope beyond your role, or a write from another origin' },
        response: { 200: z.object({ redirect_to: z.string() }) },
      },
    },
    async (request) => {
      const issuer = issuerOf(request);
      const checked = await authorization.check(request.body.request, issuer);
      const redirectTo = await authorization.decide(checked, request.principal!, { approve: request.body.approve, scopes: request.body.scopes }, issuer);
      return { redirect_to: redirectTo };
    },
  );

  app.get(
    '/oauth/grants',
    {
      config: SURFACE_POLICY.console,
      schema: {
        tags: ['console'],
        operationId: 'listOauthGrants',
        summary: "Lists applications authorized through OAuth, newest first: a luminary sees the workspace's, others their own; pass next_cursor back as cursor",
        querystring: pageQuery,
        errors: PAGE_QUERY_ERRORS,
        response: { 200: z.object({ grants: z.array(grantSchema), next_cursor: z.string().nullable() }) },
      },
    },
    async (request) => {
      const { grants: page, nextCursor } = await grants.listPage(request.principal!, request.query);
      return { grants: page, next_cursor: nextCursor };
    },
  );

  app.post(
    '/oauth/grants/:id/revoke',
    {
      config: SURFACE_POLICY.console,
      schema: {
        tags: ['console'],
        operationId: 'revokeOauthGrant',
        summary: "Revokes an application's access: its access and refresh tokens are refused from the next call, on every instance",
        params: z.object({ id: z.string() }),
        errors: { 404: 'No such authorized application in your workspace, or another member’s for a non-luminary (`not_found`)' },
        response: { 200: z.object({ grant: grantSchema }) },
      },
    },
    async (request) => ({ grant: await grants.revoke(request.principal!, request.params.id) }),
  );
};
