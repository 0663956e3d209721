// The governed calls the MCP tools make: a structured query (exactly as C's POST /v1/query answers it,
// sharing its result cache), its explanation without a run, and a scene run. They call today's services
// the way C's query route and the scene service do, and add the provenance an agent quotes: the live
// model's version, how fresh the rows are (when the warehouse answered them) and the cache state.
// Runs are recorded by the services underneath; the MCP call they are made in records them as the
// agent's (history-context.ts).
import { z } from 'zod';
import { BadRequestError, NotFoundError } from '../core/errors.js';
import { compileQueryMemoized } from '../core/semantic/compile-memo.js';
import type { SemanticQuery } from '../core/semantic/query.js';
import type { SceneRunOptions } from '../content/scene-definition.js';
import type { Principal } from '../identity/principal.js';
import { answerKey } from '../querying/answer-key.js';
import type { Services } from '../services.js';
import { presentSceneRun } from '../surfaces/content/scene-schema.js';
import { queryAnswerSchema } from '../surfaces/structured/query-routes.js';

export const CACHE_STATES = ['hit', 'miss', 'bypass'] as const;

export const provenanceSchema = z.object({
  model_version: z.number().int(),
  freshness: z.string(),
  cache: z.enum(CACHE_STATES),
});
export type Provenance = z.infer<typeof provenanceSchema>;
type QueryAnswer = z.infer<typeof queryAnswerSchema>;

/** A query with its limit decided (the tool's default or the caller's). */
export type LimitedQuery = SemanticQuery & { limit: number };

async function prepare(services: Services, principal: Principal, query: LimitedQuery) {
  const live = await services.governed.live(principal);
  const node = live.model.nodes.get(query.node);
  if (!node) throw new NotFoundError(`Unknown node "${query.node}"`, 'unknown_node');
  const target = await services.governed.target(principal, live, node);
  const key = answerKey({ principal, live, connection: target.connection, request: query, nowMs: target.options.now.getTime() });
  return { live, target, key };
}

/** C's /v1/query for the same body and principal, and where its rows came from. */
export async function governedQuery(services: Services, principal: Principal, query: LimitedQuery, cache: 'use' | 'bypass'): Promise<{ answer: QueryAnswer; provenance: Provenance }> {
  const { live, target, key } = await prepare(services, principal, query);
  if (cache === 'use') {
    const stored = await services.governed.cachedAnswer(key);
    services.metrics.cacheLookup(stored !== undefined);
    if (stored !== undefined) {
      const answer = JSON.parse(stored) as QueryAnswer;
      // A kept answer is as fresh as the run that made it.
      return { answer, provenance: { model_version: live.version, freshness: answer.metadata.ran_at, cache: 'hit' } };
    }
  }
  const compiled = compileQueryMemoized(live.model, query, target.options);
  const result = await services.governed.run({ principal, target, compiled, maxRows: query.limit, surface: 'structured_api', origin: 'structured' });
  const answer: QueryAnswer = {
    data: [...result.rows],
    sql: compiled.sql,
    metadata: { row_count: result.rowCount, query_time_ms: result.durationMs, node: compiled.node, ran_at: result.ranAt, cached: false, truncated: result.truncated },
  };
  // Kept as C keeps it, so either surface answers a repeat of the other from the cache.
  if (cache === 'use') await services.governed.keepAnswer(key, JSON.stringify(queryAnswerSchema.parse({ ...answer, metadata: { ...answer.metadata, cached: true } })));
  return { answer, provenance: { model_version: live.version, freshness: result.ranAt, cache: cache === 'use' ? 'miss' : 'bypass' } };
}

export const explanationSchema = z.object({
  sql: z.string(),
  params: z.array(z.any()),
  node: z.string(),
  connection: z.string(),
  engine: z.string(),
  model_version: z.number().int(),
  cached: z.boolean().describe('whether the result cache holds an answer now: query would not reach the warehouse'),
});

/** What `query` would run and what would serve it, without running anything. */
export async function explainQuery(services: Services, principal: Principal, query: LimitedQuery): Promise<z.infer<typeof explanationSchema>> {
  const { live, target, key } = await prepare(services, principal, query);
  const compiled = compileQueryMemoized(live.model, query, target.options);
  return {
    sql: compiled.sql,
    params: [...compiled.params],
    node: compiled.node,
    connection: target.connection.name,
    engine: target.connection.engine,
    model_version: live.version,
    cached: (await services.governed.cachedAnswer(key)) !== undefined,
  };
}

/** A scene run as C's POST /v1/scenes/:id/run answers it; scene runs always read the warehouse. */
export async function runScene(services: Services, principal: Principal, sceneId: string, options: SceneRunOptions) {
  if (options.limit === undefined) throw new BadRequestError('a scene run through MCP needs a row limit', 'invalid_limit');
  const live = await services.governed.live(principal);
  const run = await services.scenes.run(principal, sceneId, options);
  const provenance: Provenance = { model_version: live.version, freshness: run.result.ranAt, cache: 'bypass' };
  return { answer: presentSceneRun(run), provenance };
}
