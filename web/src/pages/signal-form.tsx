// The form that creates or edits a signal: name, vault, the watched value (a scene, or a node's measure
// with an optional period and filters), condition, threshold, schedule (cron + time zone, or an interval
// of at least 60 s) and whether it is enabled. The server checks the meaning (names, cron, zone) and its
// refusal is shown under the form.
import { useState } from 'preact/hooks';
import { get } from '../api';
import { ErrorBox } from '../components/feedback';
import { dimensionLabel } from '../components/dimension-picker';
import { Checkbox, SelectField, TextField } from '../components/field';
import { flatFields, loadFieldGroups } from '../components/node-catalog';
import { grainOf } from '../components/result-format';
import { useLoad } from '../components/use-load';

export interface Signal {
  id: string; name: string; vault: string; watch: Record<string, unknown>; condition: string; threshold: number;
  schedule: { cron: string; timezone: string } | { interval_seconds: number }; enabled: boolean; state: string | null;
  last_value: number | null; last_evaluated_at: string | null; last_error: string | null; next_run_at: string | null; updated_at: string;
  owner: string; stopped: string | null; values_hidden: string | null;
}

export const CONDITIONS = [
  { value: 'less_than', label: 'is less than' },
  { value: 'greater_than', label: 'is greater than' },
  { value: 'equals', label: 'equals' },
  { value: 'not_equals', label: 'does not equal' },
  { value: 'increases_by_percent', label: 'increases by (percent)' },
  { value: 'decreases_by_percent', label: 'decreases by (percent)' },
  { value: 'changes_by_percent', label: 'changes by (percent)' },
];
interface Named { id: string; name?: string; label?: string }
interface VaultChoice extends Named { personal: boolean; access: string }
interface SceneChoice extends Named { node?: string; dimensions?: string[]; measures?: string[]; sorts?: Array<{ field: string; direction: string }> }

/**
 * What a scene watch watches, said before the server is asked: the first measure of the scene's first
 * row. A scene with dimensions but no sort has no one first row, which the server refuses: said here first.
 */
function sceneWatchWords(scene: SceneChoice | undefined, labelOf: (id: string) => string): { text: string; problem: boolean } | undefined {
  if (!scene?.measures) return undefined;
  const measure = scene.measures[0] ? labelOf(scene.measures[0]) : 'its first measure';
  if (!scene.dimensions?.length) return { text: `Watches ${measure} of ${scene.name}.`, problem: false };
  const sort = scene.sorts?.[0];
  if (!sort) {
    // A time grouped by a grain sorted newest first gives the latest period; otherwise the largest value.
    const time = scene.dimensions.find((d) => grainOf(d) !== undefined);
    const how = time ? `by ${labelOf(time)}, Descending, to watch the latest period` : `by ${measure}, Descending, to watch the largest`;
    return { text: `${scene.name} has no sort, so its first row could be any row: give it a sort with Edit under Scenes (${how}).`, problem: true };
  }
  return { text: `Watches ${measure} in the first row of ${scene.name}, sorted by ${labelOf(sort.field)} ${sort.direction === 'desc' ? 'descending' : 'ascending'}.`, problem: false };
}

/** The form's fields as text, from a signal being edited or the defaults of a new one. */
function initial(signal?: Signal) {
  const watch = signal?.watch ?? {};
  const schedule = signal?.schedule;
  return {
    name: signal?.name ?? '',
    vault: signal?.vault ?? '',
    kind: typeof watch.scene_id === 'string' ? 'scene' : 'metric',
    sceneId: typeof watch.scene_id === 'string' ? watch.scene_id : '',
    node: typeof watch.node === 'string' ? watch.node : '',
    measure: typeof watch.measure === 'string' ? watch.measure : '',
    timeField: typeof watch.time_field === 'string' ? watch.time_field : '',
    period: typeof watch.period === 'string' ? watch.period : '',
    filters: Array.isArray(watch.filters) && watch.filters.length ? JSON.stringify(watch.filters) : '',
    condition: signal?.condition ?? 'greater_than',
    threshold: signal ? String(signal.threshold) : '',
    every: schedule && 'cron' in schedule ? 'cron' : 'interval',
    cron: schedule && 'cron' in schedule ? schedule.cron : '',
    timezone: schedule && 'cron' in schedule ? schedule.timezone : 'UTC',
    interval: schedule && 'interval_seconds' in schedule ? String(schedule.interval_seconds) : '3600',
    enabled: signal?.enabled ?? true,
  };
}
type Form = ReturnType<typeof initial>;

/** The request body; a filters text that is not JSON is refused here, before anything is sent. */
function bodyOf(form: Form) {
  let filters: unknown;
  if (form.filters.trim()) {
    try {
      filters = JSON.parse(form.filters);
    } catch {
      throw new Error('Filters must be a JSON array, such as [{"field": "channel", "operator": "equals", "value": "web"}]');
    }
  }
  const watch = form.kind === 'scene'
    ? { scene_id: form.sceneId }
    : { node: form.node, measure: form.measure, ...(form.timeField ? { time_field: form.timeField } : {}), ...(form.period ? { period: form.period } : {}), ...(filters !== undefined ? { filters } : {}) };
  return {
    name: form.name,
    ...(form.vault ? { vault: form.vault } : {}),
    watch,
    condition: form.condition,
    threshold: Number(form.threshold),
    schedule: form.every === 'cron' ? { cron: form.cron, timezone: form.timezone } : { interval_seconds: Number(form.interval) },
    enabled: form.enabled,
  };
}

export function SignalForm({ signal, onSave, onCancel }: { signal?: Signal; onSave: (body: ReturnType<typeof bodyOf>) => Promise<void>; onCancel?: () => void }) {
  const [form, setForm] = useState(() => initial(signal));
  const [error, setError] = useState<unknown>();
  const set = <K extends keyof Form>(key: K) => (value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));
  const vaults = useLoad(() => get<{ vaults: VaultChoice[] }>('/api/vaults'));
  const scenes = useLoad(() => get<{ scenes: SceneChoice[] }>('/api/scenes?limit=200'));
  const scene = form.kind === 'scene' ? scenes.data?.scenes.find((s) => s.id === form.sceneId) : undefined;
  // The scene's fields by the names the model gives them ("Ordered at (month)"), to say what is watched.
  const sceneFields = useLoad(async () => (scene?.node ? flatFields(await loadFieldGroups(scene.node)) : undefined), [scene?.node]);
  const labelOf = (id: string) => dimensionLabel(id, sceneFields.data?.dimensions ?? []) ?? sceneFields.data?.measures.find((m) => m.id === id)?.label ?? id;
  const watched = sceneWatchWords(scene, labelOf);
  const nodes = useLoad(() => get<{ nodes: Named[] }>('/api/nodes'));
  const fields = useLoad(() => (form.node ? get<{ measures: Named[]; dimensions: Array<Named & { type: string }> }>(`/api/nodes/${encodeURIComponent(form.node)}/fields`) : Promise.resolve(undefined)), [form.node]);
  const option = (n: Named) => ({ value: n.id, label: n.name ?? n.label ?? n.id });
  const choose = (label: string) => [{ value: '', label }];

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    try {
      await onSave(bodyOf(form));
    } catch (e) {
      setError(e);
    }
  };
  const title = signal ? `Edit signal ${signal.name}` : 'New signal';
  return (
    <form onSubmit={submit} aria-label={title}>
      <div class="form-grid">
        <TextField label="Signal name" value={form.name} onInput={set('name')} required />
        <SelectField label="Vault" value={form.vault} options={[...choose('My personal vault'), ...(vaults.data?.vaults ?? []).filter((v) => !v.personal && v.access !== 'view').map(option)]} onChange={set('vault')} />
        <SelectField label="Watch" value={form.kind} options={[{ value: 'metric', label: "A node's measure" }, { value: 'scene', label: 'A scene' }]} onChange={set('kind')} />
        {form.kind === 'scene' ? (
          <>
            <SelectField label="Scene" value={form.sceneId} options={[...choose('Choose a scene'), ...(scenes.data?.scenes ?? []).map(option)]} onChange={set('sceneId')} />
            {watched ? <p class={`span-all ${watched.problem ? 'status error' : 'muted'}`} role="note">{watched.text}</p> : null}
          </>
        ) : (
          <>
            <SelectField label="Node" value={form.node} options={[...choose('Choose a node'), ...(nodes.data?.nodes ?? []).map(option)]} onChange={set('node')} />
            <SelectField label="Measure" value={form.measure} options={[...choose('Choose a measure'), ...(fields.data?.measures ?? []).map(option)]} onChange={set('measure')} />
            <SelectField label="Time field (for a period)" value={form.timeField} options={[...choose('None'), ...(fields.data?.dimensions ?? []).filter((d) => /time|date/.test(d.type)).map(option)]} onChange={set('timeField')} />
            <TextField label="Period (optional)" value={form.period} onInput={set('period')} placeholder="last_7_days" />
            <TextField label="Filters (JSON, optional)" value={form.filters} onInput={set('filters')} placeholder='[{"field":"channel","operator":"equals","value":"web"}]' />
          </>
        )}
        <SelectField label="Condition" value={form.condition} options={CONDITIONS} onChange={set('condition')} />
        <TextField label="Threshold" type="number" value={form.threshold} onInput={set('threshold')} required />
        <SelectField label="Schedule" value={form.every} options={[{ value: 'interval', label: 'Every N seconds' }, { value: 'cron', label: 'Cron expression' }]} onChange={set('every')} />
        {form.every === 'cron' ? (
          <>
            <TextField label="Cron" value={form.cron} onInput={set('cron')} placeholder="0 9 * * 1" />
            <TextField label="Time zone" value={form.timezone} onInput={set('timezone')} placeholder="Europe/Paris" />
          </>
        ) : (
          <TextField label="Interval in seconds" type="number" value={form.interval} onInput={set('interval')} hint="60 or more" />
        )}
        <Checkbox label="Enabled" checked={form.enabled} onChange={set('enabled')} />
        <div>
          <button type="submit">{signal ? 'Save signal' : 'Create signal'}</button>{' '}
          {onCancel ? <button type="button" onClick={onCancel}>Cancel</button> : null}
        </div>
      </div>
      <ErrorBox error={error} />
    </form>
  );
}
