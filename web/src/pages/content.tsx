// Content: scenes (run one to see its rows and chart), mosaics as a grid of tiles with charts, signals
// and their state, and (luminaries) webhooks with their delivery log.
import { useState } from 'preact/hooks';
import { get, post } from '../api';
import { Chart, chartOf } from '../components/chart';
import { DataGrid } from '../components/data-grid';
import { ErrorBox } from '../components/feedback';
import { Section } from '../components/field';
import { useAction, useLoad } from '../components/use-load';
import type { Me } from '../session';

interface Scene { id: string; name: string; node: string; dimensions: string[]; measures: string[]; filters: unknown[]; sorts: unknown[]; limit: number | null; status: string; broken_reason: string | null }
interface SceneRun { data: Array<Record<string, unknown>>; metadata: { row_count: number } }
interface Mosaic { id: string; name: string; tile_count: number }
interface MosaicTile { id: string; kind: 'scene' | 'text' | 'heading' | 'hidden'; text?: string; scene_id?: string; layout: { x: number; y: number; w: number; h: number } }
interface MosaicFilter { field: string; operator: string; value?: unknown; tiles?: string[] }
interface ShownTile { tile: MosaicTile; name?: string; run?: SceneRun; error?: unknown }

/**
 * Runs a scene's saved query through POST /api/query with your data keys (the console does not record
 * scene runs: those belong to surface C), adding the filters a mosaic applies to it.
 */
async function runScene(scene: Scene, extraFilters: MosaicFilter[] = []): Promise<SceneRun> {
  const filters = [...scene.filters, ...extraFilters.map(({ field, operator, value }) => ({ field, operator, ...(value === undefined ? {} : { value }) }))];
  return post<SceneRun>('/api/query', { node: scene.node, dimensions: scene.dimensions, measures: scene.measures, filters, sorts: scene.sorts, ...(scene.limit ? { limit: scene.limit } : {}) });
}

async function showTile(tile: MosaicTile, filters: MosaicFilter[]): Promise<ShownTile> {
  if (tile.kind !== 'scene' || !tile.scene_id) return { tile };
  try {
    const { scene } = await get<{ scene: Scene }>(`/api/scenes/${tile.scene_id}`);
    return { tile, name: scene.name, run: await runScene(scene, filters.filter((f) => !f.tiles || f.tiles.includes(tile.id))) };
  } catch (error) {
    return { tile, error };
  }
}
interface Signal { id: string; name: string; condition: string; threshold: number; state: string; last_value: number | null; last_evaluated_at: string | null; last_error: string | null }
interface Webhook { id: string; url: string; events: string[]; enabled: boolean; disabled_reason: string | null }
interface Delivery { id: string; event: string; status: string; attempts: number; last_status_code: number | null; last_error: string | null; created_at: string }

function RunView({ run, title }: { run: SceneRun; title: string }) {
  const columns = run.data[0] ? Object.keys(run.data[0]) : [];
  const chart = chartOf(columns, run.data);
  return (
    <div>
      {chart ? <Chart data={chart} title={title} height={180} /> : null}
      <DataGrid label={`${title} rows`} columns={columns.map((name) => ({ name }))} rows={run.data} />
    </div>
  );
}

function Scenes() {
  const scenes = useLoad(() => get<{ scenes: Scene[] }>('/api/scenes?limit=100'));
  const [run, setRun] = useState<{ name: string; run: SceneRun }>();
  const { error, run: act } = useAction();
  const open = (scene: Scene) => act(async () => setRun({ name: scene.name, run: await runScene(scene) }));
  return (
    <Section title="Scenes">
      <ErrorBox error={scenes.error ?? error} />
      <ul>
        {(scenes.data?.scenes ?? []).map((s) => (
          <li key={s.id}>
            <button type="button" onClick={() => open(s)} aria-label={`Run scene ${s.name}`}>Run</button> <strong>{s.name}</strong>{' '}
            <span class="muted">{s.node}: {[...s.measures, ...s.dimensions].join(', ')}</span>
            {s.status === 'broken' ? <span class="status error"> broken: {s.broken_reason}</span> : null}
          </li>
        ))}
      </ul>
      {scenes.data?.scenes.length === 0 ? <p class="muted">No scenes yet: save one from Explore.</p> : null}
      {run ? <RunView run={run.run} title={run.name} /> : null}
    </Section>
  );
}

function Mosaics() {
  const mosaics = useLoad(() => get<{ mosaics: Mosaic[] }>('/api/mosaics?limit=100'));
  const [shown, setShown] = useState<{ name: string; tiles: ShownTile[] }>();
  const { error, run } = useAction();
  const open = (mosaic: Mosaic) =>
    run(async () => {
      const full = (await get<{ mosaic: { name: string; tiles: MosaicTile[]; filters: MosaicFilter[] } }>(`/api/mosaics/${mosaic.id}`)).mosaic;
      const ordered = [...full.tiles].sort((a, b) => a.layout.y - b.layout.y || a.layout.x - b.layout.x);
      setShown({ name: full.name, tiles: await Promise.all(ordered.map((tile) => showTile(tile, full.filters))) });
    });
  return (
    <Section title="Mosaics">
      <ErrorBox error={mosaics.error ?? error} />
      <ul>
        {(mosaics.data?.mosaics ?? []).map((m) => (
          <li key={m.id}><button type="button" onClick={() => open(m)} aria-label={`Open mosaic ${m.name}`}>Open</button> {m.name} <span class="muted">({m.tile_count} tiles)</span></li>
        ))}
      </ul>
      {mosaics.data?.mosaics.length === 0 ? <p class="muted">No mosaics yet.</p> : null}
      {shown ? (
        <div class="tiles" role="group" aria-label={`Mosaic ${shown.name}`}>
          {shown.tiles.map(({ tile, name, run: result, error: tileError }) => (
            <article class={`panel${tile.layout.w >= 12 || tile.kind === 'heading' ? ' wide' : ''}`} key={tile.id}>
              {tile.kind === 'heading' ? <h3>{tile.text}</h3> : null}
              {tile.kind === 'text' ? <p>{tile.text}</p> : null}
              {tile.kind === 'hidden' ? <p class="muted">A tile you may not see.</p> : null}
              {name ? <h3>{name}</h3> : null}
              {result && name ? <RunView run={result} title={name} /> : null}
              {tileError ? <ErrorBox error={tileError} /> : null}
            </article>
          ))}
        </div>
      ) : null}
    </Section>
  );
}

function Signals() {
  const signals = useLoad(() => get<{ signals: Signal[] }>('/api/signals?limit=100'));
  return (
    <Section title="Signals">
      <ErrorBox error={signals.error} />
      <table>
        <thead><tr><th scope="col">Name</th><th scope="col">Condition</th><th scope="col">State</th><th scope="col">Last value</th><th scope="col">Last evaluated</th></tr></thead>
        <tbody>
          {(signals.data?.signals ?? []).map((s) => (
            <tr key={s.id}><td>{s.name}</td><td>{s.condition} {s.threshold}</td><td>{s.state}{s.last_error ? ` (${s.last_error})` : ''}</td><td>{s.last_value ?? '—'}</td><td>{s.last_evaluated_at ? new Date(s.last_evaluated_at).toLocaleString() : '—'}</td></tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
}

function Webhooks() {
  const hooks = useLoad(() => get<{ webhooks: Webhook[] }>('/api/webhooks'));
  const [log, setLog] = useState<{ hook: Webhook; deliveries: Delivery[] }>();
  const { error, run } = useAction();
  const show = (hook: Webhook) => run(async () => setLog({ hook, deliveries: (await get<{ deliveries: Delivery[] }>(`/api/webhooks/${hook.id}/deliveries?limit=50`)).deliveries }));
  return (
    <Section title="Webhooks">
      <ErrorBox error={hooks.error ?? error} />
      <ul>
        {(hooks.data?.webhooks ?? []).map((h) => (
          <li key={h.id}>
            <button type="button" onClick={() => show(h)} aria-label={`Deliveries of ${h.url}`}>Delivery log</button> <code>{h.url}</code>{' '}
            <span class="muted">{h.events.join(', ')}{h.enabled ? '' : ` · disabled${h.disabled_reason ? ` (${h.disabled_reason})` : ''}`}</span>
          </li>
        ))}
      </ul>
      {log ? (
        <table aria-label={`Deliveries to ${log.hook.url}`}>
          <thead><tr><th scope="col">When</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last answer</th></tr></thead>
          <tbody>
            {log.deliveries.map((d) => (
              <tr key={d.id}><td>{new Date(d.created_at).toLocaleString()}</td><td>{d.event}</td><td>{d.status}</td><td>{d.attempts}</td><td>{d.last_status_code ?? d.last_error ?? '—'}</td></tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </Section>
  );
}

export function ContentPage({ me }: { me: Me }) {
  return (
    <div>
      <h1>Content</h1>
      <Scenes />
      <Mosaics />
      <Signals />
      {me.role === 'luminary' ? <Webhooks /> : null}
    </div>
  );
}
