// buildApp(deps) → a Fastify instance with the shared hooks and every surface mounted. main.ts and
// every test call it; nothing here reads the environment.
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { errorsPlugin } from './http/errors.js';
import { answerClientError, answerFrameworkError, answerWhileClosing, MAX_PATH_PARAM_CHARS } from './http/framework-errors.js';
import { guardPlugin } from './http/guard.js';
import { inputGuardPlugin } from './http/input-guard.js';
import { openapiPlugin } from './http/openapi.js';
import { requestIdOf } from './http/request-id.js';
import { mcpEndpoint } from './mcp/routes.js';
import type { Services } from './services.js';
import { consoleSurface } from './surfaces/console/index.js';
import { healthRoutes } from './surfaces/health.js';
import { metricsRoutes } from './surfaces/metrics.js';
import { oauthSurface } from './surfaces/oauth/index.js';
import { questionSurface } from './surfaces/question/index.js';
import { studioSurface } from './surfaces/studio/index.js';
import { defaultConsoleDir, readConsoleFiles } from './surfaces/web/console-files.js';
import { consolePages, webConsole } from './surfaces/web/index.js';
import { structuredSurface } from './surfaces/structured/index.js';
import { workspaceSurface } from './surfaces/workspace/index.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;

export interface AppDeps {
  services: Services;
  /** Omit for a silent app (tests that do not read logs). */
  logger?: Logger;
  /** PEM key and certificate: the app listens with TLS when given. */
  tls?: { key: string; cert: string };
  /** Where the built console is (web/dist of the package by default). */
  consoleDir?: string;
  /** Extra routes (tests and benchmarks mount probe routes through this). */
  extraRoutes?: (app: FastifyInstance) => Promise<void> | void;
}

export async function buildApp({ services, logger, tls, consoleDir, extraRoutes }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    ...(logger ? { loggerInstance: logger } : { logger: false }),
    ...(tls ? { https: tls } : {}),
    // A hop count is valid at run time (proxy-addr), though Fastify's types omit it.
    trustProxy: services.config.trustProxy as boolean | string,
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: requestIdOf,
    // Requests that arrive while closing are answered by the hook below, in our error shape.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PATH_PARAM_CHARS },
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  }) as unknown as FastifyInstance;

  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // The hooks every request runs are callback-style where they do nothing asynchronous: an async hook
  // costs each request a promise and a turn of the microtask queue.
  app.addHook('onRequest', (_request, reply, done) => {
    if (closing) answerWhileClosing(reply);
    else done();
  });

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('X-Request-Id', request.id);
    done(null, payload);
  });
  // Every answer is counted under its route's pattern (never its raw URL: ids would make a series
  // each), 404s for unknown routes under one label.
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    services.metrics.request(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    if (reply.statusCode === 429) services.metrics.rateLimitRefused(route);
    done();
  });

  // The console's files are read once: its pages, and the not-found page a browser gets for an unknown path.
  const consoleFiles = await readConsoleFiles(consoleDir ?? defaultConsoleDir());
  const pages = consolePages(consoleFiles);
  await app.register(errorsPlugin, { bodyLimit: BODY_LIMIT_BYTES, answerPageNotFound: pages.answerNotFound });
  await app.register(cookie, { hook: false });
  await app.register(openapiPlugin);
  await app.register(guardPlugin, { services });
  await app.register(inputGuardPlugin);

  await app.register(healthRoutes, { services });
  await app.register(metricsRoutes, { services });
  await app.register(oauthSurface, { services });
  await app.register(consoleSurface, { services, prefix: '/api' });
  await app.register(questionSurface, { services, prefix: '/api/v1' });
  await app.register(workspaceSurface, { services, prefix: '/api/v1' });
  await app.register(studioSurface, { services, prefix: '/api/studio' });
  await app.register(structuredSurface, { services, prefix: '/v1' });
  await app.register(mcpEndpoint, { services });
  await app.register(webConsole, { files: consoleFiles, pages });
  if (extraRoutes) await app.register(async (child) => extraRoutes(child));

  services.lastUsed.start();
  services.oauth.lastUsed.start();
  services.rollupAnswers.start();
  app.addHook('onClose', async () => {
    await services.rawSql.flush();
    await services.lastUsed.stop();
    await services.oauth.lastUsed.stop();
    await services.rollupAnswers.stop();
  });
  return app;
}
