// POST /query: a semantic query (spec 4.3.1) on the live model, through the governed path with the
// asker's data keys (the key's user on C at /v1, scope query; the signed-in user in the console at
// /api), answered from the result cache when it holds the answer (X-Cache: hit, miss or bypass).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BadRequestError } from '../../core/errors.js';
import { RESULT_COLUMN_KINDS, type ResultColumn } from '../../core/semantic/composed-plan.js';
import { DEFAULT_QUERY_LIMIT, MAX_QUERY_LIMIT, semanticQuerySchema } from '../../core/semantic/query.js';
import { WAREHOUSE_ERRORS } from '../../http/openapi-operations.js';
import type { ComparisonSummary, GovernedQueryResult, GovernedStatement } from '../../querying/governed-query.js';
import { presentRollup } from '../../querying/rollup-presented.js';
import type { RollupReport } from '../../querying/rollup-route.js';
import { operationId, type RoutePlace } from '../route-place.js';

export const DEFAULT_LIMIT = DEFAULT_QUERY_LIMIT;
export const MAX_LIMIT = MAX_QUERY_LIMIT;

/** A column of an answer (metadata.columns); the CML builder's answer describes its columns the same way. */
export const resultColumnSchema = z.object({
  key: z.string().describe("the row's key"),
  kind: z.enum(RESULT_COLUMN_KINDS),
  type: z.string().describe('number, string, boolean, date or timestamp'),
  format: z.enum(['percent']).optional().describe('percent: a fraction (0.25) shown as a percentage (25 %)'),
  measure: z.string().optional().describe('the measure a computed column comes from'),
  of: z.array(z.string()).optional().describe("a share's total keeps these dimensions"),
  by: z.string().optional().describe("a ratio's divisor"),
  description: z.string().optional(),
});
export const comparisonAnswerSchema = z.object({
  dimension: z.string(),
  to: z.enum(['previous_period', 'previous_year', 'range']),
  range: z.array(z.string()).describe('the current period, [from, to), as wall times of the query’s time zone'),
  comparison_range: z.array(z.string()).describe('the comparison period, [from, to)'),
  partial: z.boolean().describe('the current period ends after now'),
  statements: z
    .array(z.intersection(z.object({ role: z.enum(['current', 'comparison', 'total']) }), rollupAnswerSchemaOf()))
    .optional()
    .describe('for a node with rollups: each statement the comparison ran (the current period, the comparison period) with the rollup that answered it, or why none did'),
});
/** metadata.rollup: which rollup answered, or why none of the node's rollups could. */
export const rollupAnswerSchema = rollupAnswerSchemaOf().describe(
  "for a node with rollups: the rollup that answered, or why none did; absent for a node without rollups, a query with compare, shares or per, and when rollups are off",
);

function rollupAnswerSchemaOf() {
  return z.union([
    z.object({
      name: z.string().describe('the rollup that answered'),
      table: z.string().describe('its stored table'),
      partitions_built_at: z.string().describe('when the oldest partition it read was built (ISO instant)'),
      data_through: z.string().nullable().describe('the latest source time the partitions it read hold, as the source wrote it; null without time or rows'),
    }),
    z.object({
      used: z.null().describe('no rollup answered: the source did'),
      candidates: z
        .array(
          z.object({
            name: z.string(),
            reason_code: z.string().describe('a matcher code (docs/cml.md, "Which rollup answers a query"), or, for the rollup that could answer: not_built, partial (a partition the query reads is not built) or unreadable (its stored table could not be read)'),
            reason: z.string(),
          }),
        )
        .describe("each of the node's rollups, with the first reason it could not answer"),
    }),
  ]);
}
const metadata = z.object({
  row_count: z.number().int(),
  query_time_ms: z.number().int(),
  node: z.string(),
  ran_at: z.string(),
  cached: z.boolean(),
  truncated: z.boolean(),
  columns: z.array(resultColumnSchema).describe("every key of the rows, in order: the query's dimensions and measures, and the columns compare, shares and per add"),
  comparison: comparisonAnswerSchema.optional().describe('with compare: the periods compared'),
  rollup: rollupAnswerSchema.optional(),
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
    columns: result.outputColumns.map(presentColumn),
    ...(result.comparison ? { comparison: comparisonOf(result.comparison, result.statementRollups) } : {}),
    ...(result.rollup ? { rollup: rollupOf(result.rollup) } : {}),
  };
}

/** The route a node query took as the APIs show it (see RollupReport). */
export function rollupOf(report: RollupReport): z.infer<typeof rollupAnswerSchema> {
  return presentRollup(report);
}

/** A column of an answer as the APIs show it. */
export function presentColumn({ of, ...column }: ResultColumn): z.infer<typeof resultColumnSchema> {
  return { ...column, ...(of ? { of: [...of] } : {}) };
}

export function comparisonOf(summary: ComparisonSummary, statements?: GovernedStatement['statementRollups']): z.infer<typeof comparisonAnswerSchema> {
  return {
    dimension: summary.dimension,
    to: summary.to,
    range: [...summary.range],
    comparison_range: [...summary.comparisonRange],
    partial: summary.partial,
    ...(statements ? { statements: statements.map((s) => ({ role: s.role, ...presentRollup(s.rollup) })) } : {}),
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
          400:
            'Also: an unknown field, operator or granularity (the message names it), a limit above the maximum, and/or groups nested too deep, ' +
            'a compare, share or ratio that does not fit the query (`invalid_compare`, `invalid_share`, `too_many_groups`), or an engine error',
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
