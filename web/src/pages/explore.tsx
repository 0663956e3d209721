// Explore: pick a node, its dimensions (a time by a grain) and measures and those of the nodes its joins
// reach, directly or through one more join (grouped by node, labelled by the path: "Orders › Customers"),
// add filters (each may be negated), compare with another period, add each measure's percent of total,
// sort by several chosen fields in turn and limit the rows, see the rows (each value by its format, unit and grain)
// and a chart of the type chosen, and save the query as a scene in a vault with that chart type. A filter offers the operators the
// server applies to its field (the compiler's own list, shared with it). A refused query's error is
// shown beside the control it is about.
import { useState } from 'preact/hooks';
import { get, post } from '../api';
import { CHART_LABELS } from '../components/chart-labels';
import { CHART_TYPES, defaultChartType, type ChartType } from '../components/chart-plan';
import { CompareControls, compareForQuery, NO_COMPARE, useWorkspaceZone, type CompareState } from '../components/compare-controls';
import { DimensionPicker, dimensionLabel, isTimeType, withoutGrain } from '../components/dimension-picker';
import { errorAt } from '../components/error-place';
import { ErrorBox, Loading, Notice } from '../components/feedback';
import { Checkbox, Section, SelectField, TextField } from '../components/field';
import { FilterEditor, filtersForQuery, type FilterRow } from '../components/filter-editor';
import { flatFields, loadFieldGroups, type FieldGroup } from '../components/node-catalog';
import type { ComparisonSummary, ResultColumn } from '../components/result-format';
import { ResultView } from '../components/result-view';
import { ShareControls, sharesForQuery, type ShareState } from '../components/share-controls';
import { DEFAULT_LIMIT, NO_SORT, SortLimitControls, sortLimitForQuery, type SortLimitState } from '../components/sort-limit';
import { useLoad } from '../components/use-load';

interface NodeItem { id: string; label: string }
interface QueryAnswer {
  data: Array<Record<string, unknown>>;
  sql: string;
  metadata: { row_count: number; query_time_ms: number; truncated: boolean; columns: ResultColumn[]; comparison?: ComparisonSummary };
}
interface Vault { id: string; name: string; personal: boolean; access: string }

/** A measure's checkbox per measure of a group. */
function MeasurePicker({ group, chosen, onToggle, legend }: { group: FieldGroup; chosen: string[]; onToggle: (id: string, on: boolean) => void; legend: string }) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      {group.measures.map((f) => (
        <Checkbox key={f.id} label={f.label} checked={chosen.includes(f.id)} onChange={(on) => onToggle(f.id, on)} />
      ))}
    </fieldset>
  );
}

export function ExplorePage() {
  const nodes = useLoad(() => get<{ nodes: NodeItem[] }>('/api/nodes'));
  const vaults = useLoad(() => get<{ vaults: Vault[] }>('/api/vaults'));
  const zone = useWorkspaceZone();
  const [nodeId, setNodeId] = useState('');
  const node = nodeId || nodes.data?.nodes[0]?.id || '';
  const groups = useLoad(() => (node ? loadFieldGroups(node) : Promise.resolve([])), [node]);
  const fields = { ...groups, data: groups.data ? flatFields(groups.data) : undefined };
  const [dimensions, setDimensions] = useState<string[]>([]);
  const [measures, setMeasures] = useState<string[]>([]);
  const [filters, setFilters] = useState<FilterRow[]>([]);
  const [compare, setCompare] = useState<CompareState>(NO_COMPARE);
  const [shares, setShares] = useState<ShareState>({});
  const [answer, setAnswer] = useState<QueryAnswer>();
  const [error, setError] = useState<unknown>();
  const [running, setRunning] = useState(false);
  const [sceneName, setSceneName] = useState('');
  const [vault, setVault] = useState('');
  const [notice, setNotice] = useState('');
  const [chosenChart, setChosenChart] = useState<ChartType>();
  const [sortLimit, setSortLimit] = useState<SortLimitState>(NO_SORT);

  const dimensionFields = fields.data?.dimensions ?? [];
  const measureFields = fields.data?.measures ?? [];
  const labelOf = (id: string) => dimensionLabel(id, dimensionFields) ?? measureFields.find((m) => m.id === id)?.label ?? id;
  const isTime = (id: string) => isTimeType(dimensionFields.find((d) => d.id === withoutGrain(id))?.type);
  const formatOf = (id: string) => measureFields.find((m) => m.id === id);
  const chartType = chosenChart ?? defaultChartType(dimensions, isTime);
  const { compare: compareSpec, problem: compareProblem } = compareForQuery(compare, zone, new Date());
  const shareSpec = sharesForQuery(shares, measures, dimensions);
  // Scenes keep a plain query: a comparison or a percent of total is not saved with one.
  const composed = Boolean(compareSpec || shareSpec);
  const ordering = sortLimitForQuery(sortLimit, [...dimensions, ...measures]);

  const plainQuery = () => ({ node, dimensions, measures, filters: filtersForQuery(filters, fields.data), ...(ordering.sorts ? { sorts: ordering.sorts } : {}) });
  const run = async () => {
    setError(undefined);
    setRunning(true);
    try {
      setAnswer(await post<QueryAnswer>('/api/query', { ...plainQuery(), ...(compareSpec ? { compare: compareSpec } : {}), ...(shareSpec ? { shares: shareSpec } : {}), limit: ordering.limit ?? DEFAULT_LIMIT }));
    } catch (e) {
      // The rows of an earlier query would read as this one's answer.
      setAnswer(undefined);
      setError(e);
    } finally {
      setRunning(false);
    }
  };
  const save = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    try {
      await post('/api/scenes', { name: sceneName, ...plainQuery(), ...(ordering.limit ? { limit: ordering.limit } : {}), ...(vault ? { vault } : {}), visualization: { type: chartType } });
      setNotice(`Scene ${sceneName} saved.`);
    } catch (e) {
      setError(e);
    }
  };
  const pickNode = (v: string) => {
    setNodeId(v);
    setDimensions([]);
    setMeasures([]);
    setFilters([]);
    setCompare(NO_COMPARE);
    setShares({});
    setSortLimit(NO_SORT);
  };
  const toggleMeasure = (id: string, on: boolean) => {
    setMeasures(on ? [...measures, id] : measures.filter((m) => m !== id));
    if (!on) setShares(Object.fromEntries(Object.entries(shares).filter(([m]) => m !== id)));
  };

  return (
    <div>
      <h1>Explore</h1>
      <ErrorBox error={nodes.error} />
      {nodes.loading && !nodes.data ? <Loading what="the nodes" /> : null}
      <Section title="Query">
        <SelectField label="Node" value={node} options={(nodes.data?.nodes ?? []).map((n) => ({ value: n.id, label: n.label }))} onChange={pickNode} />
        <ErrorBox error={groups.error} />
        {groups.loading ? <Loading what="the fields" /> : null}
        {(groups.data ?? []).map((g) =>
          g.joined ? (
            <details key={g.name} class="joined-fields">
              <summary>Joined: {g.label}</summary>
              <div class="form-grid options" role="group" aria-label={`Fields of ${g.label}`}>
                <DimensionPicker legend={`${g.label} dimensions`} dimensions={g.dimensions} chosen={dimensions} onChange={setDimensions} />
                <MeasurePicker legend={`${g.label} measures`} group={g} chosen={measures} onToggle={toggleMeasure} />
              </div>
            </details>
          ) : (
            <div key={g.name} class="form-grid options">
              <DimensionPicker dimensions={g.dimensions} chosen={dimensions} onChange={setDimensions} />
              <MeasurePicker legend="Measures" group={g} chosen={measures} onToggle={toggleMeasure} />
            </div>
          ),
        )}
        <FilterEditor rows={filters} onChange={setFilters} fields={fields.data} error={errorAt(error, 'filters')} />
        <div class="form-grid options">
          <CompareControls state={compare} onChange={setCompare} timeDimensions={dimensionFields.filter((d) => isTimeType(d.type))} timeZone={zone} now={() => new Date()} error={errorAt(error, 'compare')} />
          <ShareControls state={shares} onChange={setShares} measures={measures.map((id) => ({ id, label: labelOf(id), type: 'number' }))}
            dimensions={dimensions.map((id) => ({ id, label: labelOf(id), type: '' }))} error={errorAt(error, 'shares')} />
        </div>
        <SortLimitControls state={sortLimit} onChange={setSortLimit} fields={[...dimensions, ...measures].map((id) => ({ id, label: labelOf(id) }))} problem={ordering.problem} />
        <div class="row">
          <button type="button" class="primary" onClick={run} disabled={!node || measures.length + dimensions.length === 0 || running || compareProblem !== undefined || ordering.problem !== undefined}>
            {running ? 'Running…' : 'Run'}
          </button>
          {running ? <Loading what="the rows" /> : null}
        </div>
      </Section>
      <ErrorBox error={errorAt(error, 'query')} />
      {notice ? <Notice>{notice}</Notice> : null}
      {answer ? (
        <Section title="Result">
          <p role="status">{answer.metadata.row_count} rows in {answer.metadata.query_time_ms} ms{answer.metadata.truncated ? ' — truncated' : ''}</p>
          <ResultView columns={answer.metadata.columns} rows={answer.data} labelOf={labelOf} comparison={answer.metadata.comparison} chartType={chartType} gridLabel="Explore rows" formats={formatOf}
            toolbar={<SelectField label="Chart type" value={chartType} options={CHART_TYPES.map((t) => ({ value: t, label: CHART_LABELS[t] }))} onChange={(v) => setChosenChart(v as ChartType)} />} />
          <details><summary>Show SQL</summary><pre><code>{answer.sql}</code></pre></details>
          <form onSubmit={save} class="row" aria-label="Save as scene">
            <TextField label="Scene name" value={sceneName} onInput={setSceneName} required />
            <SelectField label="Vault" value={vault} options={[{ value: '', label: 'My personal vault' }, ...(vaults.data?.vaults ?? []).filter((v) => !v.personal && v.access !== 'view').map((v) => ({ value: v.id, label: v.name }))]} onChange={setVault} />
            <button type="submit" disabled={composed}>Save as scene</button>
          </form>
          {composed ? <p class="muted" role="note">A scene keeps the query without its comparison or percent of total: turn them off to save it as a scene.</p> : null}
        </Section>
      ) : null}
    </div>
  );
}
