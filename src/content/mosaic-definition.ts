// What a mosaic is: tiles (scenes, text, headings) on a 12-column grid and filters that apply to the
// scene tiles whose node has the filtered field. Shape by zod; references (scene ids) are checked by
// the service, which knows what the caller may see.
import { z } from 'zod';

export const GRID_COLUMNS = 12;
export const MAX_TILES = 100;
const MAX_ROWS = 1000;

const layoutSchema = z
  .object({
    x: z.number().int().min(0).max(GRID_COLUMNS - 1).describe('column of the left edge, 0 to 11'),
    y: z.number().int().min(0).max(MAX_ROWS).describe('row of the top edge'),
    w: z.number().int().min(1).max(GRID_COLUMNS).describe('width in columns'),
    h: z.number().int().min(1).max(100).describe('height in rows'),
  })
  .strict();

export const tileSchema = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a tile id is 1 to 64 letters, digits, "_" or "-"'),
    kind: z.enum(['scene', 'text', 'heading']),
    scene_id: z.uuid().optional(),
    text: z.string().max(10_000).optional(),
    layout: layoutSchema,
  })
  .strict();
export type Tile = z.infer<typeof tileSchema>;

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const mosaicFilterSchema = z
  .object({
    field: z.string().min(1).max(300),
    operator: z.string().min(1).max(50),
    value: z.union([scalar, z.array(scalar).max(1000)]).optional(),
    tiles: z.array(z.string()).max(MAX_TILES).optional().describe('only these tiles; every scene tile whose node has the field when omitted'),
  })
  .strict();
export type MosaicFilter = z.infer<typeof mosaicFilterSchema>;

interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

function overlap(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/** Tiles fit the grid, do not overlap, have unique ids and the content their kind needs. */
export const tilesSchema = z
  .array(tileSchema)
  .max(MAX_TILES)
  .superRefine((tiles, ctx) => {
    const seen = new Set<string>();
    tiles.forEach((tile, index) => {
      if (seen.has(tile.id)) ctx.addIssue({ code: 'custom', path: [index, 'id'], message: `tile id "${tile.id}" appears more than once` });
      seen.add(tile.id);
      if (tile.layout.x + tile.layout.w > GRID_COLUMNS) {
        ctx.addIssue({ code: 'custom', path: [index, 'layout'], message: `tile "${tile.id}" ends at column ${tile.layout.x + tile.layout.w}, past the ${GRID_COLUMNS}-column grid` });
      }
      if (tile.kind === 'scene' && !tile.scene_id) ctx.addIssue({ code: 'custom', path: [index, 'scene_id'], message: `scene tile "${tile.id}" needs a scene_id` });
      if (tile.kind !== 'scene' && tile.text === undefined) ctx.addIssue({ code: 'custom', path: [index, 'text'], message: `${tile.kind} tile "${tile.id}" needs a text` });
      if (tile.kind !== 'scene' && tile.scene_id) ctx.addIssue({ code: 'custom', path: [index, 'scene_id'], message: `only scene tiles have a scene_id` });
      const clash = tiles.slice(0, index).find((other) => overlap(other.layout, tile.layout));
      if (clash) ctx.addIssue({ code: 'custom', path: [index, 'layout'], message: `tile "${tile.id}" overlaps tile "${clash.id}"` });
    });
  });

export const mosaicInputSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    description: z.string().max(5000).default(''),
    vault: z.uuid().optional().describe("the vault to keep the mosaic in; the caller's personal vault when omitted"),
    tiles: tilesSchema.default([]),
    filters: z.array(mosaicFilterSchema).max(50).default([]),
  })
  .strict();
export type MosaicInput = z.output<typeof mosaicInputSchema>;

export const mosaicPatchSchema = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    description: z.string().max(5000).optional(),
    vault: z.uuid().optional(),
    tiles: tilesSchema.optional(),
    filters: z.array(mosaicFilterSchema).max(50).optional(),
  })
  .strict();
export type MosaicPatch = z.output<typeof mosaicPatchSchema>;

export const mosaicRunSchema = z
  .object({
    filters: z.array(mosaicFilterSchema).max(50).default([]).describe('added to the mosaic filters, applied the same way'),
    timezone: z.string().min(1).max(64).optional(),
  })
  .strict();
export type MosaicRunOptions = z.output<typeof mosaicRunSchema>;
