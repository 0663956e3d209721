// POST /query: a semantic query (spec 4.3.1) on the live model, through the governed path with the
// asker's data keys (the key's user on C at /v1, scope query; the signed-in user in the console at
// /api), answered from the result cache when it holds the answer (X-Cache: hit, miss or bypass).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BadRequestError } from '../../core/errors.js';
import { DEFAULT_QUERY_LIMIT, MAX_QUERY_LIMIT, semanticQuerySchema } from '../../core/semantic/query.js';
import { WAREHOUSE_ERRORS } from '../../http/openapi-operations.js';
import type { GovernedQueryResult } from '../../querying/governed-query.js';
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

function metadataOf(result: GovernedQueryResult): Answer['metadata'] {
  return {
    row_count: result.rowCount,
    query_time_ms: result.durationMs,
    node: result.node,
    ran_at: result.ranAt,
    cached: result.provenance.cache === 'hit',
    truncated: result.truncated,
  };
}

/** A governed result as POST /query answers it (scene and mosaic runs add to this shape). */
export function presentQueryAnswer(result: GovernedQueryResult): Answer {
  return { data: [...result.rows], sql: result.sql, metadata: metadataOf(result) };
}

/**
 * The answer's text, with the rows' JSON as the cache kept it: the text the response schema's
 * serializer writes for the same answer (its fields in the schema's order), without parsing the rows
 * back and writing them again, which would cost a hit more than the rest of its way.
 */
function answerTextWithRows(result: GovernedQueryResult, rowsJson: string): string {
  return `{"data":${rowsJson},"sql":${JSON.stringify(result.sql)},"metadata":${JSON.stringify(metadataOf(result))}}`;
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
      const query = request.body;
      const limit = query.limit ?? DEFAULT_LIMIT;
      if (limit > MAX_LIMIT) throw new BadRequestError(`limit must be at most ${MAX_LIMIT}`, 'invalid_limit');
      // no-cache or no-store: the answer is neither read from the cache nor kept in it.
      const bypass = /no-cache|no-store/i.test(request.headers['cache-control'] ?? '');
      const result = await services.governed.query({
        principal: request.principal!,
        query: { kind: 'node', query: { ...query, limit } },
        cache: bypass ? 'bypass' : 'use',
        surface: 'structured_api',
        origin: 'structured',
        maxRows: limit,
      });
      void reply.header('X-Cache', result.provenance.cache);
      // (A string with a JSON content type skips the serializer; the type provider only knows objects.)
      if (result.provenance.cache === 'hit' && result.rowsJson !== undefined) return reply.type(JSON_TYPE).send(answerTextWithRows(result, result.rowsJson) as unknown as Answer);
      return presentQueryAnswer(result);
    },
  );
};
