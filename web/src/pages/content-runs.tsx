// Scenes and mosaics on the Content page. A scene runs through POST /api/scenes/:id/run and a mosaic
// through POST /api/mosaics/:id/run, so each run is recorded as a scene or mosaic run and a mosaic's
// tiles run as the mosaic route runs them (its filters applied, a few at a time). A tile that fails
// shows its own error; the others still show their rows. A run is drawn as its scene's saved chart type.
import { useState } from 'preact/hooks';
import { get, post } from '../api';
import type { Visualization } from '../components/chart-plan';
import { DataGrid } from '../components/data-grid';
import { SceneChart } from '../components/scene-chart';
import { ErrorBox } from '../components/feedback';
import { Section } from '../components/field';
import { useAction } from '../components/use-load';
import { LoadMore, usePaged } from '../components/use-paged';

interface Scene { id: string; name: string; node: string; dimensions: string[]; measures: string[]; status: string; broken_reason: string | null; visualization: Visualization }
interface SceneRun { data: Array<Record<string, unknown>>; metadata: { row_count: number }; scene: { id: string; name: string } }
interface Mosaic { id: string; name: string; tile_count: number }
interface MosaicTile {
  id: string;
  kind: 'scene' | 'text' | 'heading' | 'hidden';
  text?: string;
  scene?: { name: string; visualization_type: Visualization['type']; visualization?: Visualization };
  layout: { x: number; y: number; w: number; h: number };
}
interface TileError { error: string; code: string; status: number }
interface MosaicRun { tiles: Array<{ tile_id: string; result?: SceneRun; error?: TileError }> }
interface ShownTile { tile: MosaicTile; run?: SceneRun; error?: TileError }

function RunView({ run, title, visualization }: { run: SceneRun; title: string; visualization: Visualization }) {
  const columns = run.data[0] ? Object.keys(run.data[0]) : [];
  return (
    <div>
      <SceneChart visualization={visualization} columns={columns} rows={run.data} title={title} height={180} />
      <DataGrid label={`${title} rows`} columns={columns.map((name) => ({ name }))} rows={run.data} />
    </div>
  );
}

export function Scenes() {
  const scenes = usePaged<Scene>('/api/scenes?limit=50', 'scenes');
  const [run, setRun] = useState<{ result: SceneRun; visualization: Visualization }>();
  const { error, run: act } = useAction();
  const open = (scene: Scene) =>
    act(async () => setRun({ result: await post<SceneRun>(`/api/scenes/${encodeURIComponent(scene.id)}/run`), visualization: scene.visualization }));
  return (
    <Section title="Scenes">
      <ErrorBox error={scenes.error ?? error} />
      <ul>
        {scenes.items.map((s) => (
          <li key={s.id}>
            <button type="button" onClick={() => open(s)} aria-label={`Run scene ${s.name}`}>Run</button> <strong>{s.name}</strong>{' '}
            <span class="muted">{s.node}: {[...s.measures, ...s.dimensions].join(', ')}</span>
            {s.status === 'broken' ? <span class="status error"> broken: {s.broken_reason}</span> : null}
          </li>
        ))}
      </ul>
      <LoadMore list={scenes} what="scenes" />
      {!scenes.loading && scenes.items.length === 0 && !scenes.error ? <p class="muted">No scenes yet: save one from Explore.</p> : null}
      {run ? <RunView run={run.result} title={run.result.scene.name} visualization={run.visualization} /> : null}
    </Section>
  );
}

/** The mosaic's layout (text and heading tiles too) with each scene tile's run or error, in reading order. */
async function openMosaic(id: string): Promise<{ name: string; tiles: ShownTile[] }> {
  const path = `/api/mosaics/${encodeURIComponent(id)}`;
  const [{ mosaic }, run] = await Promise.all([get<{ mosaic: { name: string; tiles: MosaicTile[] } }>(path), post<MosaicRun>(`${path}/run`)]);
  const outcomes = new Map(run.tiles.map((t) => [t.tile_id, t]));
  const ordered = [...mosaic.tiles].sort((a, b) => a.layout.y - b.layout.y || a.layout.x - b.layout.x);
  return { name: mosaic.name, tiles: ordered.map((tile) => ({ tile, run: outcomes.get(tile.id)?.result, error: outcomes.get(tile.id)?.error })) };
}

function Tile({ tile, run, error }: ShownTile) {
  const name = run?.scene.name ?? tile.scene?.name;
  return (
    <article class={`panel${tile.layout.w >= 12 || tile.kind === 'heading' ? ' wide' : ''}`} aria-label={name ? `Tile ${name}` : undefined}>
      {tile.kind === 'heading' ? <h3>{tile.text}</h3> : null}
      {tile.kind === 'text' ? <p>{tile.text}</p> : null}
      {tile.kind === 'hidden' ? <p class="muted">A tile you may not see.</p> : null}
      {name ? <h3>{name}</h3> : null}
      {run && name ? <RunView run={run} title={name} visualization={tile.scene?.visualization ?? { type: tile.scene?.visualization_type ?? 'table' }} /> : null}
      {error ? (
        <div class="error" role="alert">
          <strong>{error.error}</strong>
          <p class="muted">code: {error.code}</p>
        </div>
      ) : null}
    </article>
  );
}

export function Mosaics() {
  const mosaics = usePaged<Mosaic>('/api/mosaics?limit=50', 'mosaics');
  const [shown, setShown] = useState<{ name: string; tiles: ShownTile[] }>();
  const { error, run } = useAction();
  const open = (mosaic: Mosaic) => run(async () => setShown(await openMosaic(mosaic.id)));
  return (
    <Section title="Mosaics">
      <ErrorBox error={mosaics.error ?? error} />
      <ul>
        {mosaics.items.map((m) => (
          <li key={m.id}><button type="button" onClick={() => open(m)} aria-label={`Open mosaic ${m.name}`}>Open</button> {m.name} <span class="muted">({m.tile_count} tiles)</span></li>
        ))}
      </ul>
      <LoadMore list={mosaics} what="mosaics" />
      {!mosaics.loading && mosaics.items.length === 0 && !mosaics.error ? <p class="muted">No mosaics yet.</p> : null}
      {shown ? (
        <div class="tiles" role="group" aria-label={`Mosaic ${shown.name}`}>
          {shown.tiles.map((t) => <Tile key={t.tile.id} {...t} />)}
        </div>
      ) : null}
    </Section>
  );
}
