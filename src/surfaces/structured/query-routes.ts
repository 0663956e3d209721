// POST /query: a semantic query (spec 4.3.1) on the live model, compiled with the asker's data keys
// (the key's user on C at /v1, scope query; the signed-in user in the console at /api) and the
// workspace's time zone, run on the node's connection, results cached briefly.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BadRequestError, NotFoundError } from '../../core/errors.js';
import { compileQuery } from '../../core/semantic/compile.js';
import { DEFAULT_QUERY_LIMIT, MAX_QUERY_LIMIT, semanticQuerySchema } from '../../core/semantic/query.js';
import { WAREHOUSE_ERRORS } from '../../http/openapi-operations.js';
import { operationId, type RoutePlace } from '../route-place.js';

export const DEFAULT_LIMIT = DEFAULT_QUERY_LIMIT;
export const MAX_LIMIT = MAX_QUERY_LIMIT;

const metadata = z.object({
  row_count: z.number().int(),
  query_time_ms: z.number().int(),
  node: z.string(),
  ran_at: z.string(),
  cached: z.boolean(),
  truncated: z.boolean(),
});
/** The answer of POST /v1/query; scene and mosaic runs answer in the same shape. */
export const queryAnswerSchema = z.object({
  data: z.array(z.any().describe('a row: an object keyed by dimension and measure ids')),
  sql: z.string(),
  metadata,
});
type Answer = z.infer<typeof queryAnswerSchema>;

export const queryRoutes: FastifyPluginAsyncZod<RoutePlace> = async (app, place) => {
  const { services, tags } = place;
  app.post(
    '/query',
    {
      config: place.policy({ scope: 'query' }),
      schema: {
        tags,
        operationId: operationId(place, 'runStructuredQuery'),
        summary: 'Runs a structured query against a node of the live model; Cache-Control: no-cache skips the result cache',
        body: semanticQuerySchema,
        response: { 200: queryAnswerSchema },
        errors: {
          400: 'Also: an unknown field, operator or granularity (the message names it), a limit above the maximum, and/or groups nested too deep, or an engine error',
          404: 'No such node in the live model of your workspace (`unknown_node`)',
          ...WAREHOUSE_ERRORS,
        },
      },
    },
    async (request, reply) => {
      const principal = request.principal!;
      const query = request.body;
      const limit = query.limit ?? DEFAULT_LIMIT;
      if (limit > MAX_LIMIT) throw new BadRequestError(`limit must be at most ${MAX_LIMIT}`, 'invalid_limit');

      const live = await services.governed.live(principal);
      const node = live.model.nodes.get(query.node);
      if (!node) throw new NotFoundError(`Unknown node "${query.node}"`, 'unknown_node');
      const target = await services.governed.target(principal, live, node);
      const compiled = compileQuery(live.model, { ...query, limit }, target.options);
      const bypass = /no-cache|no-store/i.test(request.headers['cache-control'] ?? '');
      const result = await services.governed.run({ principal, target, compiled, maxRows: limit, surface: 'structured_api', origin: 'structured', cache: bypass ? 'refresh' : 'use' });
      void reply.header('X-Cache', result.cached ? 'hit' : bypass ? 'bypass' : 'miss');
      return {
        data: [...result.rows],
        sql: compiled.sql,
        metadata: {
          row_count: result.rowCount,
          query_time_ms: result.durationMs,
          node: compiled.node,
          ran_at: result.ranAt,
          cached: result.cached,
          truncated: result.truncated,
        },
      } satisfies Answer;
    },
  );
};
