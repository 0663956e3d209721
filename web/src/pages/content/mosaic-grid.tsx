// A mosaic drawn on its 12-column grid: every tile at its stored column, row, width and height (CSS
// grid lines from the layout, through custom properties: the page's CSP allows no style attributes
// written in markup, and Preact sets these through the DOM). Each scene tile has its own state: loading
// until the mosaic's run answers, then its chart (the scene's saved type) and rows, or its own error.
// The tile's heading names the scene, so its chart does not again, and a single number is not repeated
// in a grid. Its table shows up to ten rows whole (scrolling only beyond): the chart takes the height
// they leave, down to a least height, and a tile too low for both grows its grid rows (styles.css)
// rather than scroll. A scene tile says which of the mosaic's filters do not apply to it: the server
// skips a filter on a field the tile's node does not have, so its numbers are not narrowed by it.
import type { JSX } from 'preact';
import { CHART_LABELS } from '../../components/chart-labels';
import type { Visualization } from '../../components/chart-plan';
import { gridHeight } from '../../components/data-grid';
import type { MosaicFilter, MosaicTile, SceneRun, TileError } from './content-types';
import { filterInWords } from './filter-words';
import { fieldLabel, tilesReached, type NodeFields } from './mosaic-fields';
import { readingOrder } from './mosaic-layout';
import { RunView } from './scene-run-view';

/** One grid row's height in pixels (styles.css: .mosaic-grid grid-auto-rows) and the gap between rows. */
const ROW_PX = 64;
const GAP_PX = 10;
/** The rows a tile's table shows whole; beyond them it scrolls. */
const TILE_TABLE_ROWS = 10;
/** A scene tile's height besides its chart and table: padding, heading, the chart's margins and legend. */
const TILE_CHROME_PX = 110;
const MIN_CHART_PX = 140;

export interface TileOutcome { run?: SceneRun; error?: TileError }

export function placement(tile: Pick<MosaicTile, 'layout'>): JSX.CSSProperties {
  const { x, y, w, h } = tile.layout;
  return { '--col': String(x + 1), '--row': String(y + 1), '--w': String(w), '--h': String(h) } as JSX.CSSProperties;
}

/** The filters meant for the tile (all, or those naming it) that its node has no field for; none while its fields load. */
function skippedFilters(tile: MosaicTile, filters: readonly MosaicFilter[], fields: NodeFields | undefined): MosaicFilter[] {
  if (!tile.scene || !fields?.has(tile.scene.node)) return [];
  return filters.filter((f) => (!f.tiles || f.tiles.includes(tile.id)) && tilesReached(f, [tile], fields).length === 0);
}

function TileBody({ tile, outcome, running, fields, filters }: { tile: MosaicTile; outcome: TileOutcome | undefined; running: boolean; fields: NodeFields | undefined; filters: readonly MosaicFilter[] }) {
  const name = outcome?.run?.scene.name ?? tile.scene?.name;
  if (tile.kind === 'heading') return <h3>{tile.text}</h3>;
  if (tile.kind === 'text') return <p class="tile-text">{tile.text}</p>;
  if (tile.kind === 'hidden') return <p class="muted">A tile you may not see.</p>;
  const visualization: Visualization = tile.scene?.visualization ?? { type: tile.scene?.visualization_type ?? 'table' };
  const tablePx = gridHeight(Math.min(outcome?.run?.data.length ?? 0, TILE_TABLE_ROWS));
  const chartHeight = Math.max(MIN_CHART_PX, tile.layout.h * (ROW_PX + GAP_PX) - GAP_PX - TILE_CHROME_PX - tablePx);
  return (
    <>
      <h3>{name ?? 'A scene that is gone'}</h3>
      {skippedFilters(tile, filters, fields).map((f, i) => (
        <p key={i} class="muted tile-note">Filter {filterInWords(f, (id) => fieldLabel(fields, id))} does not apply here: node {tile.scene?.node} has no field {f.field}.</p>
      ))}
      {!outcome?.run && !outcome?.error && running ? <p class="muted" role="status">Loading {name}…</p> : null}
      {outcome?.run && name ? <RunView run={outcome.run} title={name} visualization={visualization} height={chartHeight} node={tile.scene?.node} fields={fields} showTitle={false} viewRows={TILE_TABLE_ROWS} figureAlone /> : null}
      {outcome?.error ? (
        <div class="error" role="alert">
          <strong>{outcome.error.error}</strong>
          <p class="muted">code: {outcome.error.code}</p>
        </div>
      ) : null}
      {!outcome && !running ? <p class="muted">{CHART_LABELS[visualization.type]}: drawn when the mosaic runs.</p> : null}
    </>
  );
}

/** What a tile is called: its scene's name, a heading's text, a text tile's first words. */
function tileTitle(tile: MosaicTile): string {
  if (tile.scene) return tile.scene.name;
  const text = (tile.text ?? '').trim();
  if (tile.kind === 'heading') return text;
  if (tile.kind === 'text') return `text ${text.length > 30 ? `${text.slice(0, 30)}…` : text}`;
  return tile.id;
}

/**
 * `fields`: the fields of the tiles' nodes, so that each tile names its columns and writes its values as the
 * model says; `filters`: those the run applies (the mosaic's and the viewer's), each tile noting any it skips.
 */
export function MosaicGrid({ name, tiles, outcomes, running, fields, filters = [] }: { name: string; tiles: MosaicTile[]; outcomes: Map<string, TileOutcome> | undefined; running: boolean; fields?: NodeFields | undefined; filters?: readonly MosaicFilter[] }) {
  return (
    <div class="mosaic-grid" role="group" aria-label={`Mosaic ${name}`}>
      {readingOrder(tiles).map((tile) => {
        return (
          <article key={tile.id} class={`tile tile-${tile.kind}`} style={placement(tile)} aria-label={`Tile ${tileTitle(tile)}`} aria-busy={running && tile.kind === 'scene' && !outcomes?.get(tile.id)}>
            <TileBody tile={tile} outcome={outcomes?.get(tile.id)} running={running} fields={fields} filters={filters} />
          </article>
        );
      })}
    </div>
  );
}
