// The CML builder: choose a reveal, its metrics and dimensions, filters (each may be negated), a
// comparison with another period and percents of total; see the SQL the compiler builds (with your data
// keys), and run it through POST /api/studio/query/cml. The answer names the reveal's base node, whose
// fields the filters and the comparison offer. A refused query's error is shown beside its control.
import { useEffect, useState } from 'preact/hooks';
import { get, post } from '../api';
import { defaultChartType } from '../components/chart-plan';
import { CompareControls, compareForQuery, NO_COMPARE, useWorkspaceZone, type CompareState } from '../components/compare-controls';
import { dimensionLabel, isTimeType } from '../components/dimension-picker';
import { errorAt } from '../components/error-place';
import { ErrorBox, Loading } from '../components/feedback';
import { Checkbox, Section, SelectField, TextField } from '../components/field';
import { FilterEditor, filtersForQuery, type Fields, type FilterRow } from '../components/filter-editor';
import type { ComparisonSummary, ResultColumn } from '../components/result-format';
import { ResultView } from '../components/result-view';
import { splitList, useReveals } from '../components/reveal-picker';
import { ShareControls, sharesForQuery, type ShareState } from '../components/share-controls';
import { useLoad } from '../components/use-load';

interface Built {
  sql: string;
  connection: string;
  base: string;
  time: string | null;
  columns: ResultColumn[];
  comparison?: ComparisonSummary;
  result: { rows: Array<Record<string, unknown>>; columns: Array<{ name: string; type: string }>; row_count: number; duration_ms: number; truncated: boolean } | null;
}

const NO_FIELDS: Fields = { dimensions: [], measures: [] };

export function CmlBuilderPage() {
  const reveals = useReveals();
  const zone = useWorkspaceZone();
  const [reveal, setReveal] = useState('');
  const [typedReveal, setTypedReveal] = useState('');
  const chosen = reveals.data?.reveals.find((r) => `${r.domain}/${r.name}` === reveal) ?? reveals.data?.reveals[0];
  const [measures, setMeasures] = useState<string[]>([]);
  const [dimensions, setDimensions] = useState('');
  const [filters, setFilters] = useState<FilterRow[]>([]);
  const [compare, setCompare] = useState<CompareState>(NO_COMPARE);
  const [shares, setShares] = useState<ShareState>({});
  const [preview, setPreview] = useState<Built>();
  const [ran, setRan] = useState<Built>();
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<unknown>();

  // The reveal's fields are its base node's (named by the answer): filters are on its dimensions.
  const base = preview?.base ?? ran?.base;
  const time = preview?.time ?? ran?.time;
  const nodeFields = useLoad(() => (base ? get<Fields>(`/api/nodes/${encodeURIComponent(base)}/fields`) : Promise.resolve(NO_FIELDS)), [base]);
  const fields: Fields = { dimensions: nodeFields.data?.dimensions ?? [], measures: [] };
  // The reveal's own time dimension first: the one a comparison is usually on.
  const timeDimensions = fields.dimensions.filter((d) => isTimeType(d.type)).sort((a, b) => Number(b.id === time) - Number(a.id === time));
  const chosenDimensions = splitList(dimensions);
  const labelOf = (id: string) => dimensionLabel(id, fields.dimensions) ?? id;
  const { compare: compareSpec, problem: compareProblem } = compareForQuery(compare, zone, new Date());
  const shareSpec = sharesForQuery(shares, measures, chosenDimensions);

  const request = (run: boolean) => ({
    ...(chosen ? { reveal: chosen.name, domain: chosen.domain } : { reveal: typedReveal }),
    measures,
    dimensions: chosenDimensions,
    filters: filtersForQuery(filters, fields),
    ...(compareSpec ? { compare: compareSpec } : {}),
    ...(shareSpec ? { shares: shareSpec } : {}),
    run,
  });

  // The SQL preview follows the choices.
  const asked = JSON.stringify(request(false));
  useEffect(() => {
    if (!(chosen || typedReveal) || measures.length + chosenDimensions.length === 0 || compareProblem) return setPreview(undefined);
    const timer = setTimeout(() => {
      post<Built>('/api/studio/query/cml', JSON.parse(asked)).then((built) => { setPreview(built); setError(undefined); }, setError);
    }, 250);
    return () => clearTimeout(timer);
  }, [asked, compareProblem]);

  const run = async () => {
    setError(undefined);
    setRunning(true);
    try {
      setRan(await post<Built>('/api/studio/query/cml', request(true)));
    } catch (e) {
      setRan(undefined);
      setError(e);
    } finally {
      setRunning(false);
    }
  };
  const pickReveal = (v: string) => {
    setReveal(v);
    setMeasures([]);
    setFilters([]);
    setCompare(NO_COMPARE);
    setShares({});
  };
  const toggleMetric = (m: string, on: boolean) => {
    setMeasures(on ? [...measures, m] : measures.filter((x) => x !== m));
    if (!on) setShares(Object.fromEntries(Object.entries(shares).filter(([k]) => k !== m)));
  };

  const isTime = (id: string) => isTimeType(fields.dimensions.find((d) => d.id === id.split('.')[0])?.type);
  return (
    <div>
      <h1>CML builder</h1>
      <Section title="Query">
        {/* The typed fallback is for a list that failed to load, not for one still on its way. */}
        {reveals.data || !reveals.error ? (
          <SelectField label="Reveal" value={chosen ? `${chosen.domain}/${chosen.name}` : ''} onChange={pickReveal}
            options={reveals.data ? reveals.data.reveals.map((r) => ({ value: `${r.domain}/${r.name}`, label: `${r.name} (${r.domain})` })) : [{ value: '', label: 'Loading reveals…' }]} />
        ) : (
          <TextField label="Reveal" value={typedReveal} onInput={setTypedReveal} hint="The reveal list could not be loaded: type a reveal's name." />
        )}
        {chosen ? (
          <fieldset>
            <legend>Metrics</legend>
            {chosen.metrics.map((m) => (
              <Checkbox key={m} label={m} checked={measures.includes(m)} onChange={(on) => toggleMetric(m, on)} />
            ))}
          </fieldset>
        ) : (
          <TextField label="Metrics (comma-separated)" value={measures.join(', ')} onInput={(v) => setMeasures(splitList(v))} />
        )}
        <TextField label="Dimensions (comma-separated)" value={dimensions} onInput={setDimensions} placeholder="status, channel, created_at.month" />
        {base ? (
          <>
            <ErrorBox error={nodeFields.error} />
            <FilterEditor rows={filters} onChange={setFilters} fields={fields} error={errorAt(error, 'filters')} />
            <div class="form-grid options">
              <CompareControls state={compare} onChange={setCompare} timeDimensions={timeDimensions} timeZone={zone} now={() => new Date()} error={errorAt(error, 'compare')} />
              <ShareControls state={shares} onChange={setShares} measures={measures.map((id) => ({ id, label: id, type: 'number' }))}
                dimensions={chosenDimensions.map((id) => ({ id, label: labelOf(id), type: '' }))} error={errorAt(error, 'shares')} />
            </div>
          </>
        ) : (
          <p class="muted">Choose a metric or a dimension: filters, a comparison and percents of total are then offered on the reveal’s fields.</p>
        )}
        <div class="row">
          <button type="button" class="primary" onClick={run} disabled={running || compareProblem !== undefined}>{running ? 'Running…' : 'Run query'}</button>
          {running ? <Loading what="the rows" /> : null}
        </div>
      </Section>
      <ErrorBox error={errorAt(error, 'query')} />
      {preview ? (
        <Section title="SQL preview">
          <pre aria-label="Compiled SQL"><code>{preview.sql}</code></pre>
          <p class="muted">on connection {preview.connection}</p>
        </Section>
      ) : null}
      {ran?.result ? (
        <Section title="Result">
          <p role="status">{ran.result.row_count} rows in {ran.result.duration_ms} ms{ran.result.truncated ? ' — truncated' : ''}</p>
          <ResultView columns={ran.columns} rows={ran.result.rows} labelOf={labelOf} comparison={ran.comparison}
            chartType={defaultChartType(chosenDimensions, isTime)} gridLabel="Result rows" />
        </Section>
      ) : null}
    </div>
  );
}
