// Signals on the Content page: the list with state and last value ("Not evaluated yet" and when it is
// due, until the first evaluation is recorded), a form to create one, and per signal: edit, delete
// (after a confirmation), "Evaluate now" (a dry run: the value and whether it would fire, nothing sent
// or recorded) and the history of its recorded evaluations.
import { useState } from 'preact/hooks';
import { api, post } from '../api';
import { ErrorBox, Notice } from '../components/feedback';
import { Section } from '../components/field';
import { useAction } from '../components/use-load';
import { LoadMore, usePaged } from '../components/use-paged';
import { CONDITIONS, SignalForm, type Signal } from './signal-form';

interface Evaluation { id: string; evaluated_at: string; value: number | null; holds: boolean | null; state: string | null; fired: boolean | null; error: string | null; values_hidden: string | null }
interface DryRun { value: number | null; holds: boolean | null; would_fire: boolean; state: string; error: string | null }

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');
// A watched value with its thousands separated, as the grids write figures (5,800.83).
const figure = new Intl.NumberFormat('en', { maximumFractionDigits: 2 });
const valueText = (value: number | null, none = '—') => (value === null ? none : figure.format(value));
const conditionWords = (condition: string) => CONDITIONS.find((c) => c.value === condition)?.label ?? condition;
const path = (signal: Signal) => `/api/signals/${encodeURIComponent(signal.id)}`;

function History({ signal }: { signal: Signal }) {
  const evaluations = usePaged<Evaluation>(`${path(signal)}/evaluations?limit=20`, 'evaluations');
  return (
    <div>
      <ErrorBox error={evaluations.error} />
      <table aria-label={`Evaluations of ${signal.name}`}>
        <thead><tr><th scope="col">When</th><th scope="col">Value</th><th scope="col">Condition held</th><th scope="col">State</th><th scope="col">Fired</th><th scope="col">Error</th></tr></thead>
        <tbody>
          {evaluations.items.map((e) => (
            e.values_hidden ? (
              <tr key={e.id}><td>{when(e.evaluated_at)}</td><td colSpan={5} class="muted">Hidden: read with data keys that show other rows than yours.</td></tr>
            ) : (
              <tr key={e.id}><td>{when(e.evaluated_at)}</td><td>{valueText(e.value)}</td><td>{e.holds === null ? '—' : e.holds ? 'yes' : 'no'}</td><td>{e.state}</td><td>{e.fired ? 'yes' : 'no'}</td><td>{e.error ?? ''}</td></tr>
            )
          ))}
        </tbody>
      </table>
      <LoadMore list={evaluations} what="evaluations" empty="No recorded evaluations yet." />
    </div>
  );
}

function DryRunResult({ signal, result }: { signal: Signal; result: DryRun }) {
  return (
    <div role="status" aria-label={`Evaluation of ${signal.name}`}>
      {result.error ? <p class="status error">Could not evaluate: {result.error}</p> : <p>Value now: <strong>{valueText(result.value, 'no value')}</strong></p>}
      <p>{result.would_fire ? 'Would fire: signal.triggered would be sent.' : 'Would not fire.'} State it leads to: {result.state}. Nothing was sent. (A dry run reads with your own data keys.)</p>
    </div>
  );
}

function SignalRow({ signal, onChanged }: { signal: Signal; onChanged: (notice: string) => Promise<void> }) {
  const [open, setOpen] = useState<'edit' | 'delete' | 'evaluate' | 'history'>();
  const [dryRun, setDryRun] = useState<DryRun>();
  const { error, run } = useAction();
  const evaluate = () => run(async () => { setOpen('evaluate'); setDryRun(await post<DryRun>(`${path(signal)}/evaluate`)); });
  const remove = () => run(async () => { await api('DELETE', path(signal)); await onChanged(`Signal ${signal.name} is deleted.`); });
  const save = async (body: unknown) => { await api('PATCH', path(signal), body); setOpen(undefined); await onChanged(`Signal ${signal.name} is saved.`); };
  // Someone else's signal that stopped, or whose values are hidden from you, can be made yours: it then reads with your data keys.
  const takeOver = () => run(async () => { await api('PATCH', path(signal), { take_ownership: true, enabled: true }); await onChanged(`Signal ${signal.name} is yours now: it reads with your data keys.`); });
  const toggle = (what: typeof open) => setOpen(open === what ? undefined : what);
  return (
    <li class="panel" aria-label={`Signal ${signal.name}`}>
      <strong>{signal.name}</strong>{' '}
      <span class="muted">{conditionWords(signal.condition)} {valueText(signal.threshold)} · {'cron' in signal.schedule ? `${signal.schedule.cron} (${signal.schedule.timezone})` : `every ${signal.schedule.interval_seconds} s`}{signal.enabled ? '' : ' · disabled'}</span>
      {signal.stopped ? <p class="status error" role="status">{signal.stopped}</p> : null}
      {signal.values_hidden ? (
        <p class="muted">{signal.values_hidden} · evaluated {when(signal.last_evaluated_at)} · next run {when(signal.next_run_at)}</p>
      ) : signal.state === 'pending' ? (
        // No evaluation recorded yet (a dry run records none): no state to show, only when one is due.
        <p>
          State: <span class="status pending">Not evaluated yet</span> · next evaluation {signal.next_run_at ? when(signal.next_run_at) : 'not scheduled'}
        </p>
      ) : (
        <p>
          State: <span class={`status ${signal.state ?? ''}`}>{signal.state}</span>{signal.last_error ? ` (${signal.last_error})` : ''} · last value {valueText(signal.last_value)} · evaluated {when(signal.last_evaluated_at)} · next run {when(signal.next_run_at)}
        </p>
      )}
      <div class="row">
        <button type="button" onClick={evaluate} aria-label={`Evaluate ${signal.name} now`}>Evaluate now</button>
        <button type="button" onClick={() => toggle('history')} aria-label={`History of ${signal.name}`}>History</button>
        <button type="button" onClick={() => toggle('edit')} aria-label={`Edit ${signal.name}`}>Edit</button>
        <button type="button" onClick={() => toggle('delete')} aria-label={`Delete ${signal.name}`}>Delete</button>
        {signal.stopped || signal.values_hidden ? <button type="button" onClick={takeOver} aria-label={`Take over ${signal.name}`}>Take over</button> : null}
      </div>
      <ErrorBox error={error} />
      {open === 'delete' ? (
        <p role="group" aria-label={`Confirm deleting ${signal.name}`}>
          Delete {signal.name} and its evaluation history?{' '}
          <button type="button" class="danger" onClick={remove}>Yes, delete</button> <button type="button" onClick={() => setOpen(undefined)}>Cancel</button>
        </p>
      ) : null}
      {open === 'evaluate' && dryRun ? <DryRunResult signal={signal} result={dryRun} /> : null}
      {open === 'history' ? <History signal={signal} /> : null}
      {open === 'edit' ? <SignalForm signal={signal} onSave={save} onCancel={() => setOpen(undefined)} /> : null}
    </li>
  );
}

export function Signals() {
  const signals = usePaged<Signal>('/api/signals?limit=50', 'signals');
  const [creating, setCreating] = useState(false);
  const [notice, setNotice] = useState('');
  // The notice follows the reloaded list, so it never announces what the list does not show yet.
  const changed = async (text: string) => { await signals.reload(); setNotice(text); };
  const create = async (body: unknown) => {
    const { signal } = await post<{ signal: Signal }>('/api/signals', body);
    setCreating(false);
    changed(`Signal ${signal.name} is created.`);
  };
  return (
    <Section title="Signals">
      <ErrorBox error={signals.error} />
      {notice ? <Notice>{notice}</Notice> : null}
      {creating ? <SignalForm onSave={create} onCancel={() => setCreating(false)} /> : <button type="button" onClick={() => setCreating(true)}>New signal</button>}
      <ul class="plain">
        {signals.items.map((s) => <SignalRow key={`${s.id}:${s.updated_at}`} signal={s} onChanged={changed} />)}
      </ul>
      <LoadMore list={signals} what="signals" />
      {!signals.loading && signals.items.length === 0 && !signals.error ? <p class="muted">No signals yet.</p> : null}
    </Section>
  );
}
