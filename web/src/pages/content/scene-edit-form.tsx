// Editing a saved scene in place (PATCH /api/scenes/:id): its name, description, chart type, filters,
// sort and row limit (Explore's own controls) and vault (moving it needs edit access to both vaults). Filters are edited with Explore's own filter
// rows, on the fields of the scene's node; an and/or group saved through the API has no rows here, so
// it is shown in words and kept as saved. The server checks the change against the live model and
// answers 400 invalid_scene naming what is wrong, which is shown beside the form.
import { useState } from 'preact/hooks';
import { api } from '../../api';
import { CHART_LABELS } from '../../components/chart-labels';
import { CHART_TYPES, type ChartType } from '../../components/chart-plan';
import { dimensionLabel } from '../../components/dimension-picker';
import { ErrorBox } from '../../components/feedback';
import { SelectField, TextField } from '../../components/field';
import { FilterEditor, filtersForQuery, type FilterRow } from '../../components/filter-editor';
import { flatFields, loadFieldGroups } from '../../components/node-catalog';
import { NO_SORT, SortLimitControls, sortLimitForQuery, type SortLimitState } from '../../components/sort-limit';
import { useAction, useLoad } from '../../components/use-load';
import type { FilterOperator } from '../../../../src/core/semantic/filter-operators';
import type { SavedFilter, Scene, Vault } from './content-types';
import { filterInWords } from './filter-words';

type FieldFilter = { field: string; operator: string; value?: unknown };
const isFieldFilter = (f: SavedFilter): f is FieldFilter => 'field' in f;

function valueText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return Array.isArray(value) ? value.map(String).join(', ') : String(value);
}

/** The saved filters as editable rows, and the groups that have none (kept as saved). */
export function rowsOf(filters: SavedFilter[]): { rows: FilterRow[]; kept: SavedFilter[] } {
  const rows: FilterRow[] = [];
  const kept: SavedFilter[] = [];
  for (const f of filters) {
    const inner = 'not' in f ? f.not : f;
    if (isFieldFilter(inner)) rows.push({ field: inner.field, operator: inner.operator as FilterOperator, value: valueText(inner.value), not: 'not' in f });
    else kept.push(f);
  }
  return { rows, kept };
}

/** The saved sorts and limit as the controls hold them ("Default order" when none). */
export function sortLimitOf(scene: Pick<Scene, 'sorts' | 'limit'>): SortLimitState {
  return { sorts: scene.sorts.length ? scene.sorts.map((s) => ({ ...s })) : NO_SORT.sorts, limit: scene.limit === null ? '' : String(scene.limit) };
}

export function SceneEditForm({ scene, vaults, onSaved, onCancel }: { scene: Scene; vaults: Vault[]; onSaved: (message: string) => Promise<void>; onCancel: () => void }) {
  const fields = useLoad(async () => flatFields(await loadFieldGroups(scene.node)), [scene.node]);
  const start = rowsOf(scene.filters);
  const [name, setName] = useState(scene.name);
  const [description, setDescription] = useState(scene.description);
  const [chart, setChart] = useState<ChartType>(scene.visualization.type);
  const [vault, setVault] = useState(scene.vault);
  const [rows, setRows] = useState<FilterRow[]>(start.rows);
  const [sortLimit, setSortLimit] = useState<SortLimitState>(() => sortLimitOf(scene));
  const chosen = [...scene.dimensions, ...scene.measures];
  const ordering = sortLimitForQuery(sortLimit, chosen);
  const labelOf = (id: string) => dimensionLabel(id, fields.data?.dimensions ?? []) ?? fields.data?.measures.find((m) => m.id === id)?.label ?? id;
  const { error, run } = useAction();
  const writable = vaults.filter((v) => v.access !== 'view' || v.id === scene.vault);

  const save = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const filters = [...filtersForQuery(rows, fields.data), ...start.kept];
      await api('PATCH', `/api/scenes/${encodeURIComponent(scene.id)}`, {
        name,
        description,
        filters,
        // Every row cleared is "Default order"; an emptied limit (null) goes back to the server's default.
        sorts: ordering.sorts ?? [],
        limit: ordering.limit ?? null,
        visualization: { ...scene.visualization, type: chart },
        ...(vault !== scene.vault ? { vault } : {}),
      });
      const moved = vault !== scene.vault ? ` and moved to ${vaults.find((v) => v.id === vault)?.name ?? 'another vault'}` : '';
      await onSaved(`Scene ${name} saved${moved}.`);
    });
  };

  return (
    <form onSubmit={save} aria-label={`Edit scene ${scene.name}`} class="panel">
      <div class="row">
        <TextField label="Scene name" value={name} onInput={setName} required />
        <TextField label="Scene description" value={description} onInput={setDescription} />
        <SelectField label="Chart type" value={chart} options={CHART_TYPES.map((t) => ({ value: t, label: CHART_LABELS[t] }))} onChange={(v) => setChart(v as ChartType)} />
        <SelectField label="Vault" value={vault} options={writable.map((v) => ({ value: v.id, label: v.name }))} onChange={setVault} />
      </div>
      <ErrorBox error={fields.error} />
      <FilterEditor rows={rows} onChange={setRows} fields={fields.data} />
      {start.kept.length ? <p class="muted">Kept as saved (groups are edited through the API): {start.kept.map((f) => filterInWords(f)).join('; ')}</p> : null}
      <SortLimitControls state={sortLimit} onChange={setSortLimit} fields={chosen.map((id) => ({ id, label: labelOf(id) }))} problem={ordering.problem} />
      <ErrorBox error={error} />
      <div class="row">
        <button type="submit" disabled={!name.trim() || ordering.problem !== undefined}>Save scene</button>
        <button type="button" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}
