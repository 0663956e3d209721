// The SQL editor's run history: your own editor runs unless you choose other sources (the CML builder,
// scenes, signals, API requests, or everything), so runs made on your behalf never push your SQL out of
// view. Each run shows, and reopens, the text that runs as shown: a governed run's SQL with its values
// written as literals; what ran (placeholders and values) is there too.
import { useState } from 'preact/hooks';
import { query } from '../api';
import { ErrorBox } from '../components/feedback';
import { SelectField } from '../components/field';
import { LoadMore, usePaged } from '../components/use-paged';

interface Run {
  id: string;
  connection: string;
  surface: string;
  origin: string;
  sql: string;
  params: unknown[] | null;
  runnable_sql: string | null;
  status: string;
  error: string | null;
  row_count: number | null;
  created_at: string;
}

/** The history's `source` filter, as GET /api/studio/history takes it ('' for every run). */
const SOURCES = [
  { value: 'editor', label: 'My SQL in this editor' },
  { value: 'cml', label: 'CML builder' },
  { value: 'scene', label: 'Scenes and mosaics' },
  { value: 'signal', label: 'Signals' },
  { value: 'api', label: 'API requests, Explore and Ask' },
  { value: 'sql', label: 'SQL clients (BI tools)' },
  { value: '', label: 'Everything' },
];

const short = (text: string) => (text.length > 120 ? `${text.slice(0, 117)}…` : text);

function Entry({ run, onReopen }: { run: Run; onReopen: (connection: string, sql: string) => void }) {
  const shown = run.runnable_sql ?? run.sql;
  return (
    <li>
      {run.runnable_sql !== null ? (
        <button type="button" onClick={() => onReopen(run.connection, run.runnable_sql!)} aria-label={`Reopen: ${shown.slice(0, 60)}`}>Reopen</button>
      ) : (
        <button type="button" disabled title="Recorded before its values were kept: it cannot run as shown">Reopen</button>
      )}{' '}
      <span class={`status ${run.status}`}>{run.status}</span> <code>{short(shown)}</code>{' '}
      <small class="muted">
        {run.origin === 'sql' ? '' : `${run.origin} · `}{run.connection} · {new Date(run.created_at).toLocaleString()}{run.row_count !== null ? ` · ${run.row_count} rows` : ''}
      </small>
      {run.params !== null ? (
        <details>
          <summary>As it ran: placeholders and values</summary>
          <pre><code>{run.sql}</code></pre>
          <p class="muted">Values, in order: <code>{JSON.stringify(run.params)}</code></p>
        </details>
      ) : null}
    </li>
  );
}

/** `ranAt` changes after each run of the editor, so the list reloads with it. */
export function RunHistory({ ranAt, onReopen }: { ranAt: number; onReopen: (connection: string, sql: string) => void }) {
  const [source, setSource] = useState('editor');
  const runs = usePaged<Run>(`/api/studio/history${query({ limit: 20, source })}`, 'runs', [ranAt]);
  return (
    <section class="panel" aria-label="Run history">
      <h2>Run history</h2>
      <div class="toolbar">
        <SelectField label="Show" value={source} options={SOURCES} onChange={setSource} />
      </div>
      <ErrorBox error={runs.error} />
      <ul class="history">
        {runs.items.map((run) => <Entry key={run.id} run={run} onReopen={onReopen} />)}
      </ul>
      <LoadMore list={runs} what="runs" empty={source === 'editor' ? 'No runs of yours yet: run a statement above.' : 'No runs of this kind.'} />
    </section>
  );
}
