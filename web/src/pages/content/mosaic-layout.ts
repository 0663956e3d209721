// Where a mosaic's tiles sit on its 12-column grid (mosaic-definition.ts: x 0–11, w 1–12, x + w ≤ 12,
// no overlaps). The editor keeps tiles as a list in reading order and lays them out again after every
// change: each tile keeps its width and height and flows left to right, a new row starting when the
// next tile would pass the twelfth column. So moving a tile up or down is moving it in the list, and a
// saved layout can never overlap.
import type { MosaicTile, TileLayout } from './content-types.js';

export const GRID_COLUMNS = 12;
export const MAX_TILE_HEIGHT = 100;

/** Reading order: top to bottom, then left to right. */
export function readingOrder<T extends { layout: TileLayout }>(tiles: readonly T[]): T[] {
  return [...tiles].sort((a, b) => a.layout.y - b.layout.y || a.layout.x - b.layout.x);
}

/** The tiles laid out again in list order, widths and heights kept (clamped to the grid). */
export function flow<T extends { layout: TileLayout }>(tiles: readonly T[]): T[] {
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  return tiles.map((tile) => {
    const w = Math.min(GRID_COLUMNS, Math.max(1, Math.round(tile.layout.w)));
    const h = Math.min(MAX_TILE_HEIGHT, Math.max(1, Math.round(tile.layout.h)));
    if (x + w > GRID_COLUMNS) {
      y += rowHeight;
      x = 0;
      rowHeight = 0;
    }
    const layout = { x, y, w, h };
    x += w;
    rowHeight = Math.max(rowHeight, h);
    return { ...tile, layout };
  });
}

/** The list with the tile at `index` swapped with its neighbour (`by` -1: earlier, 1: later), laid out again. */
export function moveTile<T extends { layout: TileLayout }>(tiles: readonly T[], index: number, by: -1 | 1): T[] {
  const target = index + by;
  if (target < 0 || target >= tiles.length) return [...tiles];
  const next = [...tiles];
  [next[index], next[target]] = [next[target]!, next[index]!];
  return flow(next);
}

/** A tile id not yet used in the mosaic ("tile-3"). */
export function freshTileId(tiles: readonly Pick<MosaicTile, 'id'>[]): string {
  const used = new Set(tiles.map((t) => t.id));
  let n = tiles.length + 1;
  while (used.has(`tile-${n}`)) n += 1;
  return `tile-${n}`;
}

/** A tile as PATCH /api/mosaics/:id takes it: its scene summary (a read-only addition) left out. */
export function savedTile(tile: MosaicTile): Omit<MosaicTile, 'scene'> {
  const { scene: _scene, ...rest } = tile;
  return rest;
}
