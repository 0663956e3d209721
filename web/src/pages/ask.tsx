// Ask: a conversation of questions and governed answers. Each answer shows its prose, the headline
// value, the rows (and a chart when there is a series), and its provenance: reveal, freshness,
// confidence, assumptions and, for a base node with rollups, the rollup each statement was read from (or
// why none was); the SQL that ran (a governed answer's, or the raw-SQL fallback's) is shown on demand.
import { useState } from 'preact/hooks';
import { post } from '../api';
import { Chart } from '../components/chart';
import { chartOf } from '../components/chart-plan';
import { DataGrid } from '../components/data-grid';
import { ErrorBox } from '../components/feedback';
import { TextField } from '../components/field';

interface Answer {
  answer: string;
  data: { rows: Array<Record<string, unknown>>; columns: string[]; metric?: string; value?: number; period?: string };
  provenance: { source: string; reveal?: string; reveal_backed: boolean; freshness: string | null; confidence: string; assumptions: Array<{ code: string; message: string }>; rollups?: StatementRollup[] };
  usage: { tokens_used: number; latency_ms: number };
  no_match?: { reason: string; closest: Array<{ reveal: string; metric: string; label: string }> };
  raw_sql?: { sql: string; connection: string };
  /** The console's addition: the SQL a governed answer's queries ran, with your data keys. */
  sql?: string;
}

/** Which rollup answered a statement of the answer, or why none did (docs/answers.md). */
type StatementRollup = { statement: string } & (
  | { name: string; table: string; partitions_built_at: string; data_through: string | null }
  | { used: null; candidates: Array<{ name: string; reason_code: string; reason: string }> }
);

function rollupText(entry: StatementRollup): string {
  if ('name' in entry) return `${entry.statement}: rollup ${entry.name}, built ${entry.partitions_built_at}${entry.data_through ? `, data through ${entry.data_through}` : ''}`;
  const reasons = entry.candidates.map((c) => `${c.name} ${c.reason_code} (${c.reason})`).join('; ');
  return `${entry.statement}: source${reasons ? `; ${reasons}` : ''}`;
}

interface Turn {
  question: string;
  answer?: Answer;
  error?: unknown;
}

function AnswerView({ answer }: { answer: Answer }) {
  const { data, provenance } = answer;
  const chart = data.rows.length > 1 ? chartOf(data.columns, data.rows) : undefined;
  return (
    <div class="answer">
      <p>{answer.answer}</p>
      {data.value !== undefined ? (
        <p aria-label="Headline value">
          <span class="headline">{data.value.toLocaleString()}</span> <span class="muted">{data.metric}{data.period ? ` · ${data.period}` : ''}</span>
        </p>
      ) : null}
      {chart ? <Chart data={chart} title={data.metric ?? 'Answer'} height={200} /> : null}
      {data.rows.length > 0 ? <DataGrid label="Answer rows" columns={data.columns.map((name) => ({ name }))} rows={data.rows} /> : null}
      <section aria-label="Provenance">
        <h2>Provenance</h2>
        <dl class="facts">
          <dt>Source</dt><dd>{provenance.source}</dd>
          <dt>Reveal</dt><dd>{provenance.reveal ?? 'none'}{provenance.reveal_backed ? ' (governed)' : ''}</dd>
          <dt>Freshness</dt><dd>{provenance.freshness ?? 'unknown'}</dd>
          <dt>Confidence</dt><dd>{provenance.confidence}</dd>
          <dt>Assumptions</dt>
          <dd>{provenance.assumptions.length ? <ul>{provenance.assumptions.map((a) => <li key={a.code}>{a.message}</li>)}</ul> : 'none'}</dd>
          {provenance.rollups ? (
            <>
              <dt>Rollups</dt>
              <dd><ul>{provenance.rollups.map((entry) => <li key={entry.statement}>{rollupText(entry)}</li>)}</ul></dd>
            </>
          ) : null}
        </dl>
      </section>
      {answer.no_match ? (
        <div>
          <p>Why no answer: {answer.no_match.reason}</p>
          {answer.no_match.closest.length ? <p>Closest: {answer.no_match.closest.map((c) => `${c.label} (${c.reveal})`).join(', ')}</p> : null}
        </div>
      ) : null}
      {answer.raw_sql ? (
        <details>
          <summary>Show SQL</summary>
          <pre><code>{answer.raw_sql.sql}</code></pre>
          <p class="muted">on connection {answer.raw_sql.connection}</p>
        </details>
      ) : null}
      {answer.sql ? (
        <details>
          <summary>Show SQL</summary>
          <pre><code aria-label="SQL behind the answer">{answer.sql}</code></pre>
          <p class="muted">compiled from the {answer.provenance.reveal} reveal with your data keys</p>
        </details>
      ) : null}
      <p class="muted">{answer.usage.latency_ms} ms · {answer.usage.tokens_used} tokens</p>
    </div>
  );
}

export function AskPage() {
  const [question, setQuestion] = useState('');
  const [turns, setTurns] = useState<Turn[]>([]);
  const [busy, setBusy] = useState(false);

  const ask = async (event: Event) => {
    event.preventDefault();
    const text = question.trim();
    if (!text) return;
    setBusy(true);
    setQuestion('');
    let turn: Turn;
    try {
      turn = { question: text, answer: await post<Answer>('/api/ask', { question: text }) };
    } catch (error) {
      turn = { question: text, error };
    }
    setTurns((all) => [...all, turn]);
    setBusy(false);
  };

  return (
    <div>
      <h1>Ask</h1>
      <div class="chat" aria-live="polite">
        {turns.map((turn, i) => (
          <article key={i} aria-label={`Question ${i + 1}`}>
            <p><strong>You:</strong> {turn.question}</p>
            {turn.answer ? <AnswerView answer={turn.answer} /> : <ErrorBox error={turn.error} />}
          </article>
        ))}
      </div>
      <form onSubmit={ask} class="row">
        <TextField label="Question" value={question} onInput={setQuestion} placeholder="What was revenue last month by region?" />
        <button type="submit" disabled={busy}>{busy ? 'Asking…' : 'Ask'}</button>
      </form>
    </div>
  );
}
