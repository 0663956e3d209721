// The CML builder: choose a reveal, its metrics and dimensions, see the SQL the compiler builds (with
// your data keys), and run it through POST /api/studio/query/cml.
import { useEffect, useState } from 'preact/hooks';
import { post } from '../api';
import { Chart } from '../components/chart';
import { chartOf } from '../components/chart-plan';
import { DataGrid } from '../components/data-grid';
import { ErrorBox } from '../components/feedback';
import { Checkbox, Section, SelectField, TextField } from '../components/field';
import { splitList, useReveals } from '../components/reveal-picker';

interface Built {
  sql: string;
  connection: string;
  columns: Array<{ key: string; kind: string; type: string }>;
  result: { rows: Array<Record<string, unknown>>; columns: Array<{ name: string; type: string }>; row_count: number; duration_ms: number; truncated: boolean } | null;
}

export function CmlBuilderPage() {
  const reveals = useReveals();
  const [reveal, setReveal] = useState('');
  const [typedReveal, setTypedReveal] = useState('');
  const chosen = reveals.data?.reveals.find((r) => `${r.domain}/${r.name}` === reveal) ?? reveals.data?.reveals[0];
  const [measures, setMeasures] = useState<string[]>([]);
  const [dimensions, setDimensions] = useState('');
  const [preview, setPreview] = useState<Built>();
  const [ran, setRan] = useState<Built>();
  const [error, setError] = useState<unknown>();

  const request = (run: boolean) => ({
    ...(chosen ? { reveal: chosen.name, domain: chosen.domain } : { reveal: typedReveal }),
    measures,
    dimensions: splitList(dimensions),
    run,
  });

  // The SQL preview follows the choices.
  useEffect(() => {
    if (!(chosen || typedReveal) || measures.length + splitList(dimensions).length === 0) return setPreview(undefined);
    const timer = setTimeout(() => {
      post<Built>('/api/studio/query/cml', request(false)).then((built) => { setPreview(built); setError(undefined); }, setError);
    }, 250);
    return () => clearTimeout(timer);
  }, [chosen?.name, chosen?.domain, typedReveal, measures.join(), dimensions]);

  const run = async () => {
    try {
      setError(undefined);
      setRan(await post<Built>('/api/studio/query/cml', request(true)));
    } catch (e) {
      setError(e);
    }
  };

  const chart = ran?.result ? chartOf(ran.result.columns.map((c) => c.name), ran.result.rows) : undefined;
  return (
    <div>
      <h1>CML builder</h1>
      <Section title="Query">
        {/* The typed fallback is for a list that failed to load, not for one still on its way. */}
        {reveals.data || !reveals.error ? (
          <SelectField label="Reveal" value={chosen ? `${chosen.domain}/${chosen.name}` : ''} onChange={(v) => { setReveal(v); setMeasures([]); }}
            options={reveals.data ? reveals.data.reveals.map((r) => ({ value: `${r.domain}/${r.name}`, label: `${r.name} (${r.domain})` })) : [{ value: '', label: 'Loading reveals…' }]} />
        ) : (
          <TextField label="Reveal" value={typedReveal} onInput={setTypedReveal} hint="The reveal list could not be loaded: type a reveal's name." />
        )}
        {chosen ? (
          <fieldset>
            <legend>Metrics</legend>
            {chosen.metrics.map((m) => (
              <Checkbox key={m} label={m} checked={measures.includes(m)} onChange={(on) => setMeasures(on ? [...measures, m] : measures.filter((x) => x !== m))} />
            ))}
          </fieldset>
        ) : (
          <TextField label="Metrics (comma-separated)" value={measures.join(', ')} onInput={(v) => setMeasures(splitList(v))} />
        )}
        <TextField label="Dimensions (comma-separated)" value={dimensions} onInput={setDimensions} placeholder="status, channel" />
        <div class="row"><button type="button" class="primary" onClick={run}>Run query</button></div>
      </Section>
      <ErrorBox error={error} />
      {preview ? (
        <Section title="SQL preview">
          <pre aria-label="Compiled SQL"><code>{preview.sql}</code></pre>
          <p class="muted">on connection {preview.connection}</p>
        </Section>
      ) : null}
      {ran?.result ? (
        <Section title="Result">
          <p role="status">{ran.result.row_count} rows in {ran.result.duration_ms} ms{ran.result.truncated ? ' — truncated' : ''}</p>
          {chart ? <Chart data={chart} title={measures.join(', ')} /> : null}
          <DataGrid label="Result rows" columns={ran.result.columns} rows={ran.result.rows} />
        </Section>
      ) : null}
    </div>
  );
}
