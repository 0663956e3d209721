// Rollups of the deployed model: GET /rollups (each one's builds, rows, freshness and answer counts) and
// POST /rollups/:node/:name/build ("build now": every partition due now; the build loop runs it).
// Mounted on C at /v1 (scopes models:read and models:write) and in the console at /api; reading needs
// the editor role, building the luminary's (a build reads the whole source: it costs the warehouse).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RollupOverview } from '../../rollups/rollup-overview.js';
import { ROLLUP_BUILD_STATES } from '../../store/schema.js';
import { operationId, type RoutePlace } from '../route-place.js';

const rollupSchema = z.object({
  node: z.string(),
  name: z.string(),
  table: z.string().describe('its table, `<node>__<rollup>__<hash>` (in a rollup schema the stored table is `r<workspace token>_<hash>_<node>__<rollup>`): a changed definition is a new table'),
  state: z.enum(ROLLUP_BUILD_STATES).describe('`failed` if any partition\'s last build failed, else `building` if one is being built, else `pending` if one was never built, else `ready`'),
  partitions_built: z.number().int(),
  partitions_total: z.number().int().describe('partitions planned (1 for a rollup built whole)'),
  rows: z.number().int().describe('rows stored over its built partitions'),
  last_built_at: z.string().nullable(),
  last_build_ms: z.number().int().nullable().describe('how long its latest partition build took'),
  next_refresh_at: z.string().nullable().describe('the earliest build due; null when none is (refreshed on deploy only, or every partition complete)'),
  build_due: z.boolean().describe('a build is due now: the build loop starts it at its next poll ("build now" sets this)'),
  last_error: z.string().nullable(),
  hits: z.number().int().describe('governed queries it answered'),
  misses: z.number().int().describe('governed queries of its node answered from the source instead'),
  miss_reasons: z.record(z.string(), z.number().int()).describe("misses by the reason code an answer's metadata.rollup gives (`not_built`, `partial`, `lacks_dimension`…)"),
  storage: z.enum(['embedded', 'warehouse']).describe("where its rows live: the workspace's embedded rollup file, or the `rollup_schema` of its node's connection"),
  table_bytes: z.number().int().nullable().describe('size of its table as the warehouse reports it (`warehouse` storage; null otherwise, or when not known)'),
});

const params = z.object({ node: z.string().min(1).max(200).describe("the rollup's node"), name: z.string().min(1).max(200).describe("the rollup's name") });

function present(rollup: RollupOverview): z.infer<typeof rollupSchema> {
  return {
    node: rollup.node,
    name: rollup.rollup,
    table: rollup.table,
    state: rollup.state,
    partitions_built: rollup.partitionsBuilt,
    partitions_total: rollup.partitions,
    rows: rollup.rows,
    last_built_at: rollup.lastBuiltAt?.toISOString() ?? null,
    last_build_ms: rollup.lastBuildMs,
    next_refresh_at: rollup.nextRefreshAt?.toISOString() ?? null,
    build_due: rollup.due,
    last_error: rollup.lastError,
    hits: rollup.answers.hits,
    misses: rollup.answers.misses,
    miss_reasons: { ...rollup.answers.missReasons },
    storage: rollup.storage,
    table_bytes: rollup.tableBytes,
  };
}

export const rollupRoutes: FastifyPluginAsyncZod<RoutePlace> = async (app, place) => {
  const { services, tags } = place;
  const id = (name: string) => operationId(place, name);

  app.get(
    '/rollups',
    {
      config: place.policy({ scope: 'models:read', role: 'editor' }),
      schema: {
        tags,
        operationId: id('listRollups'),
        summary: 'Rollups of the deployed model: builds, rows, freshness and how many queries each answered (editor)',
        response: {
          200: z.object({
            rollups: z.array(rollupSchema),
            file_bytes: z.number().int().nullable().describe("size on disk of the workspace's rollup file, which holds all its rollups (null: nothing built yet)"),
          }),
        },
      },
    },
    async (request) => {
      const { rollups, fileBytes } = await services.rollupOverviews.list(request.principal!.workspace.id);
      return { rollups: rollups.map(present), file_bytes: fileBytes };
    },
  );

  app.post(
    '/rollups/:node/:name/build',
    {
      config: place.policy({ scope: 'models:write', role: 'luminary' }),
      schema: {
        tags,
        operationId: id('buildRollup'),
        summary: 'Build now: every partition of the rollup becomes due at once; the build loop builds it (luminary)',
        params,
        errors: { 404: 'No such rollup in the deployed model of your workspace (`unknown_rollup`)' },
        response: { 202: z.object({ rollup: rollupSchema }) },
      },
    },
    async (request, reply) => {
      const rollup = await services.rollupOverviews.buildNow(request.principal!.workspace.id, request.params.node, request.params.name);
      return reply.code(202).send({ rollup: present(rollup) });
    },
  );
};
