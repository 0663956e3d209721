// A mosaic as the APIs show it: in lists a summary, read alone with its tiles resolved (scene tiles
// with their scene's summary, or `hidden`), and the answer of a run, tile by tile.
import { z } from 'zod';
import { VISUALIZATION_TYPES } from '../../content/scene-definition.js';
import type { MosaicFilter, Tile } from '../../content/mosaic-definition.js';
import type { ResolvedTile, TileOutcome } from '../../content/mosaic-service.js';
import type { MosaicRow } from '../../store/scenes-repo.js';
import { presentSceneRun, sceneRunAnswerSchema, visualizationAnswerSchema } from './scene-schema.js';

const layout = z.object({ x: z.number().int(), y: z.number().int(), w: z.number().int(), h: z.number().int() });
const filter = z.object({ field: z.string(), operator: z.string(), value: z.any().optional(), tiles: z.array(z.string()).optional() });

const shownTile = z.object({
  id: z.string(),
  kind: z.enum(['scene', 'text', 'heading', 'hidden']).describe('`hidden`: a scene tile whose scene you may not see (nothing else of it is shown)'),
  scene_id: z.string().optional(),
  text: z.string().optional(),
  layout,
  scene: z
    .object({
      id: z.string(),
      name: z.string(),
      node: z.string(),
      status: z.enum(['ok', 'broken']),
      visualization_type: z.enum(VISUALIZATION_TYPES),
      visualization: visualizationAnswerSchema.describe('how the scene is drawn, as saved: the tile is drawn the same way'),
    })
    .optional()
    .describe("a scene tile's scene, summarised"),
});

const base = {
  id: z.string(),
  name: z.string(),
  description: z.string(),
  vault: z.string(),
  version: z.number().int(),
  created_by: z.string().nullable(),
  updated_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
};

export const mosaicSummarySchema = z.object({ ...base, tile_count: z.number().int() });
export const mosaicSchema = z.object({ ...base, tiles: z.array(shownTile), filters: z.array(filter) });

function common(row: MosaicRow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    vault: row.vault_id,
    version: row.version,
    created_by: row.created_by,
    updated_by: row.updated_by,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function presentMosaicSummary(row: MosaicRow): z.infer<typeof mosaicSummarySchema> {
  return { ...common(row), tile_count: (row.tiles as Tile[]).length };
}

export function presentMosaic(row: MosaicRow, tiles: ResolvedTile[]): z.infer<typeof mosaicSchema> {
  return {
    ...common(row),
    tiles: tiles.map((entry) => {
      if ('hidden' in entry) return { id: entry.tile.id, kind: 'hidden' as const, layout: entry.tile.layout };
      const { tile, scene } = entry;
      return {
        ...tile,
        ...(scene
          ? {
              scene: {
                id: scene.id,
                name: scene.name,
                node: scene.node,
                status: scene.status,
                visualization_type: (scene.visualization as z.infer<typeof visualizationAnswerSchema>).type,
                visualization: scene.visualization as z.infer<typeof visualizationAnswerSchema>,
              },
            }
          : {}),
      };
    }),
    filters: row.filters as MosaicFilter[],
  };
}

export const mosaicRunSchema = z.object({
  mosaic: z.object({ id: z.string(), name: z.string() }),
  tiles: z.array(
    z.object({
      tile_id: z.string(),
      kind: z.enum(['scene', 'hidden']),
      result: sceneRunAnswerSchema.optional().describe("the tile's scene run, as POST /v1/scenes/:id/run answers it"),
      error: z.object({ error: z.string(), code: z.string(), status: z.number().int() }).optional().describe('why this tile failed; the other tiles are unaffected'),
    }),
  ),
});

export function presentMosaicRun(mosaic: MosaicRow, tiles: TileOutcome[]): z.infer<typeof mosaicRunSchema> {
  return {
    mosaic: { id: mosaic.id, name: mosaic.name },
    tiles: tiles.map((outcome) => {
      if ('hidden' in outcome) return { tile_id: outcome.tile.id, kind: 'hidden' as const };
      if ('error' in outcome) return { tile_id: outcome.tile.id, kind: 'scene' as const, error: outcome.error };
      return { tile_id: outcome.tile.id, kind: 'scene' as const, result: presentSceneRun(outcome.run) };
    }),
  };
}
