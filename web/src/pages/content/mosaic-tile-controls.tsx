// The editor's controls for the tiles of a mosaic, in reading order: each tile's width (columns of 12)
// and height (rows), its text for a text or heading tile, Move up / Move down and Remove; and a form to
// add a tile: a scene drawn as its saved chart, a single number (a scene saved with the Number chart
// type: mosaic tiles are scene, text or heading tiles, so a number is a scene that draws as one), a
// text or a heading. Every change lays the tiles out again (mosaic-layout.ts), so none overlap.
import { useState } from 'preact/hooks';
import { CHART_LABELS } from '../../components/chart-labels';
import { SelectField, TextField } from '../../components/field';
import type { MosaicTile, Scene } from './content-types';
import { flow, freshTileId, GRID_COLUMNS, moveTile } from './mosaic-layout';

type NewKind = 'scene' | 'number' | 'text' | 'heading';
const KIND_OPTIONS: Array<{ value: NewKind; label: string }> = [
  { value: 'scene', label: 'Scene (its saved chart)' },
  { value: 'number', label: 'Single number (a scene saved as Number)' },
  { value: 'text', label: 'Text' },
  { value: 'heading', label: 'Heading' },
];
const SIZES: Record<NewKind, { w: number; h: number }> = { scene: { w: 6, h: 5 }, number: { w: 3, h: 2 }, text: { w: 6, h: 2 }, heading: { w: 12, h: 1 } };
const range = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1));

export function tileLabel(tile: MosaicTile, index: number): string {
  if (tile.kind === 'scene') return tile.scene?.name ?? `scene tile ${index + 1}`;
  if (tile.kind === 'hidden') return `hidden tile ${index + 1}`;
  const text = (tile.text ?? '').trim();
  return `${tile.kind} ${text.length > 30 ? `${text.slice(0, 30)}…` : text || index + 1}`;
}

function sceneTile(scene: Scene, tiles: MosaicTile[], size: { w: number; h: number }): MosaicTile {
  const summary = { id: scene.id, name: scene.name, node: scene.node, status: scene.status, visualization_type: scene.visualization.type, visualization: scene.visualization };
  return { id: freshTileId(tiles), kind: 'scene', scene_id: scene.id, scene: summary, layout: { x: 0, y: 0, ...size } };
}

function AddTile({ tiles, scenes, onAdd }: { tiles: MosaicTile[]; scenes: Scene[]; onAdd: (tile: MosaicTile) => void }) {
  const [kind, setKind] = useState<NewKind>('scene');
  const [sceneId, setSceneId] = useState('');
  const [text, setText] = useState('');
  const offered = kind === 'number' ? scenes.filter((s) => s.visualization.type === 'number') : scenes;
  const chosen = offered.find((s) => s.id === sceneId) ?? offered[0];
  const add = () => {
    if (kind === 'scene' || kind === 'number') {
      if (chosen) onAdd(sceneTile(chosen, tiles, SIZES[kind]));
    } else if (text.trim()) {
      onAdd({ id: freshTileId(tiles), kind, text: text.trim(), layout: { x: 0, y: 0, ...SIZES[kind] } });
      setText('');
    }
  };
  return (
    <div class="row" role="group" aria-label="Add a tile">
      <SelectField label="New tile" value={kind} options={KIND_OPTIONS} onChange={(v) => setKind(v as NewKind)} />
      {kind === 'scene' || kind === 'number' ? (
        offered.length ? (
          <SelectField label="Scene" value={chosen?.id ?? ''} options={offered.map((s) => ({ value: s.id, label: `${s.name} (${CHART_LABELS[s.visualization.type]})` }))} onChange={setSceneId} />
        ) : <p class="muted">{kind === 'number' ? 'No scene is saved with the Number chart type: save one from Explore or edit a scene.' : 'No scenes yet.'}</p>
      ) : (
        <TextField label="Tile text" value={text} onInput={setText} />
      )}
      <button type="button" onClick={add} disabled={kind === 'scene' || kind === 'number' ? !chosen : !text.trim()}>Add tile</button>
    </div>
  );
}

export function TileControls({ tiles, scenes, onChange }: { tiles: MosaicTile[]; scenes: Scene[]; onChange: (tiles: MosaicTile[]) => void }) {
  const change = (index: number, patch: Partial<MosaicTile>) => onChange(flow(tiles.map((t, i) => (i === index ? { ...t, ...patch } : t))));
  return (
    <fieldset>
      <legend>Tiles</legend>
      {tiles.length === 0 ? <p class="muted">No tiles yet: add one below.</p> : null}
      <ol class="tile-controls">
        {tiles.map((tile, i) => {
          const label = tileLabel(tile, i);
          return (
            // The group is inside the item: a role on the <li> itself would leave the list without items.
            <li key={tile.id}><div role="group" aria-label={`Tile ${i + 1}: ${label}`} class="row">
              <span class="tile-name">{label}</span>
              <SelectField label={`Width of ${label}`} value={String(tile.layout.w)} options={range(GRID_COLUMNS).map((n) => ({ value: n, label: `${n} of 12 columns` }))}
                onChange={(v) => change(i, { layout: { ...tile.layout, w: Number(v) } })} />
              <SelectField label={`Height of ${label}`} value={String(tile.layout.h)} options={range(Math.max(12, tile.layout.h)).map((n) => ({ value: n, label: `${n} row${n === '1' ? '' : 's'}` }))}
                onChange={(v) => change(i, { layout: { ...tile.layout, h: Number(v) } })} />
              {tile.kind === 'text' || tile.kind === 'heading' ? <TextField label={`Text of ${label}`} value={tile.text ?? ''} onInput={(v) => change(i, { text: v })} /> : null}
              <button type="button" disabled={i === 0} onClick={() => onChange(moveTile(tiles, i, -1))} aria-label={`Move ${label} up`}>Move up</button>
              <button type="button" disabled={i === tiles.length - 1} onClick={() => onChange(moveTile(tiles, i, 1))} aria-label={`Move ${label} down`}>Move down</button>
              <button type="button" onClick={() => onChange(flow(tiles.filter((_, j) => j !== i)))} aria-label={`Remove ${label}`}>Remove</button>
            </div></li>
          );
        })}
      </ol>
      <AddTile tiles={tiles} scenes={scenes} onAdd={(tile) => onChange(flow([...tiles, tile]))} />
    </fieldset>
  );
}
