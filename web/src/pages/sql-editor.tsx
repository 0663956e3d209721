// Surface D's SQL editor: pick a connection, browse its schema, write SQL (highlighting and completion of
// its tables and columns), run with Ctrl/Cmd+Enter, see rows in a virtualised grid, errors at their
// position, the read-only refusal explained, and past runs to reopen (run-history.tsx). Columns sort on
// a header click; the whole result (up to the cap) downloads as CSV; bare column names of the tables a
// statement names complete as they are typed (sql-column-completion.ts).
import { sql, StandardSQL, PostgreSQL, MySQL, type SQLDialect } from '@codemirror/lang-sql';
import type { EditorView } from '@codemirror/view';
import { useMemo, useRef, useState } from 'preact/hooks';
import { ApiError, get, post } from '../api';
import { CodeEditor, setDoc } from '../components/code-editor';
import { DataGrid } from '../components/data-grid';
import { ErrorBox, Loading } from '../components/feedback';
import { SelectField } from '../components/field';
import { useLoad } from '../components/use-load';
import { downloadCsv, type CsvDownload } from './csv-download';
import { RunHistory } from './run-history';
import { bareColumnCompletion } from './sql-column-completion';
import { errorPosition } from './sql-position';

interface Connection { id: string; name: string; engine: string }
interface Table { schema: string; name: string; columns: Array<{ name: string; type: string }> }
interface RunResult { rows: Array<Record<string, unknown>>; columns: Array<{ name: string; type: string }>; duration_ms: number; row_count: number; truncated: boolean }

const DIALECTS: Record<string, SQLDialect> = { postgres: PostgreSQL, mysql: MySQL, duckdb: PostgreSQL, snowflake: StandardSQL };
const LIMITS = ['100', '1000', '10000'];

export function SqlEditorPage() {
  const connections = useLoad(() => get<{ connections: Connection[] }>('/api/studio/connections'));
  const [chosen, setChosen] = useState('');
  const connection = chosen || connections.data?.connections[0]?.name || '';
  const engine = connections.data?.connections.find((c) => c.name === connection)?.engine ?? 'postgres';
  const schema = useLoad(
    () => (connection ? get<{ tables: Table[] }>(`/api/studio/connections/${encodeURIComponent(connection)}/schema`) : Promise.resolve({ tables: [] })),
    [connection],
  );
  const [ranAt, setRanAt] = useState(0);
  const [text, setText] = useState('');
  const [limit, setLimit] = useState('1000');
  const [result, setResult] = useState<RunResult>();
  const [error, setError] = useState<unknown>();
  const [running, setRunning] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [exported, setExported] = useState<CsvDownload>();
  const view = useRef<EditorView>();
  const latest = useRef({ text, connection, limit });
  latest.current = { text, connection, limit };

  const tables = useRef<Table[]>([]);
  tables.current = schema.data?.tables ?? [];
  // Completion of tables and columns from the schema browser's data; bare column names from the
  // tables the statement names (read when completing, so the source need not change with the schema).
  const extensions = useMemo(() => {
    const completion: Record<string, string[]> = {};
    for (const t of schema.data?.tables ?? []) {
      const columns = t.columns.map((c) => c.name);
      completion[t.name] = columns;
      completion[`${t.schema}.${t.name}`] = columns;
    }
    const dialect = DIALECTS[engine] ?? StandardSQL;
    return [sql({ dialect, schema: completion, upperCaseKeywords: true }), dialect.language.data.of({ autocomplete: bareColumnCompletion(() => tables.current) })];
  }, [schema.data, engine]);

  const run = async () => {
    const current = latest.current;
    if (!current.connection || !current.text.trim()) return;
    setRunning(true);
    setError(undefined);
    try {
      setResult(await post<RunResult>('/api/studio/query', { connection: current.connection, sql: current.text, limit: Number(current.limit) }));
    } catch (e) {
      setResult(undefined);
      setError(e);
      showPosition(e);
    } finally {
      setRunning(false);
      setRanAt(Date.now());
    }
  };

  const exportCsv = async () => {
    const current = latest.current;
    if (!current.connection || !current.text.trim()) return;
    setExporting(true);
    setError(undefined);
    setExported(undefined);
    try {
      setExported(await downloadCsv({ connection: current.connection, sql: current.text }));
    } catch (e) {
      setError(e);
      showPosition(e);
    } finally {
      setExporting(false);
      setRanAt(Date.now());
    }
  };

  const showPosition = (e: unknown) => {
    const editor = view.current;
    const position = e instanceof ApiError ? errorPosition(e.message) : undefined;
    if (!editor || !position || position.line > editor.state.doc.lines) return;
    const line = editor.state.doc.line(position.line);
    const at = Math.min(line.to, line.from + Math.max(0, (position.column ?? 1) - 1));
    // The word the engine points at, or the whole line when it names only the line.
    const word = position.column ? (/^\w+/.exec(line.text.slice(at - line.from))?.[0].length ?? 0) : line.length;
    editor.dispatch({ selection: { anchor: position.column ? at : line.from, head: at + word }, scrollIntoView: true });
    editor.focus();
  };

  const isReadOnlyRefusal = error instanceof ApiError && error.code === 'read_only_violation';
  const position = error instanceof ApiError ? errorPosition(error.message) : undefined;

  return (
    <div class="editor-page">
      <h1>SQL editor</h1>
      {connections.loading && !connections.data ? <Loading what="connections" /> : null}
      <ErrorBox error={connections.error} />
      <div class="editor-layout">
        <aside class="schema" aria-label="Schema browser">
          <SelectField label="Connection" value={connection} onChange={setChosen}
            options={(connections.data?.connections ?? []).map((c) => ({ value: c.name, label: `${c.name} (${c.engine})` }))} />
          {schema.loading ? <Loading what="schema" /> : null}
          <ErrorBox error={schema.error} />
          <ul class="tree">
            {(schema.data?.tables ?? []).map((t) => (
              <li key={`${t.schema}.${t.name}`}>
                <details>
                  <summary>{t.schema}.{t.name}</summary>
                  <ul>
                    {t.columns.map((c) => (
                      <li key={c.name}><span>{c.name}</span> <small class="muted">{c.type}</small></li>
                    ))}
                  </ul>
                </details>
              </li>
            ))}
          </ul>
        </aside>
        <section class="work" aria-label="Query">
          <CodeEditor label="SQL" value={text} onChange={setText} onRun={run} extensions={extensions}
            placeholder="SELECT … (Ctrl/Cmd+Enter runs)" onView={(v) => (view.current = v)} />
          <div class="toolbar">
            <button type="button" onClick={run} disabled={running || !connection}>{running ? 'Running…' : 'Run'}</button>
            <SelectField label="Row limit" value={limit} options={LIMITS} onChange={setLimit} />
            <button type="button" onClick={exportCsv} disabled={exporting || !connection}
              title="Runs the statement again and saves every row, up to 10,000, as a CSV file">{exporting ? 'Preparing CSV…' : 'Download CSV'}</button>
            <span class="muted">Ctrl/Cmd+Enter runs the statement</span>
          </div>
          {exported ? (
            <p role="status">
              Saved {exported.fileName}: {exported.rows.toLocaleString()} rows
              {exported.truncated ? <strong> — the cap of {exported.limit.toLocaleString()} rows: the result may hold more; narrow the query for the rest</strong> : null}
            </p>
          ) : null}
          {isReadOnlyRefusal ? (
            <div class="error" role="alert">
              <strong>Refused: this editor only reads.</strong>
              <p>{(error as ApiError).message}. Statements that change data or reach beyond the warehouse's tables are refused before they reach the warehouse.</p>
              <p>Why: {String((error as ApiError).body.reason ?? '')}</p>
            </div>
          ) : (
            <>
              <ErrorBox error={error} />
              {position ? <p class="muted">At line {position.line}{position.column ? `, column ${position.column}` : ''} (selected in the editor).</p> : null}
            </>
          )}
          {result ? (
            <div>
              <p role="status">
                {result.row_count.toLocaleString()} rows in {result.duration_ms} ms
                {result.truncated ? <strong> — truncated at the row limit; narrow the query or raise the limit</strong> : null}
              </p>
              <DataGrid label="Results" columns={result.columns} rows={result.rows} sortable />
            </div>
          ) : null}
        </section>
      </div>
      <RunHistory ranAt={ranAt} onReopen={(name, text) => { setChosen(name); setDoc(view.current, text); }} />
    </div>
  );
}
