// The console in a browser: the built single-page app, served at / and at each of its page paths
// (listed in client-routes.ts, so no API path is ever shadowed: an unknown /api path stays a JSON 404).
// A page request for any other path (a browser's GET asking for HTML, outside /api and /v1) is answered
// the same page with status 404, which then shows the console's not-found view. Without a build, each
// page answers a short plain page saying how to build it; the API is unaffected.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError } from '../../core/errors.js';
import { SURFACE_POLICY } from '../../http/route-policy.js';
import { CLIENT_REDIRECTS, CLIENT_ROUTES, STANDALONE_ROUTES } from './client-routes.js';
import { contentTypeOf, NOT_BUILT_PAGE, NOT_FOUND_PAGE, type ConsoleFiles } from './console-files.js';
import { contentSecurityPolicy, freshNonce, setCommonHeaders, withNonce } from './security-headers.js';

const ASSET_NAME = /^[\w.-]+$/;
const route = { config: SURFACE_POLICY.public, schema: { hide: true } };
/** Paths of the APIs: an unknown one is always the JSON 404, whoever asks. */
const API_PREFIXES = ['/api', '/v1'];

export interface ConsolePages {
  /** The console's page (or, unbuilt, the page saying how to build it) with its headers. */
  send(reply: FastifyReply, status?: number): FastifyReply;
  /** Answers an unknown path with the not-found page when a browser asks for a page; false otherwise. */
  answerNotFound(request: FastifyRequest, reply: FastifyReply): boolean;
}

/** A browser navigating: GET or HEAD, asking for HTML, outside the APIs. */
function isPageRequest(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (!String(request.headers.accept ?? '').includes('text/html')) return false;
  const path = request.url.split('?', 1)[0]!;
  return !API_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

export function consolePages(files: ConsoleFiles | undefined): ConsolePages {
  const send = (reply: FastifyReply, status = 200) => {
    const nonce = freshNonce();
    setCommonHeaders(reply);
    reply.header('Content-Security-Policy', contentSecurityPolicy(nonce));
    reply.header('Cache-Control', 'no-store');
    reply.type('text/html; charset=utf-8');
    if (!files) return reply.code(status === 200 ? 503 : status).send(status === 404 ? NOT_FOUND_PAGE : NOT_BUILT_PAGE);
    return reply.code(status).send(withNonce(files.index, nonce));
  };
  return {
    send,
    answerNotFound(request, reply) {
      if (!isPageRequest(request)) return false;
      void send(reply, 404);
      return true;
    },
  };
}

export const webConsole: FastifyPluginAsync<{ files: ConsoleFiles | undefined; pages: ConsolePages }> = async (app, { files, pages }) => {
  for (const { path } of [...CLIENT_ROUTES, ...STANDALONE_ROUTES]) app.get(path, route, async (_request, reply) => pages.send(reply));
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
