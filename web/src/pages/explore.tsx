// Explore: pick a node, its dimensions and measures, add filters, see the rows and a chart of the type
// chosen, and save the query as a scene in a vault with that chart type. A filter offers the operators
// the server applies to its field (the compiler's own list, shared with it).
import { useState } from 'preact/hooks';
import { OPERATOR_VALUES, operatorsFor, type FilterOperator } from '../../../src/core/semantic/filter-operators';
import { get, post } from '../api';
import { CHART_TYPES, defaultChartType, type ChartType } from '../components/chart-plan';
import { DataGrid } from '../components/data-grid';
import { ErrorBox, Notice } from '../components/feedback';
import { Checkbox, Section, SelectField, TextField } from '../components/field';
import { SceneChart } from '../components/scene-chart';
import { useLoad } from '../components/use-load';

interface NodeItem { id: string; label: string }
interface Field { id: string; label: string; type: string }
interface Fields { dimensions: Field[]; measures: Field[] }
interface Filter { field: string; operator: FilterOperator; value: string }
interface QueryAnswer { data: Array<Record<string, unknown>>; sql: string; metadata: { row_count: number; query_time_ms: number; truncated: boolean } }
interface Vault { id: string; name: string }

const VALUE_HINTS: Record<(typeof OPERATOR_VALUES)[FilterOperator], string> = {
  none: '',
  one: 'One value',
  list: 'Several values: separate with commas',
  two: 'From and to, separated by a comma',
  period: 'A period such as 7 days or 3 months',
  unit: 'day, week, month, quarter or year',
};

const CHART_LABELS: Record<ChartType, string> = { table: 'Table only', bar: 'Bars', line: 'Line', area: 'Area', scatter: 'Points', pie: 'Pie', number: 'Number' };

/** The field's filter target: a measure, or a dimension of its type (a granularity of a time is a timestamp). */
function targetOf(fieldId: string, fields: Fields | undefined) {
  if (fields?.measures.some((m) => m.id === fieldId)) return { kind: 'measure' as const };
  return { kind: 'dimension' as const, type: fields?.dimensions.find((d) => d.id === fieldId)?.type ?? 'string' };
}

/** The typed value of a filter: numbers and booleans as such, a list split at commas; none for isNull. */
function filterValue(text: string, operator: FilterOperator, type: string): unknown {
  const shape = OPERATOR_VALUES[operator];
  if (shape === 'none' || text === '') return undefined;
  if (shape === 'period' || shape === 'unit') return text.trim();
  const typed = text.split(',').map((s) => s.trim()).map((p): string | number | boolean => {
    if (type === 'boolean' && (p === 'true' || p === 'false')) return p === 'true';
    return type !== 'string' && p !== '' && !Number.isNaN(Number(p)) ? Number(p) : p;
  });
  return shape === 'one' || typed.length === 1 ? typed[0] : typed;
}

export function ExplorePage() {
  const nodes = useLoad(() => get<{ nodes: NodeItem[] }>('/api/nodes'));
  const vaults = useLoad(() => get<{ vaults: Vault[] }>('/api/vaults'));
  const [nodeId, setNodeId] = useState('');
  const node = nodeId || nodes.data?.nodes[0]?.id || '';
  const fields = useLoad(() => (node ? get<Fields>(`/api/nodes/${encodeURIComponent(node)}/fields`) : Promise.resolve({ dimensions: [], measures: [] })), [node]);
  const [dimensions, setDimensions] = useState<string[]>([]);
  const [measures, setMeasures] = useState<string[]>([]);
  const [filters, setFilters] = useState<Filter[]>([]);
  const [answer, setAnswer] = useState<QueryAnswer>();
  const [error, setError] = useState<unknown>();
  const [sceneName, setSceneName] = useState('');
  const [vault, setVault] = useState('');
  const [notice, setNotice] = useState('');
  const [chosenChart, setChosenChart] = useState<ChartType>();
  const isTime = (id: string) => ['date', 'timestamp'].includes(fields.data?.dimensions.find((d) => d.id === id.split('.')[0])?.type ?? '');
  const chartType = chosenChart ?? defaultChartType(dimensions, isTime);

  const queryBody = () => ({
    node,
    dimensions,
    measures,
    filters: filters.filter((f) => f.field).map((f) => {
      const target = targetOf(f.field, fields.data);
      const value = filterValue(f.value, f.operator, target.kind === 'measure' ? 'number' : target.type);
      return { field: f.field, operator: f.operator, ...(value !== undefined ? { value } : {}) };
    }),
    limit: 1000,
  });
  const run = async () => {
    setError(undefined);
    try {
      setAnswer(await post<QueryAnswer>('/api/query', queryBody()));
    } catch (e) {
      setError(e);
    }
  };
  const save = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    try {
      const { limit: _limit, ...query } = queryBody();
      await post('/api/scenes', { name: sceneName, ...query, ...(vault ? { vault } : {}), visualization: { type: chartType } });
      setNotice(`Scene ${sceneName} saved.`);
    } catch (e) {
      setError(e);
    }
  };
  const columns = answer?.data[0] ? Object.keys(answer.data[0]) : [...dimensions, ...measures];
  const allFields = [...(fields.data?.dimensions ?? []), ...(fields.data?.measures ?? [])];

  return (
    <div>
      <h1>Explore</h1>
      <ErrorBox error={nodes.error} />
      <Section title="Query">
        <SelectField label="Node" value={node} options={(nodes.data?.nodes ?? []).map((n) => ({ value: n.id, label: n.label }))}
          onChange={(v) => { setNodeId(v); setDimensions([]); setMeasures([]); setFilters([]); }} />
        <ErrorBox error={fields.error} />
        <div class="form-grid">
          <fieldset>
            <legend>Dimensions</legend>
            {(fields.data?.dimensions ?? []).map((f) => (
              <Checkbox key={f.id} label={f.label} checked={dimensions.includes(f.id)} onChange={(on) => setDimensions(on ? [...dimensions, f.id] : dimensions.filter((d) => d !== f.id))} />
            ))}
          </fieldset>
          <fieldset>
            <legend>Measures</legend>
            {(fields.data?.measures ?? []).map((f) => (
              <Checkbox key={f.id} label={f.label} checked={measures.includes(f.id)} onChange={(on) => setMeasures(on ? [...measures, f.id] : measures.filter((m) => m !== f.id))} />
            ))}
          </fieldset>
        </div>
        <h3>Filters</h3>
        {filters.map((f, i) => {
          const offered = operatorsFor(targetOf(f.field, fields.data));
          const change = (patch: Partial<Filter>) => setFilters(filters.map((g, j) => (j === i ? { ...g, ...patch } : g)));
          return (
            <div class="row" key={i} role="group" aria-label={`Filter ${i + 1}`}>
              <SelectField label="Field" value={f.field} options={[{ value: '', label: '—' }, ...allFields.map((x) => ({ value: x.id, label: x.label }))]}
                onChange={(v) => {
                  // An operator the new field does not take is replaced by the first one it does.
                  const operators = operatorsFor(targetOf(v, fields.data));
                  change({ field: v, operator: operators.includes(f.operator) ? f.operator : operators[0]! });
                }} />
              <SelectField label="Operator" value={f.operator} options={offered} onChange={(v) => change({ operator: v as FilterOperator })} />
              {OPERATOR_VALUES[f.operator] === 'none' ? null : (
                <TextField label="Value" value={f.value} hint={VALUE_HINTS[OPERATOR_VALUES[f.operator]]} onInput={(v) => change({ value: v })} />
              )}
              <button type="button" onClick={() => setFilters(filters.filter((_, j) => j !== i))}>Remove filter</button>
            </div>
          );
        })}
        <div class="row">
          <button type="button" onClick={() => setFilters([...filters, { field: '', operator: 'equals', value: '' }])}>Add filter</button>
          <button type="button" class="primary" onClick={run} disabled={!node || measures.length + dimensions.length === 0}>Run</button>
        </div>
      </Section>
      <ErrorBox error={error} />
      {notice ? <Notice>{notice}</Notice> : null}
      {answer ? (
        <Section title="Result">
          <p role="status">{answer.metadata.row_count} rows in {answer.metadata.query_time_ms} ms{answer.metadata.truncated ? ' — truncated' : ''}</p>
          <div class="toolbar">
            <SelectField label="Chart type" value={chartType} options={CHART_TYPES.map((t) => ({ value: t, label: CHART_LABELS[t] }))} onChange={(v) => setChosenChart(v as ChartType)} />
          </div>
          <SceneChart visualization={{ type: chartType }} columns={columns} rows={answer.data} title={measures.join(', ') || dimensions.join(', ')} />
          <DataGrid label="Explore rows" columns={columns.map((name) => ({ name }))} rows={answer.data} />
          <details><summary>Show SQL</summary><pre><code>{answer.sql}</code></pre></details>
          <form onSubmit={save} class="row" aria-label="Save as scene">
            <TextField label="Scene name" value={sceneName} onInput={setSceneName} required />
            <SelectField label="Vault" value={vault} options={[{ value: '', label: 'My personal vault' }, ...(vaults.data?.vaults ?? []).map((v) => ({ value: v.id, label: v.name }))]} onChange={setVault} />
            <button type="submit">Save as scene</button>
          </form>
        </Section>
      ) : null}
    </div>
  );
}
