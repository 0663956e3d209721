// POST /query: a semantic query (spec 4.3.1) on the live model, compiled with the asker's data keys
// (the key's user on C at /v1, scope query; the signed-in user in the console at /api) and the
// workspace's time zone, run on the node's connection, results cached briefly.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BadRequestError, NotFoundError } from '../../core/errors.js';
import { compileQueryMemoized } from '../../core/semantic/compile-memo.js';
import { DEFAULT_QUERY_LIMIT, MAX_QUERY_LIMIT, semanticQuerySchema } from '../../core/semantic/query.js';
import { WAREHOUSE_ERRORS } from '../../http/openapi-operations.js';
import { answerKey } from '../../querying/answer-key.js';
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

const JSON_TYPE = 'application/json; charset=utf-8';

/** The answer's text as the response schema's serializer writes it (checked against the schema). */
function serializeAnswer(answer: Answer): string {
  return JSON.stringify(queryAnswerSchema.parse(answer));
}

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
      // no-cache or no-store: the answer is neither read from the cache nor kept in it.
      const bypass = /no-cache|no-store/i.test(request.headers['cache-control'] ?? '');
      const key = bypass ? undefined : answerKey({ principal, live, connection: target.connection, request: { ...query, limit }, nowMs: target.options.now.getTime() });
      if (key) {
        // A hit is sent as stored: the bytes the schema's serializer produced when it was kept.
        const stored = await services.governed.cachedAnswer(key);
        services.metrics.cacheLookup(stored !== undefined);
        // (A string with a JSON content type skips the serializer; the type provider only knows objects.)
        if (stored !== undefined) return reply.header('X-Cache', 'hit').type(JSON_TYPE).send(stored as unknown as Answer);
      }

      const compiled = compileQueryMemoized(live.model, { ...query, limit }, target.options);
      // The answer key is kept instead of the compiled query's: one copy of the rows in the cache.
      const result = await services.governed.run({ principal, target, compiled, maxRows: limit, surface: 'structured_api', origin: 'structured' });
      void reply.header('X-Cache', bypass ? 'bypass' : 'miss');
      const answer = {
        data: [...result.rows],
        sql: compiled.sql,
        metadata: {
          row_count: result.rowCount,
          query_time_ms: result.durationMs,
          node: compiled.node,
          ran_at: result.ranAt,
          cached: false,
          truncated: result.truncated,
        },
      } satisfies Answer;
      if (key) await services.governed.keepAnswer(key, serializeAnswer({ ...answer, metadata: { ...answer.metadata, cached: true } }));
      return answer;
    },
  );
};
