// The authorization server's protocol endpoints: dynamic client registration (RFC 7591), the
// authorization endpoint (which checks the request and hands the browser to the console's consent
// page), the token endpoint and revocation (RFC 7009). Registration, token and revocation answer
// refusals in OAuth's shape, `{"error": "<code>", "error_description": "…"}`, which clients act on.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { spendAddressBudget, type AddressBudget } from '../../http/rate-limit.js';
import { SURFACE_POLICY } from '../../http/route-policy.js';
import { RedirectableError, redirectWith } from '../../identity/oauth/authorization-service.js';
import { OAUTH_PATHS } from '../../identity/oauth/metadata.js';
import { OauthError } from '../../identity/oauth/oauth-error.js';
import type { Services } from '../../services.js';
import { authorizationRequestSchema, CONSENT_PAGE } from './authorization-request.js';
import { issuerOf } from './issuer.js';

const route = { config: SURFACE_POLICY.public, schema: { hide: true } };
const FORM_BODY_LIMIT = 64 * 1024;

// Registration creates a row per call: a few an hour are what a real client needs. Token and
// revocation calls are a client's routine; 60 a minute is a bound on guessing, not on use.
const REGISTER_BUDGET: AddressBudget = { name: 'oauth-register', windowMs: 3_600_000, limit: 20, refusal: 'Too many client registrations from this address: 20 per hour' };
const TOKEN_BUDGET: AddressBudget = { name: 'oauth-token', windowMs: 60_000, limit: 60, refusal: 'Too many token requests from this address: 60 per minute' };

const registration = z.object({
  client_name: z.string().max(200).optional(),
  redirect_uris: z.array(z.string().max(2000)).max(10),
  grant_types: z.array(z.string().max(100)).max(10).optional(),
  response_types: z.array(z.string().max(100)).max(10).optional(),
  token_endpoint_auth_method: z.string().max(100).optional(),
});

const text = z.string().max(4000);
const tokenRequest = z.discriminatedUnion('grant_type', [
  z.object({ grant_type: z.literal('authorization_code'), client_id: text, code: text, redirect_uri: text.optional(), code_verifier: text.optional(), resource: text.optional() }),
  z.object({ grant_type: z.literal('refresh_token'), client_id: text, refresh_token: text, scope: text.optional(), resource: text.optional() }),
]);
const revocationRequest = z.object({ token: text, client_id: text, token_type_hint: text.optional() });

/** Answers an OauthError in OAuth's shape; anything else goes on to the service's error map. */
async function answering(reply: FastifyReply, work: () => Promise<unknown>): Promise<unknown> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof OauthError)) throw error;
    const status = error.oauthCode === 'invalid_client' ? 401 : error.status;
    return reply.code(status).header('Cache-Control', 'no-store').type('application/json; charset=utf-8').send(error.body());
  }
}

/** The body, checked: a malformed one is OAuth's invalid_request naming the field. */
function parsed<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.join('.') || 'body';
  throw new OauthError('invalid_request', `${field}: ${issue.message}`);
}

function requireForm(request: FastifyRequest): void {
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') throw new OauthError('invalid_request', 'Send the parameters as application/x-www-form-urlencoded');
}

export const oauthProtocolRoutes: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  const { authorization, tokens } = services.oauth;
  const spend = (reply: FastifyReply, request: FastifyRequest, budget: AddressBudget) =>
    spendAddressBudget(services.shared, reply, budget, request.ip, services.clock.now().getTime());

  // OAuth's token and revocation requests are forms (RFC 6749 section 3.2). Only here: elsewhere a
  // form body is refused, so no cross-site form can reach another route with a body it can read.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_request, body, done) => {
    const fields: Record<string, string | string[]> = {};
    for (const [name, value] of new URLSearchParams(body as string)) {
      const seen = fields[name];
      // A parameter sent twice is refused by the schema (RFC 6749 section 3.1: at most once).
      fields[name] = seen === undefined ? value : [seen, value].flat();
    }
    done(null, fields);
  });

  app.post(OAUTH_PATHS.register, route, async (request, reply) => {
    await spend(reply, request, REGISTER_BUDGET);
    return answering(reply, async () => {
      const client = await authorization.register(parsed(registration, request.body));
      return reply.code(201).header('Cache-Control', 'no-store').send(client);
    });
  });

  app.withTypeProvider<ZodTypeProvider>().get(OAUTH_PATHS.authorize, { ...route, schema: { hide: true, querystring: authorizationRequestSchema } }, async (request, reply) => {
    const query = request.query;
    const issuer = issuerOf(request);
    try {
      await authorization.check(query, issuer);
    } catch (error) {
      if (!(error instanceof RedirectableError)) throw error;
      return reply.redirect(redirectWith(error.request, issuer, { error: error.oauthCode, error_description: error.message }));
    }
    // The consent page checks the request again, with the member signed in.
    const carried = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined));
    return reply.redirect(`${CONSENT_PAGE}?${carried.toString()}`);
  });

  app.post(OAUTH_PATHS.token, route, async (request, reply) => {
    await spend(reply, request, TOKEN_BUDGET);
    return answering(reply, async () => {
      requireForm(request);
      const body = parsed(tokenRequest, request.body);
      if (!(await authorization.knowsClient(body.client_id))) throw new OauthError('invalid_client', 'Unknown client_id');
      const issuer = issuerOf(request);
      const answer =
        body.grant_type === 'authorization_code'
          ? await tokens.exchangeCode({ clientId: body.client_id, code: body.code, redirectUri: body.redirect_uri, codeVerifier: body.code_verifier, resource: body.resource }, issuer)
          : await tokens.refresh({ clientId: body.client_id, refreshToken: body.refresh_token, scope: body.scope, resource: body.resource }, issuer);
      return reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache').send(answer);
    });
  });

  app.post(OAUTH_PATHS.revoke, route, async (request, reply) => {
    await spend(reply, request, TOKEN_BUDGET);
    return answering(reply, async () => {
      requireForm(request);
      const body = parsed(revocationRequest, request.body);
      await tokens.revoke({ clientId: body.client_id, token: body.token });
      return reply.code(200).send({});
    });
  });
};
