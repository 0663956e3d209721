// Questions in plain language and the catalog of governed reveals with their metric definitions, from
// the workspace's live model: POST /ask, GET /reveals, GET /metrics/:reveal_name. Mounted on surface A
// at /api/v1 (question keys, 100 requests per key per clock hour) and in the console at /api (the
// signed-in user, 100 questions per hour of their own), acting for the asker with their data keys.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { revealMetrics, revealSummaries } from '../../modeling/catalog-views.js';
import { WAREHOUSE_ERRORS } from '../../http/openapi-operations.js';
import { resultRowsSchema } from '../../http/schemas.js';
import { MAX_QUESTION_LENGTH } from '../../answering/answer-service.js';
import { ASSUMPTION_CODES } from '../../answering/assumptions.js';
import { operationId, type RoutePlace } from '../route-place.js';
import { rollupAnswerSchema } from '../structured/query-routes.js';

/** The answer of POST /ask (the MCP `ask` tool answers the same object). */
export const answerSchema = z.object({
  answer: z.string(),
  data: z.object({
    rows: resultRowsSchema,
    columns: z.array(z.string()),
    metric: z.string().optional(),
    value: z.number().optional(),
    period: z.string().optional().describe('A period token (`last_week`, `2024_q2`, `last_30_days`…); `as_of_now` for snapshot metrics, answered over all rows; `all_time` for a stock asked without a period, answered over all rows.'),
  }),
  provenance: z.object({
    source: z.enum(['semantic layer', 'raw SQL']),
    reveal: z.string().optional(),
    reveal_backed: z.boolean(),
    freshness: z.string().nullable(),
    confidence: z.enum(['high', 'medium']).describe('`high` whenever a governed reveal answered, `medium` for raw SQL and for answers that give no governed number (`no_match`).'),
    assumptions: z
      .array(z.object({ code: z.enum(ASSUMPTION_CODES), message: z.string() }))
      .describe(
        'What the answer took for granted; empty when nothing. Codes (stable): `period_assumed` (no period named, the metric is a flow: the default window was used), ' +
          '`all_time_assumed` (no period named, the metric is a stock: every row was counted), `period_applied_to_stock` (a period named for a stock: only the rows whose time falls in it), ' +
          '`metric_matched_by_description` (the metric was recognised only from its description), `no_rows_visible` (data keys leave the asker no row: no value is given), ' +
          '`no_rows` (no row matches, and the asker sees every row: a zero is a true zero), `null_group_excluded` (a top-N or bottom-N left out rows whose ranked dimension is empty), ' +
          '`value_matched_approximately` (a filter value was reached from a misspelt word: the message names the value), ' +
          '`question_translated` (the question was in another language: the message gives the English it was answered as).',
      ),
    rollups: z
      .array(z.intersection(z.object({ statement: z.enum(['headline', 'breakdown', 'current', 'comparison', 'total']).describe('headline: the value and freshness; breakdown: the rows, when another query; current, comparison, total: the statements of a comparison, a share or a ratio') }), rollupAnswerSchema))
      .optional()
      .describe("For a reveal whose base node has rollups: each statement with the rollup that answered it (as C's metadata.rollup), or why none did; absent otherwise and with rollups off"),
  }),
  usage: z.object({ tokens_used: z.number().int(), latency_ms: z.number().int() }),
  no_match: z
    .object({
      reason: z.string(),
      closest: z.array(z.object({ reveal: z.string(), metric: z.string(), label: z.string() })),
      suggestions: z
        .array(z.object({ action: z.literal('add_synonym'), reveal: z.string(), metric: z.string(), synonym: z.string(), file: z.string(), line: z.number().int() }))
        .optional()
        .describe('What the model could add so such a question is answered: a word of the question as a synonym of a metric, declared in `file` at `line`.'),
    })
    .optional()
    .describe('Only when nothing answered: why, the closest governed metrics, and suggestions for the model.'),
  raw_sql: z
    .object({ sql: z.string(), connection: z.string() })
    .optional()
    .describe('Only when the raw-SQL fallback answered (tracer and above, language model configured): the statement that ran.'),
});

/** The body of POST /ask (and the input of the MCP `ask` tool). */
export const askBodySchema = z
  .object({
    question: z.string().trim().min(1, 'must not be empty').max(MAX_QUESTION_LENGTH, `must be at most ${MAX_QUESTION_LENGTH} characters`),
    domain: z.string().min(1).max(100).optional(),
  })
  .strict();

/** The console's answer: A's, plus the SQL behind a governed answer. */
const answerWithSqlSchema = answerSchema.extend({
  sql: z
    .string()
    .optional()
    .describe("Console only, when a governed reveal answered: the SQL its queries ran, compiled with your data keys (the headline's, then the breakdown's when that is another query, separated by `;` and a blank line)"),
});

export const questionRoutes: FastifyPluginAsyncZod<RoutePlace> = async (app, place) => {
  const { services, tags } = place;
  const id = (name: string) => operationId(place, name);

  app.post(
    '/ask',
    {
      config: place.policy({ asks: true }),
      schema: {
        tags,
        operationId: id('askQuestion'),
        summary: `Answers a question in plain language from a governed reveal, in English, with rows, provenance and usage (at most ${MAX_QUESTION_LENGTH} characters)`,
        body: askBodySchema,
        response: { 200: place.answerSql ? answerWithSqlSchema : answerSchema },
        errors: {
          400: 'Also: a question that is empty or longer than the limit, or an unknown domain (the message names the domains)',
          ...WAREHOUSE_ERRORS,
        },
      },
    },
    async (request) => {
      if (!place.answerSql) return services.answers.ask(request.principal!, request.body.question, request.body.domain);
      const { answer, sql } = await services.answers.askShowingSql(request.principal!, request.body.question, request.body.domain);
      return sql ? { ...answer, sql: sql.join(';\n\n') } : answer;
    },
  );

  app.get(
    '/reveals',
    {
      config: place.policy(),
      schema: {
        tags,
        operationId: id('listReveals'),
        summary: 'Governed reveals of the workspace, with the names of their metrics',
        response: {
          200: z.object({
            reveals: z.array(z.object({ name: z.string(), domain: z.string(), description: z.string(), metrics: z.array(z.string()) })),
          }),
        },
      },
    },
    async (request) => ({ reveals: revealSummaries((await services.models.live(request.principal!.workspace.id)).model) }),
  );

  app.get(
    '/metrics/:reveal_name',
    {
      config: place.policy(),
      schema: {
        tags,
        operationId: id('getRevealMetrics'),
        summary: 'Metric definitions of one reveal',
        errors: { 404: 'No such reveal in your workspace (`unknown_reveal`)' },
        params: z.object({ reveal_name: z.string().min(1).max(200) }),
        response: {
          200: z.object({
            reveal: z.string(),
            domain: z.string(),
            metrics: z.array(z.object({ name: z.string(), label: z.string(), description: z.string(), unit: z.string() })),
          }),
        },
      },
    },
    async (request) => revealMetrics((await services.models.live(request.principal!.workspace.id)).model, request.params.reveal_name),
  );
};
