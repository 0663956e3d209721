// Explore: pick a node, its dimensions and measures, add filters (each may be negated), compare with
// another period, add each measure's percent of total, see the rows and a chart of the type chosen,
// and save the query as a scene in a vault with that chart type. A filter offers the operators the
// server applies to its field (the compiler's own list, shared with it). A refused query's error is
// shown beside the control it is about.
import { useState } from 'preact/hooks';
import { get, post } from '../api';
import { CHART_TYPES, defaultChartType, type ChartType } from '../components/chart-plan';
import { CompareControls, compareForQuery, NO_COMPARE, useWorkspaceZone, type CompareState } from '../components/compare-controls';
import { DimensionPicker, dimensionLabel, isTimeType } from '../components/dimension-picker';
import { errorAt } from '../components/error-place';
import { ErrorBox, Loading, Notice } from '../components/feedback';
import { Checkbox, Section, SelectField, TextField } from '../components/field';
import { FilterEditor, filtersForQuery, type Fields, type FilterRow } from '../components/filter-editor';
import type { ComparisonSummary, ResultColumn } from '../components/result-format';
import { ResultView } from '../components/result-view';
import { ShareControls, sharesForQuery, type ShareState } from '../components/share-controls';
import { useLoad } from '../components/use-load';

interface NodeItem { id: string; label: string }
interface QueryAnswer {
  data: Array<Record<string, unknown>>;
  sql: string;
  metadata: { row_count: number; query_time_ms: number; truncated: boolean; columns: ResultColumn[]; comparison?: ComparisonSummary };
}
interface Vault { id: string; name: string }

const CHART_LABELS: Record<ChartType, string> = { table: 'Table only', bar: 'Bars', line: 'Line', area: 'Area', scatter: 'Points', pie: 'Pie', number: 'Number' };

export function ExplorePage() {
  const nodes = useLoad(() => get<{ nodes: NodeItem[] }>('/api/nodes'));
  const vaults = useLoad(() => get<{ vaults: Vault[] }>('/api/vaults'));
  const zone = useWorkspaceZone();
  const [nodeId, setNodeId] = useState('');
  const node = nodeId || nodes.data?.nodes[0]?.id || '';
  const fields = useLoad(() => (node ? get<Fields>(`/api/nodes/${encodeURIComponent(node)}/fields`) : Promise.resolve({ dimensions: [], measures: [] })), [node]);
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

  const dimensionFields = fields.data?.dimensions ?? [];
  const measureFields = fields.data?.measures ?? [];
  const labelOf = (id: string) => dimensionLabel(id, dimensionFields) ?? measureFields.find((m) => m.id === id)?.label ?? id;
  const isTime = (id: string) => isTimeType(dimensionFields.find((d) => d.id === id.split('.')[0])?.type);
  const chartType = chosenChart ?? defaultChartType(dimensions, isTime);
  const { compare: compareSpec, problem: compareProblem } = compareForQuery(compare, zone, new Date());
  const shareSpec = sharesForQuery(shares, measures, dimensions);
  // Scenes keep a plain query: a comparison or a percent of total is not saved with one.
  const composed = Boolean(compareSpec || shareSpec);

  const plainQuery = () => ({ node, dimensions, measures, filters: filtersForQuery(filters, fields.data) });
  const run = async () => {
    setError(undefined);
    setRunning(true);
    try {
      setAnswer(await post<QueryAnswer>('/api/query', { ...plainQuery(), ...(compareSpec ? { compare: compareSpec } : {}), ...(shareSpec ? { shares: shareSpec } : {}), limit: 1000 }));
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
      await post('/api/scenes', { name: sceneName, ...plainQuery(), ...(vault ? { vault } : {}), visualization: { type: chartType } });
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
        <ErrorBox error={fields.error} />
        {fields.loading ? <Loading what="the fields" /> : null}
        <div class="form-grid options">
          <DimensionPicker dimensions={dimensionFields} chosen={dimensions} onChange={setDimensions} />
          <fieldset>
            <legend>Measures</legend>
            {measureFields.map((f) => (
              <Checkbox key={f.id} label={f.label} checked={measures.includes(f.id)} onChange={(on) => toggleMeasure(f.id, on)} />
            ))}
          </fieldset>
        </div>
        <FilterEditor rows={filters} onChange={setFilters} fields={fields.data} error={errorAt(error, 'filters')} />
        <div class="form-grid options">
          <CompareControls state={compare} onChange={setCompare} timeDimensions={dimensionFields.filter((d) => isTimeType(d.type))} timeZone={zone} now={() => new Date()} error={errorAt(error, 'compare')} />
          <ShareControls state={shares} onChange={setShares} measures={measures.map((id) => ({ id, label: labelOf(id), type: 'number' }))}
            dimensions={dimensions.map((id) => ({ id, label: labelOf(id), type: '' }))} error={errorAt(error, 'shares')} />
        </div>
        <div class="row">
          <button type="button" class="primary" onClick={run} disabled={!node || measures.length + dimensions.length === 0 || running || compareProblem !== undefined}>
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
          <ResultView columns={answer.metadata.columns} rows={answer.data} labelOf={labelOf} comparison={answer.metadata.comparison} chartType={chartType} gridLabel="Explore rows"
            toolbar={<SelectField label="Chart type" value={chartType} options={CHART_TYPES.map((t) => ({ value: t, label: CHART_LABELS[t] }))} onChange={(v) => setChosenChart(v as ChartType)} />} />
          <details><summary>Show SQL</summary><pre><code>{answer.sql}</code></pre></details>
          <form onSubmit={save} class="row" aria-label="Save as scene">
            <TextField label="Scene name" value={sceneName} onInput={setSceneName} required />
            <SelectField label="Vault" value={vault} options={[{ value: '', label: 'My personal vault' }, ...(vaults.data?.vaults ?? []).map((v) => ({ value: v.id, label: v.name }))]} onChange={setVault} />
            <button type="submit" disabled={composed}>Save as scene</button>
          </form>
          {composed ? <p class="muted" role="note">A scene keeps the query without its comparison or percent of total: turn them off to save it as a scene.</p> : null}
        </Section>
      ) : null}
    </div>
  );
}
