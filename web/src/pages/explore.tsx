// Explore: pick a node, its dimensions and measures, add filters, see the rows and a chart, and save the
// query as a scene in a vault.
import { useState } from 'preact/hooks';
import { get, post } from '../api';
import { Chart, chartOf } from '../components/chart';
import { DataGrid } from '../components/data-grid';
import { ErrorBox, Notice } from '../components/feedback';
import { Checkbox, Section, SelectField, TextField } from '../components/field';
import { useLoad } from '../components/use-load';

interface NodeItem { id: string; label: string }
interface Field { id: string; label: string; type: string }
interface Fields { dimensions: Field[]; measures: Field[] }
interface Filter { field: string; operator: string; value: string }
interface QueryAnswer { data: Array<Record<string, unknown>>; sql: string; metadata: { row_count: number; query_time_ms: number; truncated: boolean } }
interface Vault { id: string; name: string }

const OPERATORS = ['equals', 'notEquals', 'contains', 'gt', 'gte', 'lt', 'lte', 'set', 'notSet', 'inThePast'];

function filterValue(text: string): string | number | Array<string | number> | undefined {
  if (text === '') return undefined;
  const parts = text.split(',').map((s) => s.trim());
  const typed = parts.map((p) => (p !== '' && !Number.isNaN(Number(p)) ? Number(p) : p));
  return typed.length === 1 ? typed[0] : typed;
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

  const queryBody = () => ({
    node,
    dimensions,
    measures,
    filters: filters.filter((f) => f.field).map((f) => ({ field: f.field, operator: f.operator, ...(filterValue(f.value) !== undefined ? { value: filterValue(f.value) } : {}) })),
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
      await post('/api/scenes', { name: sceneName, ...query, ...(vault ? { vault } : {}), visualization: { type: dimensions.length ? 'bar' : 'number' } });
      setNotice(`Scene ${sceneName} saved.`);
    } catch (e) {
      setError(e);
    }
  };
  const columns = answer?.data[0] ? Object.keys(answer.data[0]) : [...dimensions, ...measures];
  const chart = answer ? chartOf(columns, answer.data) : undefined;
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
        {filters.map((f, i) => (
          <div class="row" key={i} role="group" aria-label={`Filter ${i + 1}`}>
            <SelectField label="Field" value={f.field} options={[{ value: '', label: '—' }, ...allFields.map((x) => ({ value: x.id, label: x.label }))]}
              onChange={(v) => setFilters(filters.map((g, j) => (j === i ? { ...g, field: v } : g)))} />
            <SelectField label="Operator" value={f.operator} options={OPERATORS} onChange={(v) => setFilters(filters.map((g, j) => (j === i ? { ...g, operator: v } : g)))} />
            <TextField label="Value" value={f.value} hint="Several values: separate with commas" onInput={(v) => setFilters(filters.map((g, j) => (j === i ? { ...g, value: v } : g)))} />
            <button type="button" onClick={() => setFilters(filters.filter((_, j) => j !== i))}>Remove filter</button>
          </div>
        ))}
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
          {chart ? <Chart data={chart} title={measures.join(', ')} /> : null}
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
