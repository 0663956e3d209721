// The console in a browser: the built single-page app, served at / and at each of its page paths
// (listed in client-routes.ts, so no API path is ever shadowed: an unknown /api path stays a JSON 404).
// Without a build, each page answers a short plain page saying how to build it; the API is unaffected.
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { NotFoundError } from '../../core/errors.js';
import { SURFACE_POLICY } from '../../http/route-policy.js';
import { CLIENT_REDIRECTS, CLIENT_ROUTES } from './client-routes.js';
import { contentTypeOf, defaultConsoleDir, NOT_BUILT_PAGE, readConsoleFiles } from './console-files.js';
import { contentSecurityPolicy, freshNonce, setCommonHeaders, withNonce } from './security-headers.js';

const ASSET_NAME = /^[\w.-]+$/;
const route = { config: SURFACE_POLICY.public, schema: { hide: true } };

export const webConsole: FastifyPluginAsync<{ dir?: string }> = async (app, options) => {
  const files = await readConsoleFiles(options.dir ?? defaultConsoleDir());

  const sendPage = (reply: FastifyReply) => {
    const nonce = freshNonce();
    setCommonHeaders(reply);
    reply.header('Content-Security-Policy', contentSecurityPolicy(nonce));
    reply.header('Cache-Control', 'no-store');
    reply.type('text/html; charset=utf-8');
    if (!files) return reply.code(503).send(NOT_BUILT_PAGE);
    return reply.send(withNonce(files.index, nonce));
  };

  for (const { path } of CLIENT_ROUTES) app.get(path, route, async (_request, reply) => sendPage(reply));
  for (const [from, to] of Object.entries(CLIENT_REDIRECTS)) app.get(from, route, async (_request, reply) => reply.redirect(to));

  app.get<{ Params: { name: string } }>('/assets/:name', route, async (request, reply) => {
    const { name } = request.params;
    const body = ASSET_NAME.test(name) ? files?.assets.get(name) : undefined;
    if (!body) throw new NotFoundError(`No console file ${name}`, 'route_not_found');
    setCommonHeaders(reply);
    // Built file names carry a hash of their content: they can be kept for good.
    reply.header('Cache-Control', 'public, max-age=31536000, immutable');
    return reply.type(contentTypeOf(name)).send(body);
  });
};
