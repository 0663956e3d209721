// The governed calls the MCP tools make: a structured query (exactly as C's POST /v1/query answers it,
// sharing its result cache), its explanation without a run, and a scene run. Each is the one governed
// call (querying/governed-query-service.ts) that C and the scene service make, and each adds the
// provenance an agent quotes: the live model's version, how fresh the rows are (when the warehouse
// answered them) and the cache state. The MCP call they are made in records their runs as the agent's
// (history-context.ts).
import { z } from 'zod';
import { BadRequestError } from '../core/errors.js';
import type { SemanticQuery } from '../core/semantic/query.js';
import type { SceneRunOptions } from '../content/scene-definition.js';
import type { Principal } from '../identity/principal.js';
import { CACHE_STATES, type GovernedProvenance } from '../querying/governed-query.js';
import type { Services } from '../services.js';
import { presentSceneRun } from '../surfaces/content/scene-schema.js';
import { presentQueryAnswer, rollupAnswerSchema, rollupOf, type queryAnswerSchema } from '../surfaces/structured/query-routes.js';

export const provenanceSchema = z.object({
  model_version: z.number().int(),
  freshness: z
    .string()
    .describe('when the warehouse answered these rows (for a cache hit, when the kept answer was made); answered from a rollup, the latest source time the rollup holds'),
  cache: z.enum(CACHE_STATES),
  rollup: z.string().optional().describe('the rollup that answered, when one did (metadata.rollup says more)'),
});
export type Provenance = z.infer<typeof provenanceSchema>;
type QueryAnswer = z.infer<typeof queryAnswerSchema>;

/** A query with its limit decided (the tool's default or the caller's). */
export type LimitedQuery = SemanticQuery & { limit: number };

function provenanceOf(provenance: GovernedProvenance): Provenance {
  return { model_version: provenance.modelVersion, freshness: provenance.freshAsOf, cache: provenance.cache, ...(provenance.rollup ? { rollup: provenance.rollup } : {}) };
}

/** C's /v1/query for the same body and principal, and where its rows came from. */
export async function governedQuery(services: Services, principal: Principal, query: LimitedQuery, cache: 'use' | 'bypass'): Promise<{ answer: QueryAnswer; provenance: Provenance }> {
  const result = await services.governed.query({ principal, query: { kind: 'node', query }, cache, surface: 'structured_api', origin: 'structured', maxRows: query.limit });
  return { answer: presentQueryAnswer(result), provenance: provenanceOf(result.provenance) };
}

export const explanationSchema = z.object({
  sql: z.string(),
  params: z.array(z.any()),
  node: z.string(),
  connection: z.string(),
  engine: z.string(),
  model_version: z.number().int(),
  cached: z.boolean().describe('whether the result cache holds an answer now: query would not reach the warehouse'),
  rollup: rollupAnswerSchema.optional().describe("for a node with rollups: the rollup that would answer now (its partitions built for what the query reads), or why none would, as query's metadata.rollup"),
  statements: z
    .array(z.intersection(z.object({ role: z.enum(['current', 'comparison', 'total']) }), rollupAnswerSchema))
    .optional()
    .describe('with compare, shares or per, for a node with rollups: each statement the query would run, with the rollup that would answer it or why none would'),
});

/** What `query` would run and what would serve it, without running anything. */
export async function explainQuery(services: Services, principal: Principal, query: LimitedQuery): Promise<z.infer<typeof explanationSchema>> {
  const explanation = await services.governed.explain({ principal, query: { kind: 'node', query }, cache: 'use', maxRows: query.limit });
  return {
    sql: explanation.sql,
    params: [...explanation.params],
    node: explanation.node,
    connection: explanation.connection,
    engine: explanation.engine,
    model_version: explanation.modelVersion,
    cached: explanation.cache === 'hit',
    ...(explanation.rollup ? { rollup: rollupOf(explanation.rollup) } : {}),
    ...(explanation.statementRollups ? { statements: explanation.statementRollups.map((s) => ({ role: s.role, ...rollupOf(s.rollup) })) } : {}),
  };
}

/** A scene run as C's POST /v1/scenes/:id/run answers it; scene runs always read the warehouse. */
export async function runScene(services: Services, principal: Principal, sceneId: string, options: SceneRunOptions) {
  if (options.limit === undefined) throw new BadRequestError('a scene run through MCP needs a row limit', 'invalid_limit');
  const run = await services.scenes.run(principal, sceneId, options);
  return { answer: presentSceneRun(run), provenance: provenanceOf(run.result.provenance) };
}
