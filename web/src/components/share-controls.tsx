// "Percent of total": per measure, its share of the total of every row, or of each group of one of the
// query's dimensions ("within channel": each row's share of its channel). It becomes the query's
// `shares`; the server answers a fraction (0.25) that the table shows as 25 %.
import { ErrorBox } from './feedback';
import { Checkbox, SelectField } from './field';
import type { FieldInfo } from './filter-editor';

/** Per measure id: absent when off, '' for the total of all rows, else the dimension the total keeps. */
export type ShareState = Record<string, string>;

export function sharesForQuery(state: ShareState, measures: string[], dimensions: string[]): Array<{ measure: string; of?: string[] }> | undefined {
  const shares = measures
    .filter((m) => Object.hasOwn(state, m))
    // A "within" dimension no longer among the query's falls back to the total of all rows.
    .map((m) => (state[m] && dimensions.includes(state[m]) ? { measure: m, of: [state[m]] } : { measure: m }));
  return shares.length ? shares : undefined;
}

interface Props {
  state: ShareState;
  onChange: (state: ShareState) => void;
  /** The query's measures and dimensions, with their labels. */
  measures: FieldInfo[];
  dimensions: FieldInfo[];
  error?: unknown;
}

export function ShareControls({ state, onChange, measures, dimensions, error }: Props) {
  if (measures.length === 0) return null;
  return (
    <fieldset class="shares" aria-label="Percent of total">
      <legend>Percent of total</legend>
      {measures.map((m) => {
        const on = Object.hasOwn(state, m.id);
        return (
          <div class="row" key={m.id} role="group" aria-label={`Percent of total: ${m.label}`}>
            <Checkbox label={`${m.label} as % of total`} checked={on}
              onChange={(checked) => {
                const { [m.id]: _dropped, ...rest } = state;
                onChange(checked ? { ...rest, [m.id]: '' } : rest);
              }} />
            {on && dimensions.length > 0 ? (
              <SelectField label="Total of" value={state[m.id] ?? ''} onChange={(v) => onChange({ ...state, [m.id]: v })}
                options={[{ value: '', label: 'All rows' }, ...dimensions.map((d) => ({ value: d.id, label: `Each ${d.label}` }))]} />
            ) : null}
          </div>
        );
      })}
      <ErrorBox error={error} />
    </fieldset>
  );
}
