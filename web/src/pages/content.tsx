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

interface Scene { id: string; name: string; node: string; dimensions: string[]; measures: string[]; status: string; broken_reason: string | null }
interface SceneRun { data: Array<Record<string, unknown>>; metadata: { row_count: number } }
interface Mosaic { id: string; name: string; tile_count: number }
interface MosaicRun { mosaic: { name: string }; tiles: Array<{ tile_id: string; kind: string; result?: SceneRun & { scene: { name: string } }; error?: { error: string } }> }
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
  const open = (scene: Scene) => act(async () => setRun({ name: scene.name, run: await post<SceneRun>(`/api/scenes/${scene.id}/run`) }));
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
  const [shown, setShown] = useState<MosaicRun>();
  const { error, run } = useAction();
  const open = (mosaic: Mosaic) => run(async () => setShown(await post<MosaicRun>(`/api/mosaics/${mosaic.id}/run`)));
  return (
    <Section title="Mosaics">
      <ErrorBox error={mosaics.error ?? error} />
      <ul>
        {(mosaics.data?.mosaics ?? []).map((m) => (
          <li key={m.id}><button type="button" onClick={() => open(m)} aria-label={`Open mosaic ${m.name}`}>Open</button> {m.name} <span class="muted">({m.tile_count} tiles)</span></li>
        ))}
      </ul>
      {shown ? (
        <div class="tiles" aria-label={`Mosaic ${shown.mosaic.name}`}>
          {shown.tiles.map((t) => (
            <article class="panel" key={t.tile_id}>
              {t.result ? <><h3>{t.result.scene.name}</h3><RunView run={t.result} title={t.result.scene.name} /></> : null}
              {t.error ? <ErrorBox error={new Error(t.error.error)} /> : null}
              {t.kind === 'hidden' ? <p class="muted">A tile you may not see.</p> : null}
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
