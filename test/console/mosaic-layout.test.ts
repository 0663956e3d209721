// How the mosaic editor lays tiles out on the 12-column grid (every change flows them again in list
// order, sizes kept, so a saved layout never overlaps), and saved filters said in words.
import { describe, expect, it } from 'vitest';
import { flow, freshTileId, moveTile, readingOrder, savedTile } from '../../web/src/pages/content/mosaic-layout.js';
import { filterInWords } from '../../web/src/pages/content/filter-words.js';
import type { MosaicTile } from '../../web/src/pages/content/content-types.js';

const tile = (id: string, w: number, h: number, x = 0, y = 0): MosaicTile => ({ id, kind: 'text', text: id, layout: { x, y, w, h } });
const layouts = (tiles: MosaicTile[]) => tiles.map((t) => [t.id, t.layout]);
const overlaps = (a: MosaicTile['layout'], b: MosaicTile['layout']) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

describe('mosaic layout', () => {
  it('flows tiles left to right, starting a row below the tallest tile when the next would pass column 12', () => {
    expect(layouts(flow([tile('a', 12, 1), tile('b', 3, 2), tile('c', 6, 5), tile('d', 3, 2), tile('e', 6, 5)]))).toEqual([
      ['a', { x: 0, y: 0, w: 12, h: 1 }],
      ['b', { x: 0, y: 1, w: 3, h: 2 }],
      ['c', { x: 3, y: 1, w: 6, h: 5 }],
      ['d', { x: 9, y: 1, w: 3, h: 2 }],
      ['e', { x: 0, y: 6, w: 6, h: 5 }],
    ]);
  });

  it('keeps sizes inside the grid and never overlaps, whatever the sizes', () => {
    const sizes = [[13, 0], [5, 3], [8, 1], [1, 200], [12, 4], [7, 2], [6, 6]] as const;
    const flowed = flow(sizes.map(([w, h], i) => tile(`t${i}`, w, h)));
    for (const t of flowed) {
      expect(t.layout.x + t.layout.w).toBeLessThanOrEqual(12);
      expect(t.layout.w).toBeGreaterThanOrEqual(1);
      expect(t.layout.h).toBeGreaterThanOrEqual(1);
      expect(t.layout.h).toBeLessThanOrEqual(100);
    }
    flowed.forEach((a, i) => flowed.slice(i + 1).forEach((b) => expect(overlaps(a.layout, b.layout)).toBe(false)));
  });

  it('moves a tile before or after its neighbour and lays the list out again; the ends stay put', () => {
    const tiles = flow([tile('a', 6, 2), tile('b', 6, 2), tile('c', 12, 1)]);
    expect(layouts(moveTile(tiles, 1, -1))).toEqual([
      ['b', { x: 0, y: 0, w: 6, h: 2 }],
      ['a', { x: 6, y: 0, w: 6, h: 2 }],
      ['c', { x: 0, y: 2, w: 12, h: 1 }],
    ]);
    expect(moveTile(tiles, 2, 1).map((t) => t.id)).toEqual(['a', 'b', 'c']);
    expect(moveTile(tiles, 0, -1).map((t) => t.id)).toEqual(['a', 'b', 'c']);
  });

  it('reads a stored layout top to bottom, then left to right', () => {
    expect(readingOrder([tile('late', 6, 1, 0, 3), tile('right', 6, 1, 6, 0), tile('left', 6, 1, 0, 0)]).map((t) => t.id)).toEqual(['left', 'right', 'late']);
  });

  it('names a new tile with an id not yet used, and saves a tile without its scene summary', () => {
    expect(freshTileId([{ id: 'tile-2' }, { id: 'tile-3' }])).toBe('tile-4');
    expect(freshTileId([{ id: 'x' }])).toBe('tile-2');
    const scene: MosaicTile = { id: 's', kind: 'scene', scene_id: 'id-1', layout: { x: 0, y: 0, w: 6, h: 4 }, scene: { id: 'id-1', name: 'S', node: 'orders', status: 'ok', visualization_type: 'bar' } };
    expect(savedTile(scene)).toEqual({ id: 's', kind: 'scene', scene_id: 'id-1', layout: { x: 0, y: 0, w: 6, h: 4 } });
  });
});

describe('filters in words', () => {
  const label = (id: string) => ({ ship_region: 'Region', created_at: 'Ordered at' })[id] ?? id;
  it('says field filters, ranges, empties and groups as the server applies them', () => {
    expect(filterInWords({ field: 'ship_region', operator: 'in', value: ['Europe', 'Asia Pacific'] }, label)).toBe('Region is one of Europe, Asia Pacific');
    expect(filterInWords({ field: 'created_at', operator: 'inDateRange', value: ['2025-01-01', '2025-03-31'] }, label)).toBe('Ordered at is in the date range 2025-01-01 to 2025-03-31');
    expect(filterInWords({ field: 'channel', operator: 'isNull' }, label)).toBe('channel is empty');
    expect(filterInWords({ not: { field: 'channel', operator: 'startsWith', value: 'w' } }, label)).toBe('not (channel starts with w)');
    expect(filterInWords({ or: [{ field: 'channel', operator: 'equals', value: 'web' }, { and: [{ field: 'status', operator: 'equals', value: 'completed' }, { field: 'amount', operator: 'gt', value: 10 }] }] }))
      .toBe('either channel is web or status is completed and amount is greater than 10');
  });
});
