// A scene as the APIs show it, and the answer of a scene run (POST /v1/query's shape plus the scene).
import { z } from 'zod';
import { VISUALIZATION_TYPES, type SavedQuery } from '../../content/scene-definition.js';
import type { SceneRun } from '../../content/scene-service.js';
import type { SceneRow } from '../../store/scenes-repo.js';
import { presentQueryAnswer, queryAnswerSchema } from '../structured/query-routes.js';

/** How a scene is drawn, as the APIs show it (a mosaic's tiles carry it too). */
export const visualizationAnswerSchema = z.object({
  type: z.enum(VISUALIZATION_TYPES),
  x: z.string().optional(),
  y: z.array(z.string()).optional(),
  series: z.string().optional(),
  color: z.string().optional(),
  options: z.record(z.string(), z.any()).optional(),
});

export const sceneSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  vault: z.string().describe('id of the vault the scene is kept in'),
  node: z.string(),
  dimensions: z.array(z.string()),
  measures: z.array(z.string()),
  filters: z.array(z.any().describe('a filter as POST /v1/query takes it')),
  sorts: z.array(z.object({ field: z.string(), direction: z.enum(['asc', 'desc']) })),
  limit: z.number().int().nullable(),
  compare: z
    .object({ dimension: z.string(), range: z.array(z.string()), to: z.union([z.enum(['previous_period', 'previous_year']), z.object({ range: z.array(z.string()) })]) })
    .optional()
    .describe('as POST /v1/query takes it; absent when the scene compares no periods'),
  shares: z.array(z.object({ measure: z.string(), of: z.array(z.string()) })).optional().describe('as POST /v1/query takes them; absent when none'),
  per: z.array(z.object({ measure: z.string(), by: z.string() })).optional().describe('as POST /v1/query takes them; absent when none'),
  visualization: visualizationAnswerSchema,
  status: z.enum(['ok', 'broken']).describe('broken when the live model lost its node or a field; set at every deploy'),
  broken_reason: z.string().nullable(),
  version: z.number().int().describe('goes up by one with every change; send it back in If-Match to refuse lost updates'),
  created_by: z.string().nullable(),
  updated_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export function presentScene(row: SceneRow): z.infer<typeof sceneSchema> {
  const query = row.query as SavedQuery;
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    vault: row.vault_id,
    node: row.node,
    dimensions: query.dimensions,
    measures: query.measures,
    filters: query.filters,
    sorts: query.sorts,
    limit: query.limit ?? null,
    ...(query.compare ? { compare: query.compare } : {}),
    ...(query.shares?.length ? { shares: query.shares } : {}),
    ...(query.per?.length ? { per: query.per } : {}),
    visualization: row.visualization as z.infer<typeof visualizationAnswerSchema>,
    status: row.status,
    broken_reason: row.broken_reason,
    version: row.version,
    created_by: row.created_by,
    updated_by: row.updated_by,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export const sceneRunAnswerSchema = queryAnswerSchema.extend({
  scene: z.object({ id: z.string(), name: z.string() }),
  query: z.any().describe('the POST /v1/query body that ran: the saved query with the run’s filters, limit and time zone'),
});

export function presentSceneRun(run: SceneRun): z.infer<typeof sceneRunAnswerSchema> {
  // (metadata.cached is false: a scene run always reads the warehouse.)
  return { ...presentQueryAnswer(run.result), scene: { id: run.scene.id, name: run.scene.name }, query: run.query };
}
